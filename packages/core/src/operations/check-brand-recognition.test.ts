import { describe, expect, it } from 'vitest';
import { CheckResponseSchema } from '../api/schemas.js';
import { fakeAnswer, fakeFailure, FakeProvider } from '../providers/test-support/fake-provider.js';
import type { Answer, AskRequest, Provider, ProviderFailureKind, ProviderId } from '../providers/types.js';
import { checkBrandRecognition, chooseCheckProvider } from './check-brand-recognition.js';
import { MeasurementError } from '../measurements/errors.js';
import { promptMentionsBrand } from '../measurements/prompts.js';

function lineupOf(...providers: Provider[]): ReadonlyMap<ProviderId, Provider> {
  return new Map(providers.map((provider) => [provider.id, provider]));
}

/** A provider that answers each of the check's questions by its purpose. */
function scripted(answers: Partial<Record<string, string | ((request: AskRequest) => Promise<Answer>)>>, id: ProviderId = 'openai'): FakeProvider {
  return new FakeProvider(
    [
      async (request) => {
        const script = answers[request.purpose ?? ''];
        if (script === undefined) throw new Error(`unexpected question: ${request.purpose}`);
        return typeof script === 'function' ? script(request) : fakeAnswer(script, id);
      },
    ],
    id,
  );
}

const KNOWN = {
  'check.recognition': 'Yes — Pipedrive is a pipeline-focused CRM that small sales teams find easy to adopt.',
  'check.blind_list': 'Here are 8 leading names in CRM software:\n\n1. HubSpot\n2. Salesforce\n3. pipedrive.com\n4. Zoho CRM\n5. Close',
  'check.recommendation': '**Yes.** Pipedrive is a solid choice for CRM software.',
};

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the check to fail');
    },
    (error: unknown) => error,
  );
}

/** Waits until the call is aborted, then rejects with the abort reason, as the real adapters do. */
function untilAborted(request: AskRequest): Promise<Answer> {
  return new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(request.signal?.reason), { once: true }));
}

