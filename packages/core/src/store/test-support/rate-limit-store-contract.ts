import { describe, expect, it } from 'vitest';
import type { RateLimitStore } from '../ports.js';
import type { CounterWindow } from '../rate-limit-repository.js';

const HOUR = 3_600_000;
const at = (bucket: string, callerKey: string, windowStartMs = 0, lengthMs = HOUR): CounterWindow => ({ bucket, callerKey, windowStartMs, windowEndMs: windowStartMs + lengthMs });

/** The rate-limit port's contract: two handles on one store stand for two instances. */
export function rateLimitStoreContract(name: string, open: () => Promise<{ first: RateLimitStore; second: RateLimitStore }>): void {
  describe(`rate-limit port contract: ${name}`, () => {
    it('counts every limit of a call together, or none when any is exhausted', async () => {
      const { first, second } = await open();
      const hour = at('op:hour', 'caller:a');
      const shared = at('op:day', 'shared', 0, 24 * HOUR);
      expect(await first.consume([hour, shared], [2, 3])).toEqual({ usedBefore: [0, 0], counted: true });
      expect(await second.consume([hour, shared], [2, 3])).toEqual({ usedBefore: [1, 1], counted: true });
      // The hour is full: nothing counts, the shared day keeps its two.
      expect(await first.consume([hour, shared], [2, 3])).toEqual({ usedBefore: [2, 2], counted: false });
      expect(await second.usedCounts([hour, shared, at('op:hour', 'caller:b')])).toEqual([2, 2, 0]);
      // Another caller's hour is its own; the next window starts from zero.
      expect(await second.consume([at('op:hour', 'caller:b'), shared], [2, 3])).toEqual({ usedBefore: [0, 2], counted: true });
      expect(await first.consume([at('op:hour', 'caller:a', HOUR)], [2])).toEqual({ usedBefore: [0], counted: true });
    });

    it('lets exactly max calls through when two instances consume at once', async () => {
      const { first, second } = await open();
      const windows = [at('burst:minute', 'caller:x', 0, 60_000), at('burst:day', 'shared', 0, 24 * HOUR)];
      const outcomes = await Promise.all(Array.from({ length: 60 }, (_unused, index) => (index % 2 === 0 ? first : second).consume(windows, [25, 1_000])));
      expect(outcomes.filter((outcome) => outcome.counted)).toHaveLength(25);
      expect(await first.usedCounts(windows)).toEqual([25, 25]);
    });

    it('prunes the counters whose window has ended', async () => {
      const { first, second } = await open();
      await first.consume([at('op:hour', 'caller:a', 0)], [5]);
      await first.consume([at('op:hour', 'caller:a', HOUR)], [5]);
      expect(await second.pruneEndedBefore(HOUR)).toBe(1);
      expect(await first.usedCounts([at('op:hour', 'caller:a', 0), at('op:hour', 'caller:a', HOUR)])).toEqual([0, 1]);
    });
  });
}
