import type { RateLimitStore } from './ports.js';
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

/** The SQL behind the rate limiter's persistent fixed-window counters: the SQLite adapter of RateLimitStore. */
export class RateLimitRepository extends SqlRepository implements RateLimitStore {
  /** Read and increment in one IMMEDIATE transaction: all limits pass and count together, or none counts. */
  async consume(windows: readonly CounterWindow[], maxes: readonly number[]): Promise<{ usedBefore: number[]; counted: boolean }> {
    return this.transaction(() => {
      const usedBefore = this.usedCountsNow(windows);
      const counted = usedBefore.every((used, index) => used < (maxes[index] ?? 0));
      if (counted) this.incrementAll(windows);
      return { usedBefore, counted };
    });
  }

  async usedCounts(windows: readonly CounterWindow[]): Promise<number[]> {
    return this.usedCountsNow(windows);
  }

  async pruneEndedBefore(nowMs: number): Promise<number> {
    return this.statement('DELETE FROM rate_limit_counters WHERE window_end <= ?').run(nowMs).changes;
  }

  /** How many calls each counter has already let through (0 for a window never used). */
  usedCountsNow(windows: readonly CounterWindow[]): number[] {
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
}
