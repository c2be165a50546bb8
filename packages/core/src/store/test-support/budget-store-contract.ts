import { describe, expect, it } from 'vitest';
import type { BudgetReservationRecord } from '../budget-repository.js';
import type { BudgetStore } from '../ports.js';
import type { ProviderCallRecord } from '../repository.js';

/** Two handles on one store (two instances) and a view of its call log, plus a way to make the log's writes fail. */
export interface BudgetStoreFixture {
  first: BudgetStore;
  second: BudgetStore;
  callLog(): Promise<Array<{ purpose: string; outcome: string }>>;
  breakCallLog(): Promise<void>;
  repairCallLog(): Promise<void>;
}

let next = 0;
function reservation(estimateMicroUsd: number, month = '2026-03', createdAtMs = Date.parse('2026-03-10T12:00:00Z')): BudgetReservationRecord {
  next += 1;
  return { id: `r-${next}-${Math.random().toString(36).slice(2, 8)}`, month, provider: 'openai', model: 'gpt', estimateMicroUsd, createdAtMs };
}
function call(purpose: string): ProviderCallRecord {
  return { provider: 'openai', model: 'gpt', purpose, outcome: 'ok', inputTokens: 10, outputTokens: 20, latencyMs: 5, attempts: 1, createdAt: '2026-03-10T12:00:00.000Z' };
}
const AT = new Date('2026-03-10T12:00:00Z');

/** The budget port's contract: every adapter passes it. */
export function budgetStoreContract(name: string, open: () => Promise<BudgetStoreFixture>): void {
  describe(`budget port contract: ${name}`, () => {
    it('reserves all or nothing against the ceiling; a free batch always fits', async () => {
      const { first, second } = await open();
      expect(await first.reserveAll('2026-03', [reservation(400), reservation(400)], 1_000)).toBe(true);
      expect(await second.reserveAll('2026-03', [reservation(100), reservation(150)], 1_000)).toBe(false);
      expect(await second.reserveAll('2026-03', [reservation(200)], 1_000)).toBe(true);
      expect(await second.reserveAll('2026-03', [reservation(0), reservation(0)], 1_000)).toBe(true);
      expect(await first.totals('2026-03')).toEqual({ spentMicroUsd: 0, calls: 0, reservedMicroUsd: 1_000, reservations: 5 });
    });

    it('never grants past the ceiling when two instances reserve at once', async () => {
      const { first, second } = await open();
      const outcomes = await Promise.all(Array.from({ length: 40 }, (_unused, index) => (index % 2 === 0 ? first : second).reserveAll('2026-03', [reservation(100)], 1_000)));
      expect(outcomes.filter(Boolean)).toHaveLength(10);
      expect((await second.totals('2026-03')).reservedMicroUsd).toBe(1_000);
    });

    it('settles a call: the reservation goes, the cost is spent and the call logged; a reclaimed one adds only the excess', async () => {
      const { first, second, callLog } = await open();
      const held = reservation(500);
      await first.reserveAll('2026-03', [held], 10_000);
      expect(await second.settle({ reservationId: held.id, estimateMicroUsd: 500, costMicroUsd: 300, month: '2026-03', at: AT, callLog: call('first') })).toBe(true);
      expect(await first.totals('2026-03')).toEqual({ spentMicroUsd: 300, calls: 1, reservedMicroUsd: 0, reservations: 0 });
      // Settled again (or after a stale reclaim): only the cost above the estimate is added, no call counted.
      expect(await first.settle({ reservationId: held.id, estimateMicroUsd: 500, costMicroUsd: 800, month: '2026-03', at: AT })).toBe(false);
      expect(await first.totals('2026-03')).toMatchObject({ spentMicroUsd: 600, calls: 1 });
      await first.recordProviderCall({ ...call('refused'), outcome: 'failed', failureKind: 'budget' });
      expect(await callLog()).toEqual([
        { purpose: 'first', outcome: 'ok' },
        { purpose: 'refused', outcome: 'failed' },
      ]);
    });

    it('writes the call-log row in the settlement transaction: a failed log write leaves no spend behind', async () => {
      const { first, callLog, breakCallLog, repairCallLog } = await open();
      const held = reservation(500);
      await first.reserveAll('2026-03', [held], 10_000);
      await breakCallLog();
      await expect(first.settle({ reservationId: held.id, estimateMicroUsd: 500, costMicroUsd: 300, month: '2026-03', at: AT, callLog: call('lost') })).rejects.toThrow();
      await repairCallLog();
      expect(await first.totals('2026-03')).toEqual({ spentMicroUsd: 0, calls: 0, reservedMicroUsd: 500, reservations: 1 });
      expect(await callLog()).toEqual([]);
    });

    it('reclaims reservations older than a moment as spend at their estimate, in their month', async () => {
      const { first, second } = await open();
      const old = reservation(700, '2026-02', Date.parse('2026-02-28T23:50:00Z'));
      const fresh = reservation(200, '2026-03', Date.parse('2026-03-01T00:05:00Z'));
      await first.reserveAll('2026-02', [old], 10_000);
      await first.reserveAll('2026-03', [fresh], 10_000);
      expect(await second.reclaimStale(Date.parse('2026-03-01T00:00:00Z'), AT)).toBe(1);
      expect(await first.totals('2026-02')).toMatchObject({ spentMicroUsd: 700, calls: 1, reservedMicroUsd: 200, reservations: 1 });
      expect(await first.totals('2026-03')).toMatchObject({ spentMicroUsd: 0, calls: 0 });
      expect(await second.reclaimStale(Date.parse('2026-03-01T00:00:00Z'), AT)).toBe(0);
    });
  });
}
