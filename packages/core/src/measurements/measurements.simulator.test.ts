// Repeat and check through the real SDK adapters, against the provider simulator on loopback.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openaiSnapshot, startSimulator, type RunningSimulator } from '@visibility/simulator';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CheckResponseSchema, RepeatResponseSchema } from '../api/schemas.js';
import { createBudget, withBudget, type Budget } from '../budget/index.js';
import { createBrandMatcher, extractBrands } from '../extraction/index.js';
import { createProviderLineup, type LineupOptions, type ProviderSettings } from '../providers/index.js';
import type { Provider, ProviderId } from '../providers/types.js';
import { openStore, type Store } from '../store/store.js';
import { checkBrandRecognition } from '../operations/check-brand-recognition.js';
import { MeasurementError } from './errors.js';
import { promptMentionsBrand } from './prompts.js';
import { computeRepeatMetrics } from './repeat-metrics.js';
import { runRepeatedBuyerQuestion } from '../operations/run-repeated-buyer-question.js';

const QUESTION = 'What is the best CRM software for a small marketing agency?';
const DEMO_MODELS: Record<ProviderId, string> = {
  openai: 'demo-gpt-4.1-mini',
  anthropic: 'demo-claude-sonnet-4-5',
  gemini: 'demo-gemini-2.5-flash',
};
const noSleep = async (): Promise<void> => {};

let simulator: RunningSimulator;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 7, latencyMs: 0 });
});

afterAll(async () => {
  await simulator.close();
});

beforeEach(() => {
  simulator.reset();
  simulator.setLatency(0);
});

/** The real SDK-backed lineup pointed at the simulator, as the demo mode builds it. */
function simulatorLineup(
  options: Partial<LineupOptions> & { models?: Partial<Record<ProviderId, string>>; apiKey?: string; only?: ProviderId[] } = {},
): Map<ProviderId, Provider> {
  const settings: Partial<Record<ProviderId, ProviderSettings>> = {};
  for (const id of options.only ?? (['openai', 'anthropic', 'gemini'] as const)) {
    settings[id] = { apiKey: options.apiKey ?? 'demo-key', baseURL: simulator.baseUrls[id], model: options.models?.[id] ?? DEMO_MODELS[id] };
  }
  return createProviderLineup(settings, {
    timeoutMs: 15_000, // generous: no test here is about timeouts, and a loaded CI machine (the refit test) slowed a call past 5 s
    maxRetries: options.maxRetries ?? 0,
    maxConcurrentPerProvider: options.maxConcurrentPerProvider ?? 1,
    retry: { sleep: noSleep },
  });
}

