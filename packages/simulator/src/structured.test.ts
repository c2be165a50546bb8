import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrandsMentioned } from './lookup.js';
import { startSimulator } from './server.js';
import { isBrandListSchema, structuredAnswer } from './structured.js';
import { answerText, callVendor, type VendorApi } from './test-support/vendors.js';
import type { RunningSimulator } from './types.js';

const BRAND_LIST_SCHEMA = {
  type: 'object',
  properties: { brands: { type: 'array', items: { type: 'string' } } },
  required: ['brands'],
  additionalProperties: false,
};
const PROMPT = 'List the brands this answer names.\n<<<ANSWER\n### 1. HubSpot CRM — Best Overall\nHubSpot is free; Pipedrive suits Lincoln Park teams. Zoho CRM too.\nANSWER>>>';

/** Each vendor's way of asking for JSON of a schema. */
const STRUCTURED: Record<VendorApi, (schema: unknown) => Record<string, unknown>> = {
  chat: (schema) => ({ response_format: { type: 'json_schema', json_schema: { name: 'brand_list', schema, strict: true } } }),
  responses: (schema) => ({ text: { format: { type: 'json_schema', name: 'brand_list', schema, strict: true } } }),
  messages: (schema) => ({ output_config: { format: { type: 'json_schema', schema } } }),
  gemini: (schema) => ({ generationConfig: { temperature: 0, responseMimeType: 'application/json', responseJsonSchema: schema } }),
};

describe('findBrandsMentioned', () => {
  it('lists the world brands written in a text, in order, once per brand, as written', () => {
    expect(findBrandsMentioned(PROMPT)).toEqual(['HubSpot CRM', 'Pipedrive', 'Zoho CRM']);
    expect(findBrandsMentioned('No brands here, only Lincoln Park.')).toEqual([]);
  });
});

describe('structuredAnswer', () => {
  it('answers a brand-list schema with JSON of the brands the prompt names', () => {
    expect(structuredAnswer(PROMPT, BRAND_LIST_SCHEMA)).toEqual({ text: '{"brands":["HubSpot CRM","Pipedrive","Zoho CRM"]}' });
  });

  it('refuses any other schema', () => {
    expect(isBrandListSchema({ type: 'object', properties: { names: { type: 'array' } } })).toBe(false);
    expect(structuredAnswer(PROMPT, {})).toHaveProperty('problem');
  });
});

describe('structured output over each wire format', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startSimulator({ seed: 7 });
  });
  afterAll(async () => {
    await simulator.close();
  });

  it.each(['chat', 'responses', 'messages', 'gemini'] as const)('%s: a JSON-schema request gets the brand list as JSON text', async (api) => {
    const { status, json } = await callVendor(simulator, api, PROMPT, { extra: STRUCTURED[api](BRAND_LIST_SCHEMA) });
    expect(status).toBe(200);
    expect(JSON.parse(answerText(api, json))).toEqual({ brands: ['HubSpot CRM', 'Pipedrive', 'Zoho CRM'] });
  });

  it.each(['chat', 'messages', 'gemini'] as const)('%s: a schema the simulator cannot fill is a 400, not a made-up answer', async (api) => {
    const { status } = await callVendor(simulator, api, PROMPT, { extra: STRUCTURED[api]({ type: 'object', properties: { steps: { type: 'array' } } }) });
    expect(status).toBe(400);
  });
});
