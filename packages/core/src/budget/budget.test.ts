import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Store } from '../store/store.js';
import { fakeClock } from '../store/test-support/fake-clock.js';
import { runWorker } from '../store/test-support/run-worker.js';
import { useTempStores } from '../store/test-support/temp-stores.js';
import { createBudget, monthOf, nextMonthStart, type Budget, type BudgetOptions, type ReserveOutcome } from './budget.js';
import { createPriceTable } from './prices.js';

const { open, dataDir } = useTempStores('budget');

// Output-only price of $1 per million tokens: a reservation of 1,000 output tokens is exactly 1,000 micro-dollars.
const prices = createPriceTable({ 'test-model': { input: 0, output: 1 } });
const thousandTokens = { provider: 'openai', model: 'test-model', prompt: 'Which CRM is best?', maxOutputTokens: 1000 } as const;

/** A $0.01 budget (10,000 micro-dollars); without a degraded reserve unless a test asks for one. */
function budgetOn(store: Store, options: Partial<BudgetOptions> = {}): Budget {
  return createBudget(store.budgetRepository, { monthlyBudgetUsd: 0.01, prices, degradedReserveFraction: 0, ...options });
}

function granted(outcome: ReserveOutcome) {
  if (!outcome.granted) throw new Error('expected the reservation to be granted');
  return outcome.reservation;
}

function refused(outcome: ReserveOutcome) {
  if (outcome.granted) throw new Error('expected the reservation to be refused');
  return outcome;
}

