/** What a badge may claim: a measurement, a re-check due, or nothing (unknown token). */
export type BadgeState = 'fresh' | 'recheck' | 'unknown';

/** The spec's Badge state table: 60 days after the last run the badge stops claiming a fresh measurement. */
export const RECHECK_AFTER_DAYS = 60;

const DAY_MS = 24 * 60 * 60 * 1000;
const RECHECK_AFTER_MS = RECHECK_AFTER_DAYS * DAY_MS;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** Fresh while the last run is at most 60 days old (exactly 60 days is still fresh), else re-check. */
export function badgeStateAt(lastRunAt: Date, now: Date): 'fresh' | 'recheck' {
  return now.getTime() - lastRunAt.getTime() > RECHECK_AFTER_MS ? 'recheck' : 'fresh';
}

/** When a fresh badge turns into a re-check badge. */
export function recheckDueAt(lastRunAt: Date): Date {
  return new Date(lastRunAt.getTime() + RECHECK_AFTER_MS + 1);
}

/** The month of a measurement as the badge shows it, in UTC and English ("Nov 2026") whatever the server locale. */
export function formatMeasuredMonth(date: Date): string {
  return `${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

/**
 * The last run of an audit: the later of when it ran and the stored `lastRunAt` (a map re-run),
 * ignoring a `lastRunAt` that is not a date.
 */
export function lastRunOf(createdAt: string, lastRunAt?: string): Date {
  const created = new Date(createdAt);
  if (lastRunAt === undefined) return created;
  const rerun = new Date(lastRunAt);
  if (Number.isNaN(rerun.getTime())) return created;
  return Number.isNaN(created.getTime()) || rerun.getTime() > created.getTime() ? rerun : created;
}
