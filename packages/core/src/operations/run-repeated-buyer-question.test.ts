import { describe, expect, it } from 'vitest';
import { RepeatResponseSchema } from '../api/schemas.js';
import { deferred, fakeAnswer, fakeFailure, FakeProvider } from '../providers/test-support/fake-provider.js';
import type { Answer, Provider, ProviderId } from '../providers/types.js';
import type { BrandExtractor } from '../extraction/second-opinion.js';
import { MeasurementError } from '../measurements/errors.js';
import { runRepeatedBuyerQuestion } from './run-repeated-buyer-question.js';
import type { MeasurementDependencies, MeasurementProgress } from '../measurements/types.js';

const QUESTION = 'What is the best CRM for a small agency?';

function lineupOf(...providers: Provider[]): ReadonlyMap<ProviderId, Provider> {
  return new Map(providers.map((provider) => [provider.id, provider]));
}

/** A budget stand-in: exhausted or not, renewing at a fixed moment. */
function budgetStub(left: boolean, resetAt = new Date(Date.now() + 90_000)) {
  const asked: Array<string | undefined> = [];
  return {
    asked,
    budget: {
      hasBudgetLeft: async (model?: string) => {
        asked.push(model);
        return left;
      },
      status: async () => ({ resetAt }) as Awaited<ReturnType<NonNullable<MeasurementDependencies['budget']>['status']>>,
    },
  };
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the measurement to fail');
    },
    (error: unknown) => error,
  );
}

