import { SqlRepository } from './sql-repository.js';

/** One fixed-window counter: which limit, whose calls, and which window (epoch milliseconds). */
export interface CounterWindow {
  /** The limit it counts for, e.g. "runRepeatedBuyerQuestion:hour". */
  bucket: string;
  /** The caller the counter belongs to, or a constant for limits shared by everyone. */
  callerKey: string;
  windowStartMs: number;
  windowEndMs: number;
}

/** The SQL behind the rate limiter's persistent fixed-window counters. */
export class RateLimitRepository extends SqlRepository {
  /** How many calls each counter has already let through (0 for a window never used). */
  usedCounts(windows: readonly CounterWindow[]): number[] {
    const read = this.statement('SELECT used FROM rate_limit_counters WHERE bucket = ? AND caller_key = ? AND window_start = ?');
    return windows.map((window) => {
      const row = read.get(window.bucket, window.callerKey, window.windowStartMs) as { used: number } | undefined;
      return row?.used ?? 0;
    });
  }

  /** Adds one call to every counter, creating the window's row when it is the first. */
  incrementAll(windows: readonly CounterWindow[]): void {
    const increment = this.statement(`
      INSERT INTO rate_limit_counters (bucket, caller_key, window_start, window_end, used) VALUES (?, ?, ?, ?, 1)
      ON CONFLICT (bucket, caller_key, window_start) DO UPDATE SET used = used + 1
    `);
    for (const window of windows) increment.run(window.bucket, window.callerKey, window.windowStartMs, window.windowEndMs);
  }

  /** Deletes counters whose window has ended; returns how many went. */
  pruneEndedBefore(nowMs: number): number {
    return this.statement('DELETE FROM rate_limit_counters WHERE window_end <= ?').run(nowMs).changes;
  }
}
