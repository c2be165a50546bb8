import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderFailure, type Answer, type AskRequest, type Provider } from '../providers/types.js';
import { openStore, type Store } from '../store/store.js';
import { createBudget, type Budget } from './budget.js';
import { withBudget } from './with-budget.js';

let dataDir: string;
let store: Store;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'visibility-with-budget-'));
  store = openStore({ dataDir });
});
afterEach(() => {
  store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A provider that records its calls and answers (or fails) as told. */
function fakeProvider(behaviour: (request: AskRequest) => Promise<Answer>, model = 'gpt-4.1-mini') {
  const calls: AskRequest[] = [];
  const provider: Provider = {
    id: 'openai',
    model,
    async ask(request) {
      calls.push(request);
      return behaviour(request);
    },
  };
  return { provider, calls };
}

const answer = (usage: Answer['usage'], model = 'gpt-4.1-mini-2025-04-14'): Answer => ({
  provider: 'openai',
  model,
  text: 'HubSpot, Salesforce',
  usage,
  latencyMs: 10,
  attempts: 1,
});

function budgetAt(cap: number, now = () => new Date('2026-03-31T23:00:00Z')): Budget {
  return createBudget(store.budgetRepository, { monthlyBudgetUsd: cap, now });
}

describe('withBudget', () => {
  it('throws a non-retryable budget failure and never calls the provider when refused', async () => {
    const { provider, calls } = fakeProvider(async () => answer({ inputTokens: 1, outputTokens: 1 }));
    const guarded = withBudget(provider, budgetAt(0));
    const failure = await guarded.ask({ prompt: 'Which CRM is best for a small team?' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect(failure).toMatchObject({ kind: 'budget', provider: 'openai', retryable: false, retryAfterMs: 3600 * 1000 });
    expect(calls).toHaveLength(0);
  });

  it('pays a call from a reservation made ahead (a degraded audit’s allowance) without reserving again', async () => {
    // $0.01 with half kept for degraded audits; the ordinary half is already spent.
    const budget = createBudget(store.budgetRepository, { monthlyBudgetUsd: 0.01, degradedReserveFraction: 0.5, now: () => new Date('2026-03-31T23:00:00Z') });
    store.budgetRepository.addSpend('2026-03', 5_000, 1, new Date('2026-03-31T22:00:00Z'));
    const { provider, calls } = fakeProvider(async () => answer({ inputTokens: 1000, outputTokens: 1000 }));
    const guarded = withBudget(provider, budget);
    await expect(guarded.ask({ prompt: 'Best CRM?' })).rejects.toMatchObject({ kind: 'budget' });
    const allowance = (await budget.reserveAllowance([{ provider: 'openai', model: 'gpt-4.1-mini', prompt: 'Best CRM?', maxOutputTokens: 1024 }]));
    if (!allowance.granted) throw new Error('expected the allowance to be granted');
    const [reservation] = allowance.reservations;
    const result = await guarded.ask({ prompt: 'Best CRM?', maxOutputTokens: 1024, budgetReservation: reservation });
    expect(result.text).toBe('HubSpot, Salesforce');
    expect(calls).toHaveLength(1);
    // Settled at the real cost (1000 in at $0.40 + 1000 out at $1.60 per million), the reservation gone.
    expect((await budget.status())).toMatchObject({ spentMicroUsd: 7_000, reservedMicroUsd: 0 });
  });

  it('reserves the estimate during the call and settles the real cost after', async () => {
    const budget = budgetAt(10);
    let reservedDuringCall = -1;
    const { provider, calls } = fakeProvider(async () => {
      reservedDuringCall = (await budget.status()).reservedMicroUsd;
      return answer({ inputTokens: 1000, outputTokens: 2000 });
    });
    const guarded = withBudget(provider, budget);
    const result = await guarded.ask({ prompt: 'Which CRM is best?', maxOutputTokens: 500 });
    expect(result.text).toBe('HubSpot, Salesforce');
    expect(calls).toHaveLength(1);
    // Estimate: (18 bytes / 3 + 16) input tokens at $0.40/M plus 500 output tokens at $1.60/M.
    expect(reservedDuringCall).toBe(Math.ceil(22 * 0.4 + 500 * 1.6));
    expect((await budget.status())).toMatchObject({ spentMicroUsd: 3600, reservedMicroUsd: 0 });
  });

  it('uses the adapters default output cap when the request names none', async () => {
    const budget = budgetAt(10);
    let reservedDuringCall = -1;
    const { provider } = fakeProvider(async () => {
      reservedDuringCall = (await budget.status()).reservedMicroUsd;
      return answer({ inputTokens: 1, outputTokens: 1 });
    });
    await withBudget(provider, budget, { defaultMaxOutputTokens: 2000 }).ask({ prompt: '' });
    expect(reservedDuringCall).toBe(Math.ceil(16 * 0.4 + 2000 * 1.6));
  });

  it('settles a failed call at zero and rethrows its failure', async () => {
    const budget = budgetAt(10);
    const overloaded = new ProviderFailure({ kind: 'overloaded', provider: 'openai', message: 'busy' });
    const { provider } = fakeProvider(async () => {
      throw overloaded;
    });
    await expect(withBudget(provider, budget).ask({ prompt: 'q' })).rejects.toBe(overloaded);
    expect((await budget.status())).toMatchObject({ spentMicroUsd: 0, reservedMicroUsd: 0 });
  });

  it('lets a demo model through a zero budget', async () => {
    const { provider, calls } = fakeProvider(async () => answer({ inputTokens: 50, outputTokens: 500 }, 'demo-gpt-4.1-mini'), 'demo-gpt-4.1-mini');
    const budget = budgetAt(0);
    await withBudget(provider, budget).ask({ prompt: 'q' });
    expect(calls).toHaveLength(1);
    expect((await budget.status()).spentMicroUsd).toBe(0);
  });

  it('logs each call in the same transaction as its settlement: a failed log write leaves no spend behind', async () => {
    const budget = budgetAt(5);
    const { provider } = fakeProvider(async () => answer({ inputTokens: 1000, outputTokens: 500 }));
    const logged = withBudget(provider, budget, { callLog: store.repository });
    await logged.ask({ prompt: 'Which CRM?', purpose: 'test' });
    const calls = () => store.database.prepare('SELECT outcome, failure_kind AS kind FROM provider_calls').all();
    const spent = () => (store.database.prepare('SELECT COALESCE(SUM(spent_micro_usd), 0) AS spent FROM budget_spend').get() as { spent: number }).spent;
    expect(calls()).toEqual([{ outcome: 'ok', kind: null }]);
    const spentAfterOne = spent();
    expect(spentAfterOne).toBeGreaterThan(0);

    // A crash between the two writes is simulated by a log write that fails inside the store: the
    // settlement rolls back with it.
    store.database.exec("CREATE TRIGGER broken_log BEFORE INSERT ON provider_calls BEGIN SELECT RAISE(ABORT, 'disk gone'); END");
    await expect(withBudget(provider, budget, { callLog: store.repository }).ask({ prompt: 'Which CRM?' })).rejects.toThrow('disk gone');
    expect(spent()).toBe(spentAfterOne);
    expect(calls()).toHaveLength(1);
    store.database.exec('DROP TRIGGER broken_log');

    // A refusal is logged too, as a budget failure, with nothing spent.
    const refusing = withBudget(provider, budgetAt(0), { callLog: store.repository });
    await expect(refusing.ask({ prompt: 'Which CRM?' })).rejects.toMatchObject({ kind: 'budget' });
    expect(calls()).toEqual([
      { outcome: 'ok', kind: null },
      { outcome: 'failed', kind: 'budget' },
    ]);
    expect(spent()).toBe(spentAfterOne);
  });
});