async function measurementErrorOf(promise: Promise<unknown>): Promise<MeasurementError> {
  const outcome = await promise.then(
    (value) => value,
    (error: unknown) => error,
  );
  if (!(outcome instanceof MeasurementError)) throw new Error(`expected a MeasurementError, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('runRepeatedBuyerQuestion against the simulator', () => {
  it.each(['openai', 'anthropic', 'gemini'] as const)('returns 5 %s runs in the order asked, with metrics and the demo model id', async (id) => {
    const result = await runRepeatedBuyerQuestion({ lineup: simulatorLineup() }, { question: `  ${QUESTION.replace(' ', '\n  ')} `, provider: id });

    expect(RepeatResponseSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({ question: QUESTION, provider: id, runsRequested: 5 });
    const expectedModel = id === 'openai' ? openaiSnapshot(DEMO_MODELS.openai) : DEMO_MODELS[id];
    expect(result.model).toBe(expectedModel);
    expect(result.model.startsWith('demo-')).toBe(true);

    // One request per run, the question verbatim; with a cap of 1 the k-th request is the k-th run.
    const requests = simulator.requests();
    expect(requests.map((request) => request.prompt)).toEqual(Array(5).fill(QUESTION));
    expect(result.runs.map((run) => run.answer)).toEqual(requests.map((request) => request.answer));
    for (const run of result.runs) {
      expect(run.ok).toBe(true);
      expect(run.brands).toEqual(extractBrands(run.answer ?? ''));
      expect(run.brands.length).toBeGreaterThan(0);
    }
    expect(result.metrics).toEqual(computeRepeatMetrics(result.runs));
    expect(result.metrics).toMatchObject({ okRuns: 5, comparable: true, pairs: 10 });
    expect(result.metrics.perRun).toEqual(result.runs.map((run) => run.brands));
    expect(result.metrics.jaccardMean).not.toBeNull();
  });

  it('asks the runs concurrently up to the provider cap', async () => {
    // No answer leaves until all five calls have arrived: run one after another, they never would (the
    // test would time out). Order of events, not wall time.
    const allArrived = simulator.holdAnswersUntil(5);
    const measuring = runRepeatedBuyerQuestion({ lineup: simulatorLineup({ maxConcurrentPerProvider: 5 }) }, { question: QUESTION, provider: 'openai' });
    await allArrived;
    const result = await measuring;
    expect(result.metrics.okRuns).toBe(5);
    expect(simulator.requests()).toHaveLength(5);
  });

  it('reports runs hit by server errors as failed runs while the others succeed', async () => {
    simulator.injectFaults([{ kind: 'server_error', provider: 'openai', times: 3 }]);
    const result = await runRepeatedBuyerQuestion({ lineup: simulatorLineup() }, { question: QUESTION, provider: 'openai' });

    expect(RepeatResponseSchema.parse(result)).toEqual(result);
    expect(result.runs.map((run) => run.ok)).toEqual([false, false, false, true, true]);
    for (const run of result.runs.slice(0, 3)) {
      expect(run).toMatchObject({ ok: false, brands: [], answer: null });
      expect(run.error).toMatch(/overloaded|server error/u);
    }
    expect(result.metrics).toMatchObject({ okRuns: 2, comparable: true, pairs: 1 });
    expect(result.metrics.perRun.slice(0, 3)).toEqual([[], [], []]);
    expect(result.model).toBe(openaiSnapshot(DEMO_MODELS.openai));
    expect(simulator.requests().map((request) => request.status)).toEqual([500, 500, 500, 200, 200]);
  });

  it('answers 400 provider_unavailable for a provider this deployment has not enabled, without a call', async () => {
    const error = await measurementErrorOf(
      runRepeatedBuyerQuestion({ lineup: simulatorLineup({ only: ['gemini'] }) }, { question: QUESTION, provider: 'openai' }),
    );
    expect(error).toMatchObject({ code: 'provider_unavailable', callerCanFix: true });
    expect(simulator.requests()).toHaveLength(0);
  });

  it('answers 503 provider_unavailable when the provider refuses our key on every run', async () => {
    const error = await measurementErrorOf(
      runRepeatedBuyerQuestion({ lineup: simulatorLineup({ apiKey: 'invalid-key' }) }, { question: QUESTION, provider: 'anthropic' }),
    );
    expect(error).toMatchObject({ code: 'provider_unavailable', callerCanFix: false });
    expect(simulator.requests()).toHaveLength(5);
  });
});

describe('checkBrandRecognition against the simulator', () => {
  it('recognises a world brand, lists it blind and recommends it, consistently', async () => {
    const result = await checkBrandRecognition({ lineup: simulatorLineup() }, { brand: 'HubSpot', category: 'CRM software' });

    expect(CheckResponseSchema.parse(result)).toEqual(result);
    expect(result.model).toBe(openaiSnapshot(DEMO_MODELS.openai));
    expect(result.knows).toBe(true);
    expect(result.description).toMatch(/^HubSpot is|^I know HubSpot/u);
    const requests = simulator.requests();
    expect(requests.map((request) => request.kind).sort()).toEqual(['blind_list', 'recognition', 'recommendation']);
    expect(requests.every((request) => request.provider === 'openai')).toBe(true);

    // The list is what the simulator answered, names only, and the position agrees with it.
    const listAnswer = requests.find((request) => request.kind === 'blind_list')?.answer ?? '';
    const listed = listAnswer.split('\n').flatMap((line) => /^\d+\. (.+)$/u.exec(line)?.[1] ?? []);
    expect(result.recommendations).toEqual(listed.slice(0, 8));
    const matcher = createBrandMatcher('HubSpot');
    const expectedPosition = result.recommendations.findIndex((name) => matcher.isSameBrand(name));
    expect(result.listPosition).toBe(expectedPosition === -1 ? null : expectedPosition + 1);
    // HubSpot leads the simulator's CRM world, so this seed lists it.
    expect(result.listPosition).not.toBeNull();
    expect(['yes', 'no', 'unsure']).toContain(result.recommendVerdict);
    const recommendationAnswer = requests.find((request) => request.kind === 'recommendation')?.answer ?? '';
    expect(recommendationAnswer.endsWith(result.recommendReason)).toBe(true);
    expect(result.score).toBeGreaterThanOrEqual(30 + 12);
  });

  it('never sends the brand in the blind-list prompt, even when the category names it', async () => {
    await checkBrandRecognition({ lineup: simulatorLineup() }, { brand: 'Pipedrive', category: 'CRM software like Pipedrive' });
    await checkBrandRecognition({ lineup: simulatorLineup() }, { brand: 'monday.com', category: 'Monday.com-style project management tools' });
    const blindLists = simulator.requests().filter((request) => request.kind === 'blind_list');
    expect(blindLists).toHaveLength(2);
    expect(blindLists[0]?.prompt.toLowerCase()).not.toContain('pipedrive');
    expect(blindLists[1]?.prompt.toLowerCase()).not.toContain('monday');
    expect(promptMentionsBrand(blindLists[1]?.prompt ?? '', 'monday.com')).toBe(false);
    // The recognition and recommendation questions do name the brand: the guard is for the list only.
    expect(simulator.requests().filter((request) => request.kind !== 'blind_list').every((request) => /pipedrive|monday/iu.test(request.prompt))).toBe(true);
  });

  it('reports an unknown brand with knows false and an empty description', async () => {
    const result = await checkBrandRecognition({ lineup: simulatorLineup() }, { brand: 'Zorblax Quantum', category: 'CRM software' });
    expect(CheckResponseSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({ knows: false, description: '', listPosition: null, verdict: 'invisible' });
    expect(result.recommendations.length).toBeGreaterThan(0);
  });

  it('without a category asks two questions and scores recognition only', async () => {
    const result = await checkBrandRecognition({ lineup: simulatorLineup() }, { brand: 'Pipedrive' });
    expect(CheckResponseSchema.parse(result)).toEqual(result);
    expect(simulator.requests().map((request) => request.kind).sort()).toEqual(['recognition', 'recommendation']);
    expect(result).toMatchObject({ category: '', knows: true, recommendations: [], listPosition: null, score: 60, verdict: 'barely_visible' });
  });

  it('is answered by anthropic when openai is not enabled', async () => {
    const result = await checkBrandRecognition({ lineup: simulatorLineup({ only: ['anthropic', 'gemini'] }) }, { brand: 'Pipedrive' });
    expect(result.model).toBe(DEMO_MODELS.anthropic);
    expect(simulator.requests().every((request) => request.provider === 'anthropic')).toBe(true);
  });

  it('fails with provider_overloaded when every call gets server errors, after the retries', async () => {
    simulator.injectFaults([{ kind: 'server_error', provider: 'openai', times: 20 }]);
    const error = await measurementErrorOf(
      checkBrandRecognition({ lineup: simulatorLineup({ maxRetries: 1, maxConcurrentPerProvider: 3 }) }, { brand: 'HubSpot', category: 'CRM software' }),
    );
    expect(error).toMatchObject({ code: 'provider_overloaded', callerCanFix: false, retryAfterSeconds: 30 });
    expect(simulator.requests().every((request) => request.status === 500)).toBe(true);
  });

  it("fails with provider_overloaded and the provider's retry-after when rate limited", async () => {
    simulator.injectFaults([{ kind: 'rate_limit', provider: 'openai', times: 20, retryAfterSeconds: 7 }]);
    const error = await measurementErrorOf(checkBrandRecognition({ lineup: simulatorLineup() }, { brand: 'HubSpot', category: 'CRM software' }));
    expect(error).toMatchObject({ code: 'provider_overloaded', callerCanFix: false, retryAfterSeconds: 7 });
  });

  it('fails with provider_paused when the provider refuses our key', async () => {
    const error = await measurementErrorOf(
      checkBrandRecognition({ lineup: simulatorLineup({ apiKey: 'invalid-key' }) }, { brand: 'HubSpot', category: 'CRM software' }),
    );
    expect(error).toMatchObject({ code: 'provider_paused', callerCanFix: false });
  });

  it('fails with not_configured when no provider is enabled', async () => {
    const error = await measurementErrorOf(checkBrandRecognition({ lineup: new Map() }, { brand: 'HubSpot' }));
    expect(error).toMatchObject({ code: 'not_configured', callerCanFix: false });
    expect(simulator.requests()).toHaveLength(0);
  });
});

describe('the monthly budget', () => {
  let dataDir: string;
  let store: Store;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'visibility-measurements-'));
    store = openStore({ dataDir });
  });
  afterEach(() => {
    store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A priced (non-demo) lineup, each provider behind the budget as the service composes it. */
  function pricedLineup(budget: Budget): Map<ProviderId, Provider> {
    const lineup = simulatorLineup({ models: { openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-6', gemini: 'gemini-2.5-flash' } });
    return new Map([...lineup].map(([id, provider]) => [id, withBudget(provider, budget)]));
  }

  it('answers 503 budget for repeat and check without calling any provider once the month is used up', async () => {
    const budget = createBudget(store.budgetRepository, { monthlyBudgetUsd: 0 });
    const dependencies = { lineup: pricedLineup(budget), budget };
    const repeatError = await measurementErrorOf(runRepeatedBuyerQuestion(dependencies, { question: QUESTION, provider: 'openai' }));
    const checkError = await measurementErrorOf(checkBrandRecognition(dependencies, { brand: 'HubSpot', category: 'CRM software' }));
    for (const error of [repeatError, checkError]) {
      expect(error).toMatchObject({ code: 'budget', callerCanFix: false });
      expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      // Until the month turns (a second of slack for the time the test itself takes).
      const untilReset = Math.ceil(((await budget.status()).resetAt.getTime() - Date.now()) / 1000);
      expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(untilReset);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(untilReset + 2);
    }
    expect(simulator.requests()).toHaveLength(0);
  });

  it('answers 503 budget when the calls themselves are refused by the budget', async () => {
    // One micro-dollar left: "budget left" is still true, but no call's estimate fits.
    const budget = createBudget(store.budgetRepository, { monthlyBudgetUsd: 0.000001 });
    expect((await budget.hasBudgetLeft('gpt-4.1-mini'))).toBe(true);
    const dependencies = { lineup: pricedLineup(budget), budget };
    const repeatError = await measurementErrorOf(runRepeatedBuyerQuestion(dependencies, { question: QUESTION, provider: 'openai' }));
    const checkError = await measurementErrorOf(checkBrandRecognition(dependencies, { brand: 'HubSpot', category: 'CRM software' }));
    expect(repeatError).toMatchObject({ code: 'budget', callerCanFix: false });
    expect(checkError).toMatchObject({ code: 'budget', callerCanFix: false });
    expect(simulator.requests()).toHaveLength(0);
  });

  it('still measures with the demo lineup, whose calls are free, whatever the budget', async () => {
    const budget = createBudget(store.budgetRepository, { monthlyBudgetUsd: 0 });
    const lineup = new Map([...simulatorLineup()].map(([id, provider]) => [id, withBudget(provider, budget)]));
    const result = await checkBrandRecognition({ lineup, budget }, { brand: 'HubSpot' });
    expect(result.knows).toBe(true);
    expect(simulator.requests()).toHaveLength(2);
  });
});
