import type { WatchSchedule } from './types.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The time between two scheduled runs. */
export function schedulePeriodMs(schedule: WatchSchedule): number {
  return schedule === 'weekly' ? 7 * DAY_MS : DAY_MS;
}

/**
 * The next due time after a run due at `dueAt`: one period later, and later still while that is already in the
 * past (a service that was down for days runs a watch once, not once per missed day).
 */
export function nextRunAfter(schedule: WatchSchedule, dueAt: Date, now: Date): Date {
  const period = schedulePeriodMs(schedule);
  let next = dueAt.getTime() + period;
  if (next <= now.getTime()) next += Math.ceil((now.getTime() - next + 1) / period) * period;
  return new Date(next);
}
