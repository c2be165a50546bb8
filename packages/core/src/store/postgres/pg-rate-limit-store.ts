import type { RateLimitStore } from '../ports.js';
import type { CounterWindow } from '../rate-limit-repository.js';
import { inTransaction, type PgPool } from './pool.js';

const keyOf = (window: CounterWindow): string => `${window.bucket}\u0000${window.callerKey}\u0000${window.windowStartMs}`;

/**
 * The PostgreSQL adapter of RateLimitStore. A consume locks its counter rows (created at 0 when new)
 * in one fixed order, reads them, and adds one to each only when all have room, in one transaction:
 * concurrent callers on any instances queue on the rows, so no limit lets one call too many through.
 */
export class PgRateLimitStore implements RateLimitStore {
  constructor(private readonly pool: PgPool) {}

  consume(windows: readonly CounterWindow[], maxes: readonly number[]): Promise<{ usedBefore: number[]; counted: boolean }> {
    // One order for every transaction (no two wait on each other's rows in opposite orders).
    const order = windows.map((window, index) => ({ window, index })).sort((left, right) => keyOf(left.window).localeCompare(keyOf(right.window)));
    return inTransaction(this.pool, async (client) => {
      const usedBefore = new Array<number>(windows.length).fill(0);
      for (const { window, index } of order) {
        await client.query(
          `INSERT INTO rate_limit_counters (bucket, caller_key, window_start, window_end, used) VALUES ($1, $2, $3, $4, 0)
           ON CONFLICT (bucket, caller_key, window_start) DO NOTHING`,
          [window.bucket, window.callerKey, window.windowStartMs, window.windowEndMs],
        );
        const { rows } = await client.query<{ used: number }>(
          'SELECT used FROM rate_limit_counters WHERE bucket = $1 AND caller_key = $2 AND window_start = $3 FOR UPDATE',
          [window.bucket, window.callerKey, window.windowStartMs],
        );
        usedBefore[index] = rows[0]?.used ?? 0;
      }
      const counted = usedBefore.every((used, index) => used < (maxes[index] ?? 0));
      if (counted) {
        for (const { window } of order) {
          await client.query('UPDATE rate_limit_counters SET used = used + 1 WHERE bucket = $1 AND caller_key = $2 AND window_start = $3', [
            window.bucket,
            window.callerKey,
            window.windowStartMs,
          ]);
        }
      }
      return { usedBefore, counted };
    });
  }

  async usedCounts(windows: readonly CounterWindow[]): Promise<number[]> {
    return Promise.all(
      windows.map(async (window) => {
        const { rows } = await this.pool.query<{ used: number }>(
          'SELECT used FROM rate_limit_counters WHERE bucket = $1 AND caller_key = $2 AND window_start = $3',
          [window.bucket, window.callerKey, window.windowStartMs],
        );
        return rows[0]?.used ?? 0;
      }),
    );
  }

  async pruneEndedBefore(nowMs: number): Promise<number> {
    const result = await this.pool.query('DELETE FROM rate_limit_counters WHERE window_end <= $1', [nowMs]);
    return result.rowCount ?? 0;
  }
}
