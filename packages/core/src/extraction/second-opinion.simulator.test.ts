// EXTRACTION=hybrid through the real vendor SDKs (our adapters) against the provider simulator, with
// the real monthly budget counting the spend.
import { startSimulator, type RunningSimulator } from '@visibility/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBudget } from '../budget/budget.js';
import { withBudget } from '../budget/with-budget.js';
import { DEFAULT_EXTRACTION_MODELS } from '../config/config.js';
import { createProvider } from '../providers/create-providers.js';
import type { OpenAIApi } from '../providers/openai.js';
import type { ProviderId } from '../providers/types.js';
import { useTempStores } from '../store/test-support/temp-stores.js';
import { extractBrands } from './extract-brands.js';
import {
  createHybridBrandExtractor,
  SECOND_OPINION_MAX_OUTPUT_TOKENS,
  SECOND_OPINION_TIMEOUT_MS,
  secondOpinionPrompt,
} from './second-opinion.js';

// Rules-bait the model should not repeat: a heading suffix, a place, an integration, review sites.
const ANSWER = [
  '### 1. HubSpot CRM — Best Overall',
  'HubSpot has a free tier; our team in Lincoln Park loves it.',
  '',
  '### 2. Pipedrive',
  'Pipedrive integrates with Slack and Google Meet. Zoho CRM is cheaper; Salesforce suits enterprises.',
  '',
  'Sources: G2, Capterra',
].join('\n');

type Json = Record<string, unknown>;

interface Vendor {
  name: string;
  id: ProviderId;
  api?: OpenAIApi;
  /** The JSON Schema the vendor request carried, read from the raw body. */
  schemaSent(body: Json): unknown;
}

const record = (value: unknown): Json => (typeof value === 'object' && value !== null ? (value as Json) : {});

const vendors: Vendor[] = [
  {
    name: 'openai (chat completions)',
    id: 'openai',
    schemaSent: (body) => {
      const format = record(body['response_format']);
      expect(format['type']).toBe('json_schema');
      expect(record(format['json_schema'])['strict']).toBe(true);
      return record(format['json_schema'])['schema'];
    },
  },
  {
    name: 'openai (responses)',
    id: 'openai',
    api: 'responses',
    schemaSent: (body) => {
      const format = record(record(body['text'])['format']);
      expect(format['type']).toBe('json_schema');
      return format['schema'];
    },
  },
  {
    name: 'anthropic',
    id: 'anthropic',
    schemaSent: (body) => {
      const format = record(record(body['output_config'])['format']);
      expect(format['type']).toBe('json_schema');
      return format['schema'];
    },
  },
  {
    name: 'gemini',
    id: 'gemini',
    schemaSent: (body) => {
      const config = record(body['generationConfig']);
      expect(config['responseMimeType']).toBe('application/json');
      return config['responseJsonSchema'];
    },
  },
];

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ seed: 7 });
});
afterAll(async () => {
  await simulator.close();
});
beforeEach(() => {
  simulator.reset();
});

const stores = useTempStores('second-opinion-sdk');

describe.each(vendors)('EXTRACTION=hybrid over $name', (vendor) => {
  function build(monthlyBudgetUsd = 5) {
    const budget = createBudget(stores.open().budgetRepository, { monthlyBudgetUsd });
    const adapter = createProvider(
      vendor.id,
      { apiKey: 'sk-test', baseURL: simulator.baseUrls[vendor.id], model: DEFAULT_EXTRACTION_MODELS[vendor.id], api: vendor.api },
      { timeoutMs: SECOND_OPINION_TIMEOUT_MS, maxOutputTokens: SECOND_OPINION_MAX_OUTPUT_TOKENS },
    );
    const extractor = createHybridBrandExtractor({ provider: withBudget(adapter, budget, { defaultMaxOutputTokens: SECOND_OPINION_MAX_OUTPUT_TOKENS }) });
    return { budget, extractor };
  }

  it('sends the zod schema as structured output and keeps only the brands the answer names', async () => {
    const { budget, extractor } = build();
    const brands = await extractor.extract(ANSWER, { brand: 'Pipedrive' });
    expect(brands).toEqual(['HubSpot CRM', 'Pipedrive', 'Zoho CRM', 'Salesforce']);
    expect(Object.values(extractor.stats().fallbacks).every((count) => count === 0)).toBe(true);

    const [request, ...more] = simulator.requests();
    expect(more).toEqual([]);
    expect(request?.prompt).toBe(secondOpinionPrompt(ANSWER));
    const schema = record(vendor.schemaSent(record(request?.body)));
    expect(schema['required']).toEqual(['brands']);
    expect(schema).not.toHaveProperty('$schema');
    // Spent and settled in the monthly budget at the cheap model's price.
    expect((await budget.status()).spentMicroUsd).toBeGreaterThan(0);
    expect((await budget.status()).reservedMicroUsd).toBe(0);
  });

  it('asks once per answer: the second read comes from the cache', async () => {
    const { extractor } = build();
    const first = await extractor.extract(ANSWER);
    await expect(extractor.extract(ANSWER)).resolves.toEqual(first);
    expect(simulator.requests()).toHaveLength(1);
  });

  it('falls back to the rules when the vendor fails', async () => {
    const { extractor } = build();
    simulator.injectFaults([{ kind: 'server_error', provider: vendor.id, times: 1, status: 500 }]);
    await expect(extractor.extract(ANSWER)).resolves.toEqual(extractBrands(ANSWER));
    expect(extractor.stats().fallbacks.error).toBe(1);
  });

  it('falls back to the rules without calling the vendor when the budget cannot cover the call', async () => {
    const { extractor } = build(0);
    await expect(extractor.extract(ANSWER)).resolves.toEqual(extractBrands(ANSWER));
    expect(simulator.requests()).toEqual([]);
    expect(extractor.stats().fallbacks.budget).toBe(1);
  });
});
