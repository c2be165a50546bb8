import { describe, expect, it } from 'vitest';
import type { JobOwner, JobStore } from '../types.js';

const A: JobOwner = { id: 'host-a/1/aaaa', host: 'host-a', pid: 1 };
const B: JobOwner = { id: 'host-b/2/bbbb', host: 'host-b', pid: 2 };
const LEASE = 30_000;

/**
 * The jobs port's contract: every adapter passes it. `open()` gives two handles on ONE store (two
 * connections where the adapter has connections), standing for two processes.
 */
export function jobStoreContract(name: string, open: () => Promise<{ first: JobStore; second: JobStore }>): void {
  describe(`jobs port contract: ${name}`, () => {
    it('claims a job for one owner at a time; the holder renews it; a free lease is claimed by another', async () => {
      const { first, second } = await open();
      expect(await first.claim('map', 'job-1', A, LEASE, 1_000)).toEqual({ kind: 'map', key: 'job-1', expiresAt: 31_000, attempts: 1 });
      expect(await second.claim('map', 'job-1', B, LEASE, 2_000)).toBeUndefined();
      // Claiming again as the holder renews, and does not count as a takeover.
      expect(await first.claim('map', 'job-1', A, LEASE, 3_000)).toMatchObject({ expiresAt: 33_000, attempts: 1 });
      expect(await first.heartbeat(A.id, LEASE, 20_000)).toEqual([{ kind: 'map', key: 'job-1' }]);
      expect(await second.claimExpired(['map'], B, LEASE, 49_999, 10)).toEqual([]);
      const taken = await second.claimExpired(['map'], B, LEASE, 50_000, 10);
      expect(taken).toEqual([{ kind: 'map', key: 'job-1', expiresAt: 80_000, attempts: 2 }]);
      // The old owner's heartbeat no longer holds it, and it cannot finish or release it.
      expect(await first.heartbeat(A.id, LEASE, 50_001)).toEqual([]);
      expect(await first.finish('map', 'job-1', A.id, 'done', 50_002)).toBe(false);
      expect(await first.release('map', 'job-1', A.id, 0, 50_002)).toBe(false);
      expect(await second.get('map', 'job-1')).toMatchObject({ status: 'open', owner: B.id, ownerHost: 'host-b', ownerPid: 2, leaseExpiresAt: 80_000 });
    });

    it('a finished job is never claimed again; a released one is claimable from when it says', async () => {
      const { first, second } = await open();
      await first.claim('mcp-run', 'r1', A, LEASE, 0);
      expect(await first.finish('mcp-run', 'r1', A.id, 'done', 10)).toBe(true);
      expect(await second.claim('mcp-run', 'r1', B, LEASE, 20)).toBeUndefined();
      expect(await second.claimExpired(['mcp-run'], B, LEASE, 10 ** 12, 10)).toEqual([]);
      expect(await second.get('mcp-run', 'r1')).toMatchObject({ status: 'done', owner: undefined });

      await first.claim('mcp-run', 'r2', A, LEASE, 0);
      expect(await first.release('mcp-run', 'r2', A.id, 5_000, 100)).toBe(true);
      expect(await second.claimExpired(['mcp-run'], B, LEASE, 4_999, 10)).toEqual([]);
      expect((await second.claimExpired(['mcp-run'], B, LEASE, 5_000, 10)).map((lease) => lease.key)).toEqual(['r2']);
      // An explicit claim of a released job does not wait (a caller asking for it now).
      await second.release('mcp-run', 'r2', B.id, 99_999, 5_001);
      expect(await first.claim('mcp-run', 'r2', A, LEASE, 5_002)).toMatchObject({ key: 'r2' });
    });

    it('enqueue creates a free job once; takeover claims only the kinds asked, oldest first, up to the limit', async () => {
      const { first, second } = await open();
      expect(await first.enqueue('map', 'm1', 1)).toBe(true);
      expect(await second.enqueue('map', 'm1', 2)).toBe(false);
      await first.enqueue('map', 'm2', 3);
      await first.enqueue('other', 'o1', 0);
      expect((await second.claimExpired(['map'], B, LEASE, 10, 1)).map((lease) => lease.key)).toEqual(['m1']);
      expect((await first.claimExpired(['map'], A, LEASE, 10, 5)).map((lease) => lease.key)).toEqual(['m2']);
      expect(await first.claimExpired(['map'], A, LEASE, 10, 5)).toEqual([]);
      expect(await first.get('other', 'o1')).toMatchObject({ status: 'open', owner: undefined, attempts: 0 });
      // Scheduled for later: not claimable before its time.
      expect(await first.enqueue('map', 'later', 10, 5_000)).toBe(true);
      expect(await second.claimExpired(['map'], B, LEASE, 4_999, 5)).toEqual([]);
      expect((await second.claimExpired(['map'], B, LEASE, 5_000, 5)).map((lease) => lease.key)).toEqual(['later']);
    });

    it('frees the live-looking leases of owners named dead, and lists the owners of one host', async () => {
      const { first, second } = await open();
      await first.claim('map', 'x', A, LEASE, 0);
      await second.claim('map', 'y', B, LEASE, 0);
      expect(await first.ownersOnHost('host-a')).toEqual([{ owner: A.id, pid: 1 }]);
      const other: JobOwner = { id: 'host-a/3/cccc', host: 'host-a', pid: 3 };
      expect(await second.claimExpired(['map'], other, LEASE, 1, 10)).toEqual([]);
      expect((await second.claimExpired(['map'], other, LEASE, 1, 10, [A.id])).map((lease) => lease.key)).toEqual(['x']);
      expect(await first.get('map', 'y')).toMatchObject({ owner: B.id });
    });

    it('two owners racing for the same free jobs never both get one', async () => {
      const { first, second } = await open();
      for (let index = 0; index < 20; index += 1) await first.enqueue('map', `j${index}`, index);
      const [left, right] = await Promise.all([
        Promise.all(Array.from({ length: 10 }, () => first.claimExpired(['map'], A, LEASE, 100, 3))),
        Promise.all(Array.from({ length: 10 }, () => second.claimExpired(['map'], B, LEASE, 100, 3))),
      ]);
      const keys = [...left, ...right].flat().map((lease) => lease.key);
      expect(keys).toHaveLength(20);
      expect(new Set(keys).size).toBe(20);
    });
  });
}
