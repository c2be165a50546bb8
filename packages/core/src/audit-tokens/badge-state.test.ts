import { describe, expect, it } from 'vitest';
import { badgeStateAt, formatMeasuredMonth, lastRunOf, RECHECK_AFTER_DAYS, recheckDueAt } from './badge-state.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const lastRun = new Date('2026-09-15T10:00:00.000Z');

describe('badgeStateAt', () => {
  it('is fresh up to and including exactly 60 days after the last run, re-check one millisecond later', () => {
    expect(RECHECK_AFTER_DAYS).toBe(60);
    expect(badgeStateAt(lastRun, lastRun)).toBe('fresh');
    expect(badgeStateAt(lastRun, new Date(lastRun.getTime() + 60 * DAY_MS))).toBe('fresh');
    expect(badgeStateAt(lastRun, new Date(lastRun.getTime() + 60 * DAY_MS + 1))).toBe('recheck');
    expect(badgeStateAt(lastRun, new Date(lastRun.getTime() + 61 * DAY_MS))).toBe('recheck');
  });

  it('names the first moment of the re-check state', () => {
    const due = recheckDueAt(lastRun);
    expect(badgeStateAt(lastRun, due)).toBe('recheck');
    expect(badgeStateAt(lastRun, new Date(due.getTime() - 1))).toBe('fresh');
  });
});

describe('formatMeasuredMonth', () => {
  it('uses the UTC month and English names whatever the server time zone', () => {
    expect(formatMeasuredMonth(new Date('2026-11-30T23:59:59.999Z'))).toBe('Nov 2026');
    expect(formatMeasuredMonth(new Date('2026-12-01T00:00:00.000Z'))).toBe('Dec 2026');
    expect(formatMeasuredMonth(new Date('2027-01-01T00:00:00.000Z'))).toBe('Jan 2027');
  });
});

describe('lastRunOf', () => {
  it('is the audit time, or a later map run when the stored response has one', () => {
    expect(lastRunOf('2026-09-15T10:00:00.000Z').toISOString()).toBe('2026-09-15T10:00:00.000Z');
    expect(lastRunOf('2026-09-15T10:00:00.000Z', '2026-11-02T08:00:00.000Z').toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(lastRunOf('2026-09-15T10:00:00.000Z', '2026-01-02T08:00:00.000Z').toISOString()).toBe('2026-09-15T10:00:00.000Z');
  });

  it('ignores a lastRunAt that is not a date', () => {
    expect(lastRunOf('2026-09-15T10:00:00.000Z', 'soon').toISOString()).toBe('2026-09-15T10:00:00.000Z');
  });
});