describe('checkBrandRecognition', () => {
  it('asks the three questions at once and scores the parsed answers', async () => {
    const provider = scripted(KNOWN);
    const progress: string[] = [];
    const result = await checkBrandRecognition(
      { lineup: lineupOf(provider) },
      { brand: ' Pipedrive ', category: 'CRM software' },
      { onProgress: (event) => progress.push(`${event.completed}/${event.total}`) },
    );
    expect(CheckResponseSchema.parse(result)).toEqual(result);
    expect(provider.maxInFlight).toBe(3);
    expect(provider.calls.map((request) => request.purpose).sort()).toEqual(['check.blind_list', 'check.recognition', 'check.recommendation']);
    expect(progress).toEqual(['1/3', '2/3', '3/3']);
    expect(result).toEqual({
      score: 30 + 32 + 30,
      verdict: 'ai_approved',
      brand: 'Pipedrive',
      category: 'CRM software',
      knows: true,
      description: 'Pipedrive is a pipeline-focused CRM that small sales teams find easy to adopt.',
      recommendations: ['HubSpot', 'Salesforce', 'pipedrive.com', 'Zoho CRM', 'Close'],
      // The domain form counts as the brand.
      listPosition: 3,
      recommendVerdict: 'yes',
      recommendReason: 'Pipedrive is a solid choice for CRM software.',
      model: 'fake-model-2025',
    });
  });

  it('never puts the brand into the blind-list prompt, even when the category names it', async () => {
    const provider = scripted(KNOWN);
    await checkBrandRecognition({ lineup: lineupOf(provider) }, { brand: 'Pipedrive', category: 'CRM software like Pipedrive' });
    const blindList = provider.calls.find((request) => request.purpose === 'check.blind_list');
    expect(blindList?.prompt).toBe('List the 8 best CRM software brands, one per line.');
    expect(promptMentionsBrand(blindList?.prompt ?? '', 'Pipedrive')).toBe(false);
  });

  it('has a null listPosition when the brand is not in the blind list', async () => {
    const provider = scripted({ ...KNOWN, 'check.blind_list': '1. HubSpot\n2. Salesforce' });
    const result = await checkBrandRecognition({ lineup: lineupOf(provider) }, { brand: 'Pipedrive', category: 'CRM software' });
    expect(result).toMatchObject({ listPosition: null, recommendations: ['HubSpot', 'Salesforce'], score: 60, verdict: 'barely_visible' });
  });

  it('skips the blind list without a category and scores recognition only', async () => {
    const provider = scripted({ 'check.recognition': KNOWN['check.recognition'], 'check.recommendation': 'No — too basic.' });
    const result = await checkBrandRecognition({ lineup: lineupOf(provider) }, { brand: 'Pipedrive' });
    expect(CheckResponseSchema.parse(result)).toEqual(result);
    expect(provider.calls).toHaveLength(2);
    expect(provider.calls.find((request) => request.purpose === 'check.recommendation')?.prompt).toBe(
      'Would you recommend "Pipedrive"? Answer yes, no or unsure, then give your reason.',
    );
    expect(result).toMatchObject({ category: '', recommendations: [], listPosition: null, recommendVerdict: 'no', score: 60, verdict: 'barely_visible' });
  });

  it('reports an unknown brand with knows false and an empty description', async () => {
    const provider = scripted({
      'check.recognition': 'No — I\'m not familiar with a brand called "Zorblax". It may be a small company.',
      'check.blind_list': '1. HubSpot\n2. Salesforce',
      'check.recommendation': 'Unsure — I don\'t have reliable information about Zorblax.',
    });
    const result = await checkBrandRecognition({ lineup: lineupOf(provider) }, { brand: 'Zorblax', category: 'CRM software' });
    expect(result).toMatchObject({ knows: false, description: '', listPosition: null, recommendVerdict: 'unsure', score: 10, verdict: 'invisible' });
  });

  it.each([
    ['rate_limited', { retryAfterMs: 12_000 }, 'provider_overloaded', 12],
    ['overloaded', {}, 'provider_overloaded', 30],
    ['timeout', {}, 'provider_overloaded', 30],
    ['unavailable', {}, 'provider_paused', 300],
    ['bad_request', {}, 'provider_paused', 300],
  ] as const)('maps a %s failure to %s', async (kind: ProviderFailureKind, extra, code, retryAfterSeconds) => {
    const provider = scripted({ ...KNOWN, 'check.recommendation': () => Promise.reject(fakeFailure(kind, extra)) });
    const error = await rejectionOf(checkBrandRecognition({ lineup: lineupOf(provider) }, { brand: 'Pipedrive', category: 'CRM software' }));
    expect(error).toBeInstanceOf(MeasurementError);
    expect(error).toMatchObject({ code, callerCanFix: false, retryAfterSeconds });
  });

  it('maps a budget failure of a call to 503 budget with the wait until the month turns', async () => {
    const provider = scripted({ ...KNOWN, 'check.recognition': () => Promise.reject(fakeFailure('budget', { retryAfterMs: 7_200_000 })) });
    const error = await rejectionOf(checkBrandRecognition({ lineup: lineupOf(provider) }, { brand: 'Pipedrive' }));
    expect(error).toMatchObject({ code: 'budget', callerCanFix: false });
    expect((error as MeasurementError).retryAfterSeconds).toBeGreaterThanOrEqual(7199);
  });

  it('cancels the other questions as soon as one fails', async () => {
    const aborted: string[] = [];
    const waitForAbort = async (request: AskRequest): Promise<Answer> => {
      try {
        return await untilAborted(request);
      } finally {
        aborted.push(request.purpose ?? '');
      }
    };
    const provider = scripted({
      'check.recognition': waitForAbort,
      'check.blind_list': waitForAbort,
      'check.recommendation': () => Promise.reject(fakeFailure('rate_limited')),
    });
    const error = await rejectionOf(checkBrandRecognition({ lineup: lineupOf(provider) }, { brand: 'Pipedrive', category: 'CRM software' }));
    expect(error).toMatchObject({ code: 'provider_overloaded' });
    expect(aborted.sort()).toEqual(['check.blind_list', 'check.recognition']);
  });

  it("rejects with the caller's reason when cancelled", async () => {
    const provider = scripted({ 'check.recognition': untilAborted, 'check.blind_list': untilAborted, 'check.recommendation': untilAborted });
    const controller = new AbortController();
    const checking = checkBrandRecognition({ lineup: lineupOf(provider) }, { brand: 'Pipedrive', category: 'CRM software' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('client disconnected')), 10);
    await expect(checking).rejects.toThrow('client disconnected');
  });

  it('fails with not_configured when no provider is enabled', async () => {
    const error = await rejectionOf(checkBrandRecognition({ lineup: new Map() }, { brand: 'Pipedrive' }));
    expect(error).toMatchObject({ code: 'not_configured', callerCanFix: false });
  });

  it('fails with budget before any call, and before beforeSpend, when the month is used up', async () => {
    const provider = scripted(KNOWN);
    let slots = 0;
    const budget = { hasBudgetLeft: async () => false, status: async () => ({ resetAt: new Date(Date.now() + 60_000) }) as never };
    const error = await rejectionOf(
      checkBrandRecognition({ lineup: lineupOf(provider), budget }, { brand: 'Pipedrive' }, { beforeSpend: () => (slots += 1) }),
    );
    expect(error).toMatchObject({ code: 'budget', callerCanFix: false });
    expect(provider.calls).toHaveLength(0);
    expect(slots).toBe(0);
  });
});

describe('chooseCheckProvider', () => {
  it('prefers openai, then anthropic, then gemini', () => {
    const openai = new FakeProvider(['x'], 'openai');
    const anthropic = new FakeProvider(['x'], 'anthropic');
    const gemini = new FakeProvider(['x'], 'gemini');
    expect(chooseCheckProvider(lineupOf(gemini, anthropic, openai))).toBe(openai);
    expect(chooseCheckProvider(lineupOf(gemini, anthropic))).toBe(anthropic);
    expect(chooseCheckProvider(lineupOf(gemini))).toBe(gemini);
    expect(chooseCheckProvider(new Map())).toBeNull();
  });
});