describe('createBudget: reserve never overspends', () => {
  it('grants 200 concurrent reservations only up to the cap', async () => {
    const budget = budgetOn(open());
    const outcomes = await Promise.all(Array.from({ length: 200 }, async () => (await budget.reserve(thousandTokens))));
    const grantedEstimates = outcomes.flatMap((outcome) => (outcome.granted ? [outcome.reservation.estimateMicroUsd] : []));
    expect(grantedEstimates.reduce((sum, estimate) => sum + estimate, 0)).toBe(10_000);
    expect(grantedEstimates).toHaveLength(10);
    expect((await budget.status())).toMatchObject({ spentMicroUsd: 0, reservedMicroUsd: 10_000, remainingMicroUsd: 0, exhausted: true });
  });

  it('holds the cap across two stores on the same DATA_DIR file', async () => {
    const budgets = [budgetOn(open()), budgetOn(open())];
    const outcomes = await Promise.all(Array.from({ length: 200 }, async (_, index) => budgets[index % 2]?.reserve(thousandTokens)));
    const total = outcomes.reduce((sum, outcome) => sum + (outcome?.granted === true ? outcome.reservation.estimateMicroUsd : 0), 0);
    expect(total).toBe(10_000);
  });

  it('holds the cap across separate OS processes', async () => {
    open(); // migrate once so the workers do not race on the schema
    const worker = fileURLToPath(new URL('./test-support/reserve-worker.ts', import.meta.url));
    const startAt = Date.now() + 1500;
    // Cap $2 = 2,000 reservations of 1,000 micro-dollars; 2,400 attempts keep the processes contending throughout.
    const runs = Array.from({ length: 4 }, () =>
      runWorker<{ granted: number; reservedMicroUsd: number }>(worker, [dataDir(), '600', '2', String(startAt)]),
    );
    const results = await Promise.all(runs);
    expect(results.reduce((sum, result) => sum + result.reservedMicroUsd, 0)).toBe(2_000_000);
    const workersClock = () => new Date('2026-03-10T12:00:00Z');
    expect((await budgetOn(open(), { monthlyBudgetUsd: 2, now: workersClock }).status()).reservedMicroUsd).toBe(2_000_000);
  }, 120_000);

  it('refuses with the seconds left until the month turns', async () => {
    const clock = fakeClock('2026-01-31T23:59:30.200Z');
    const budget = budgetOn(open(), { now: clock.now });
    for (let index = 0; index < 10; index += 1) granted((await budget.reserve(thousandTokens)));
    const refusal = refused((await budget.reserve(thousandTokens)));
    expect(refusal.retryAfterSeconds).toBe(30);
    expect(refusal.resetAt.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(refusal.status.exhausted).toBe(true);
  });
});

describe('createBudget: settle', () => {
  it('replaces the estimate with the real cost', async () => {
    const budget = budgetOn(open());
    const reservation = granted((await budget.reserve(thousandTokens)));
    expect(reservation.estimateMicroUsd).toBe(1000);
    expect((await budget.settle(reservation, { usage: { inputTokens: 40, outputTokens: 300 } }))).toBe(300);
    expect((await budget.status())).toMatchObject({ spentMicroUsd: 300, reservedMicroUsd: 0, remainingMicroUsd: 9700, spentUsd: 0.0003 });
  });

  it('prices the settled call by the model that answered', async () => {
    const budget = createBudget(open().budgetRepository, { monthlyBudgetUsd: 10 });
    const reservation = granted((await budget.reserve({ ...thousandTokens, model: 'gpt-4.1-mini' })));
    const cost = (await budget.settle(reservation, { model: 'gpt-4.1-mini-2025-04-14', usage: { inputTokens: 1000, outputTokens: 2000 } }));
    expect(cost).toBe(3600);
    expect((await budget.status()).spentMicroUsd).toBe(3600);
  });

  it('settles a failed call at zero and frees its reservation', async () => {
    const budget = budgetOn(open());
    const reservations = await times(10, async () => granted(await budget.reserve(thousandTokens)));
    refused((await budget.reserve(thousandTokens)));
    const [first] = reservations;
    if (first === undefined) throw new Error('no reservation');
    expect((await budget.settle(first))).toBe(0);
    expect((await budget.status())).toMatchObject({ spentMicroUsd: 0, reservedMicroUsd: 9000 });
    granted((await budget.reserve(thousandTokens)));
  });

  it('counts a reservation settled twice only once', async () => {
    const budget = budgetOn(open());
    const reservation = granted((await budget.reserve(thousandTokens)));
    await budget.settle(reservation, { usage: { inputTokens: 0, outputTokens: 500 } });
    await budget.settle(reservation, { usage: { inputTokens: 0, outputTokens: 500 } });
    expect((await budget.status()).spentMicroUsd).toBe(500);
  });
});

describe('createBudget: months, persistence, crashes', () => {
  it('starts every UTC calendar month from zero', async () => {
    const clock = fakeClock('2026-01-31T23:00:00Z');
    const budget = budgetOn(open(), { now: clock.now });
    const reservation = granted((await budget.reserve(thousandTokens)));
    await budget.settle(reservation, { usage: { inputTokens: 0, outputTokens: 10_000 } });
    expect((await budget.status())).toMatchObject({ month: '2026-01', spentMicroUsd: 10_000, exhausted: true });
    expect((await budget.hasBudgetLeft())).toBe(false);
    refused((await budget.reserve(thousandTokens)));
    clock.set('2026-02-01T00:00:00Z');
    expect((await budget.status())).toMatchObject({ month: '2026-02', spentMicroUsd: 0, exhausted: false });
    expect((await budget.status()).resetAt.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect((await budget.hasBudgetLeft())).toBe(true);
    granted((await budget.reserve(thousandTokens)));
  });

  it('keeps spend across close and reopen', async () => {
    const first = open();
    const budget = budgetOn(first);
    await budget.settle(granted(await budget.reserve(thousandTokens)), { usage: { inputTokens: 0, outputTokens: 700 } });
    first.close();
    expect((await budgetOn(open()).status()).spentMicroUsd).toBe(700);
  });

  it('takes reservations a stopped process left behind as spent once they are stale', async () => {
    const clock = fakeClock('2026-03-10T12:00:00Z');
    const crashed = open();
    granted(await budgetOn(crashed, { now: clock.now }).reserve(thousandTokens));
    crashed.close(); // never settled

    clock.advance(5 * 60_000);
    const early = budgetOn(open(), { now: clock.now });
    expect((await early.status())).toMatchObject({ spentMicroUsd: 0, reservedMicroUsd: 1000 });

    clock.advance(6 * 60_000);
    const late = budgetOn(open(), { now: clock.now });
    expect((await late.status())).toMatchObject({ spentMicroUsd: 1000, reservedMicroUsd: 0 });
    // A process that stays up also notices, without a restart.
    expect((await early.status())).toMatchObject({ spentMicroUsd: 1000, reservedMicroUsd: 0 });
  });

  it('adds only the excess when a reclaimed reservation is settled after all', async () => {
    const clock = fakeClock('2026-03-10T12:00:00Z');
    const slow = budgetOn(open(), { now: clock.now });
    const reservation = granted((await slow.reserve(thousandTokens)));
    clock.advance(11 * 60_000);
    expect((await slow.reclaimStaleReservations())).toBe(1);
    expect((await slow.status()).spentMicroUsd).toBe(1000);
    await slow.settle(reservation, { usage: { inputTokens: 0, outputTokens: 1500 } });
    expect((await slow.status())).toMatchObject({ spentMicroUsd: 1500, reservedMicroUsd: 0 });
  });
});

describe('createBudget: free models and the degraded-mode hook', () => {
  it('never refuses a free (demo) model, even with a zero budget', async () => {
    const budget = createBudget(open().budgetRepository, { monthlyBudgetUsd: 0 });
    expect((await budget.hasBudgetLeft())).toBe(false);
    expect((await budget.hasBudgetLeft('demo-gpt-4.1-mini'))).toBe(true);
    const reservation = granted((await budget.reserve({ ...thousandTokens, model: 'demo-gpt-4.1-mini' })));
    expect(reservation.estimateMicroUsd).toBe(0);
    refused((await budget.reserve({ ...thousandTokens, model: 'gpt-4.1-mini' })));
  });

  it('refuses a negative cap', async () => {
    expect(() => createBudget(open().budgetRepository, { monthlyBudgetUsd: -1 })).toThrow(/>= 0/);
  });
});

describe('createBudget: the reserve for degraded audits', () => {
  it('stops ordinary calls at the cap less the reserve, and lets an allowance spend the reserve, all or nothing', async () => {
    // A $0.01 cap with 30% kept back: ordinary calls get 7,000 micro-dollars, a degraded audit up to 10,000.
    const budget = budgetOn(open(), { degradedReserveFraction: 0.3 });
    expect((await budget.status())).toMatchObject({ capMicroUsd: 10_000, degradedReserveMicroUsd: 3_000, remainingMicroUsd: 7_000, degradedRemainingMicroUsd: 10_000 });
    const ordinary = await times(7, async () => granted(await budget.reserve(thousandTokens)));
    refused((await budget.reserve(thousandTokens)));
    expect((await budget.hasBudgetLeft('test-model'))).toBe(false);
    expect((await budget.status())).toMatchObject({ exhausted: true, remainingMicroUsd: 0, degradedRemainingMicroUsd: 3_000 });

    // Four calls do not fit in the 3,000 left: nothing is reserved.
    const tooMany = (await budget.reserveAllowance(Array.from({ length: 4 }, () => thousandTokens)));
    expect(tooMany.granted).toBe(false);
    expect((await budget.status()).reservedMicroUsd).toBe(7_000);

    const allowance = (await budget.reserveAllowance(Array.from({ length: 3 }, () => thousandTokens)));
    if (!allowance.granted) throw new Error('expected the allowance to be granted');
    expect(allowance.reservations.map((reservation) => reservation.estimateMicroUsd)).toEqual([1000, 1000, 1000]);
    expect((await budget.status())).toMatchObject({ reservedMicroUsd: 10_000, degradedRemainingMicroUsd: 0 });
    expect((await budget.reserveAllowance([thousandTokens])).granted).toBe(false);

    // Settling gives back what a call did not use, to ordinary calls only once the reserve is whole again.
    for (const reservation of [...ordinary, ...allowance.reservations]) (await budget.settle(reservation, { usage: { inputTokens: 0, outputTokens: 500 } }));
    expect((await budget.status())).toMatchObject({ spentMicroUsd: 5_000, reservedMicroUsd: 0, remainingMicroUsd: 2_000, degradedRemainingMicroUsd: 5_000 });
  });

  it('keeps a tenth of the cap by default and refuses a fraction outside 0..1', async () => {
    const store = open();
    expect(await createBudget(store.budgetRepository, { monthlyBudgetUsd: 50 }).status()).toMatchObject({ degradedReserveUsd: 5, remainingUsd: 45 });
    expect(() => createBudget(store.budgetRepository, { monthlyBudgetUsd: 50, degradedReserveFraction: 1.5 })).toThrow(/degradedReserveFraction/);
  });

  it('never exceeds the cap when ordinary reservations and allowances race', async () => {
    const budget = budgetOn(open(), { degradedReserveFraction: 0.5 });
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, async (_, index) =>
        index % 3 === 0 ? (await budget.reserveAllowance([thousandTokens, thousandTokens])) : (await budget.reserve(thousandTokens)),
      ),
    );
    expect(outcomes.some((outcome) => outcome.granted)).toBe(true);
    const status = (await budget.status());
    expect(status.reservedMicroUsd).toBeLessThanOrEqual(10_000);
    // Ordinary reservations alone never pass the ordinary ceiling.
    const ordinaryGranted = outcomes.filter((outcome, index) => index % 3 !== 0 && outcome.granted).length;
    expect(ordinaryGranted * 1000).toBeLessThanOrEqual(5_000);
  });
});

describe('month helpers', () => {
  it('use UTC calendar months', async () => {
    expect(monthOf(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12');
    expect(nextMonthStart(new Date('2026-12-31T23:59:59.999Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(nextMonthStart(new Date('2026-02-01T00:00:00.000Z')).toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
});

/** Runs an async step n times, one after the other; returns the results in order. */
async function times<T>(count: number, step: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let index = 0; index < count; index += 1) results.push(await step());
  return results;
}