describe('runRepeatedBuyerQuestion', () => {
  it('reads each run with the injected brand extractor', async () => {
    const provider = new FakeProvider(['1. **Salesforce**\n2. **HubSpot**']);
    const brandExtractor: BrandExtractor = { mode: 'hybrid', extract: async (answer) => (answer.includes('HubSpot') ? ['HubSpot'] : []) };
    const result = await runRepeatedBuyerQuestion({ lineup: lineupOf(provider), brandExtractor }, { question: QUESTION, provider: 'openai' });
    expect(result.runs.map((run) => run.brands)).toEqual(Array.from({ length: 5 }, () => ['HubSpot']));
  });

  it('asks the whitespace-normalised question verbatim five times at once and reports the runs in order', async () => {
    // The runs finish in reverse order; the report must still follow the order they were asked in.
    const pending = Array.from({ length: 5 }, () => deferred<Answer>());
    let call = 0;
    const provider = new FakeProvider([() => (pending[call++] as ReturnType<typeof deferred<Answer>>).promise]);
    const progress: MeasurementProgress[] = [];
    const measuring = runRepeatedBuyerQuestion(
      { lineup: lineupOf(provider) },
      { question: `  What is the best\n CRM   for a small agency?  `, provider: 'openai' },
      { onProgress: (event) => progress.push(event) },
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(provider.inFlight).toBe(5);
    for (let index = 4; index >= 0; index -= 1) {
      pending[index]?.resolve(fakeAnswer(`1. **Brand${index}** — reason\n2. **HubSpot** — reason`));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const result = await measuring;

    expect(RepeatResponseSchema.parse(result)).toEqual(result);
    expect(result.question).toBe(QUESTION);
    expect(provider.calls.map((request) => [request.prompt, request.purpose])).toEqual(Array(5).fill([QUESTION, 'repeat']));
    expect(result.runsRequested).toBe(5);
    expect(result.runs.map((run) => run.brands[0])).toEqual(['Brand0', 'Brand1', 'Brand2', 'Brand3', 'Brand4']);
    expect(result.runs.every((run) => run.ok && run.error === undefined && run.brands.includes('HubSpot'))).toBe(true);
    expect(result.model).toBe('fake-model-2025');
    expect(result.metrics).toMatchObject({ okRuns: 5, pairs: 10, sameSetPairs: 0, inAll: ['HubSpot'], union: 6 });
    expect(result.metrics.perRun).toEqual(result.runs.map((run) => run.brands));
    expect(progress.map((event) => [event.completed, event.total])).toEqual([[1, 5], [2, 5], [3, 5], [4, 5], [5, 5]]);
    expect(progress[0]?.label).toBe('run 5 of 5: ok');
  });

  it('reports transient failures as failed runs, never as an error', async () => {
    const provider = new FakeProvider([
      'HubSpot and Pipedrive are good.',
      fakeFailure('rate_limited'),
      'HubSpot and Pipedrive are good.',
      fakeFailure('timeout'),
      fakeFailure('overloaded'),
    ]);
    const result = await runRepeatedBuyerQuestion({ lineup: lineupOf(provider) }, { question: QUESTION, provider: 'openai' });
    expect(RepeatResponseSchema.parse(result)).toEqual(result);
    expect(result.runs.map((run) => run.ok)).toEqual([true, false, true, false, false]);
    for (const run of result.runs.filter((candidate) => !candidate.ok)) {
      expect(run).toMatchObject({ brands: [], answer: null });
      expect(run.error).toEqual(expect.any(String));
    }
    expect(result.runs[1]?.error).toContain('rate limited');
    expect(result.runs[3]?.error).toContain('in time');
    expect(result.metrics).toMatchObject({ okRuns: 2, pairs: 1, sameSetPairs: 1, jaccardMean: 1 });
    expect(result.metrics.perRun[1]).toEqual([]);
  });

  it('answers with the requested model when every run failed for transient reasons', async () => {
    const provider = new FakeProvider([fakeFailure('rate_limited')]);
    const result = await runRepeatedBuyerQuestion({ lineup: lineupOf(provider) }, { question: QUESTION, provider: 'openai' });
    expect(result.model).toBe('fake-model');
    expect(result.metrics).toMatchObject({ okRuns: 0, comparable: false, pairs: 0, jaccardMean: null });
    expect(RepeatResponseSchema.parse(result)).toEqual(result);
  });

  it('fails with 503 provider_unavailable when every run was refused or could not reach the provider', async () => {
    const provider = new FakeProvider([fakeFailure('unavailable'), fakeFailure('bad_request')]);
    const error = await rejectionOf(runRepeatedBuyerQuestion({ lineup: lineupOf(provider) }, { question: QUESTION, provider: 'openai' }));
    expect(error).toBeInstanceOf(MeasurementError);
    expect(error).toMatchObject({ code: 'provider_unavailable', callerCanFix: false, retryAfterSeconds: 300 });
  });

  it('keeps the runs that answered when only some were refused', async () => {
    const provider = new FakeProvider(['HubSpot.', fakeFailure('unavailable')]);
    const result = await runRepeatedBuyerQuestion({ lineup: lineupOf(provider) }, { question: QUESTION, provider: 'openai' });
    expect(result.runs.map((run) => run.ok)).toEqual([true, false, false, false, false]);
  });

  it('fails with 503 budget when the calls themselves report the budget used up', async () => {
    const provider = new FakeProvider([fakeFailure('budget', { retryAfterMs: 3_600_000 })]);
    const error = await rejectionOf(runRepeatedBuyerQuestion({ lineup: lineupOf(provider) }, { question: QUESTION, provider: 'openai' }));
    expect(error).toMatchObject({ code: 'budget', callerCanFix: false });
    expect((error as MeasurementError).retryAfterSeconds).toBeGreaterThanOrEqual(3599);
    expect((error as MeasurementError).retryAfterSeconds).toBeLessThanOrEqual(3600);
  });

  it('fails with 503 budget before any call when the month is used up, and without taking a rate-limit slot', async () => {
    const provider = new FakeProvider(['HubSpot.']);
    const stub = budgetStub(false);
    let slots = 0;
    const error = await rejectionOf(
      runRepeatedBuyerQuestion({ lineup: lineupOf(provider), budget: stub.budget }, { question: QUESTION, provider: 'openai' }, { beforeSpend: () => (slots += 1) }),
    );
    expect(error).toMatchObject({ code: 'budget', callerCanFix: false });
    expect((error as MeasurementError).retryAfterSeconds).toBeGreaterThanOrEqual(89);
    expect(stub.asked).toEqual(['fake-model']);
    expect(provider.calls).toHaveLength(0);
    expect(slots).toBe(0);
  });

  it('answers 400 provider_unavailable for a provider that is not enabled while another is', async () => {
    const provider = new FakeProvider(['HubSpot.'], 'gemini');
    const error = await rejectionOf(runRepeatedBuyerQuestion({ lineup: lineupOf(provider) }, { question: QUESTION, provider: 'anthropic' }));
    expect(error).toMatchObject({ code: 'provider_unavailable', callerCanFix: true, retryAfterSeconds: undefined });
    expect((error as MeasurementError).hint).toContain('"gemini"');
    expect(provider.calls).toHaveLength(0);
  });

  it('answers 503 provider_unavailable when no provider is enabled at all', async () => {
    const error = await rejectionOf(runRepeatedBuyerQuestion({ lineup: new Map() }, { question: QUESTION, provider: 'openai' }));
    expect(error).toMatchObject({ code: 'provider_unavailable', callerCanFix: false });
  });

  it('calls beforeSpend once before the first call, and makes no call when it throws', async () => {
    const provider = new FakeProvider(['HubSpot.']);
    const order: string[] = [];
    const counting: Provider = {
      id: 'openai',
      model: provider.model,
      ask: (request) => {
        order.push('ask');
        return provider.ask(request);
      },
    };
    await runRepeatedBuyerQuestion({ lineup: lineupOf(counting) }, { question: QUESTION, provider: 'openai' }, { beforeSpend: () => order.push('slot') });
    expect(order).toEqual(['slot', 'ask', 'ask', 'ask', 'ask', 'ask']);

    const refused = new Error('429 rate_limited');
    const untouched = new FakeProvider(['HubSpot.']);
    const error = await rejectionOf(
      runRepeatedBuyerQuestion({ lineup: lineupOf(untouched) }, { question: QUESTION, provider: 'openai' }, {
        beforeSpend: () => {
          throw refused;
        },
      }),
    );
    expect(error).toBe(refused);
    expect(untouched.calls).toHaveLength(0);
  });

  it("rejects with the caller's reason when cancelled, instead of reporting failed runs", async () => {
    const provider = new FakeProvider([
      (request) =>
        new Promise<Answer>((_, reject) => request.signal?.addEventListener('abort', () => reject(request.signal?.reason), { once: true })),
    ]);
    const controller = new AbortController();
    const measuring = runRepeatedBuyerQuestion({ lineup: lineupOf(provider) }, { question: QUESTION, provider: 'openai' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('client disconnected')), 10);
    await expect(measuring).rejects.toThrow('client disconnected');
  });

  it('honours a different number of runs and rejects an empty question', async () => {
    const provider = new FakeProvider(['HubSpot.']);
    const result = await runRepeatedBuyerQuestion({ lineup: lineupOf(provider) }, { question: QUESTION, provider: 'openai' }, { runs: 3 });
    expect(result.runsRequested).toBe(3);
    expect(result.runs).toHaveLength(3);
    await expect(runRepeatedBuyerQuestion({ lineup: lineupOf(provider) }, { question: ' \n ', provider: 'openai' })).rejects.toThrow(TypeError);
  });
});
