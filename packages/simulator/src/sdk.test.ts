import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator } from './server.js';
import type { RunningSimulator } from './types.js';

// The official SDKs, pointed at the simulator, must parse its answers exactly as they parse the vendors'.
let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ seed: 42 });
});
afterAll(async () => {
  await simulator.close();
});
beforeEach(() => {
  simulator.reset();
});

describe('openai SDK', () => {
  const client = (): OpenAI => new OpenAI({ apiKey: 'sk-test', baseURL: simulator.baseUrls.openai, maxRetries: 0 });

  it('parses a chat completion: text, usage, snapshot model and request id', async () => {
    const completion = await client().chat.completions.create({
      model: 'demo-gpt-4.1-mini',
      messages: [{ role: 'user', content: 'What is the best CRM for a small agency?' }],
      temperature: 0,
    });
    const text = completion.choices[0]?.message.content ?? '';
    expect(text).toMatch(/^\S/);
    expect(text).toMatch(/\*\*(HubSpot|Salesforce|Pipedrive|Zoho CRM)\*\*/);
    expect(completion.model).toBe('demo-gpt-4.1-mini-2025-04-14');
    expect(completion.usage?.completion_tokens).toBe(Math.ceil(text.length / 4));
    expect(completion.usage?.total_tokens).toBe((completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0));
    expect(completion._request_id).toMatch(/^req_/);
    expect(simulator.requests()).toMatchObject([{ provider: 'openai', api: 'chat.completions', headers: { authorization: 'Bearer sk-test' } }]);
  });

  it('parses a response: output_text and usage', async () => {
    const response = await client().responses.create({ model: 'demo-gpt-4.1-mini', input: 'Do you know the brand "HubSpot"?' });
    expect(response.output_text).toMatch(/^Yes — .*HubSpot/);
    expect(response.model).toBe('demo-gpt-4.1-mini-2025-04-14');
    expect(response.usage?.output_tokens).toBe(Math.ceil(response.output_text.length / 4));
    expect(response.status).toBe('completed');
  });

  it('surfaces a rate-limit fault as RateLimitError with retry-after', async () => {
    simulator.injectFaults([{ kind: 'rate_limit', retryAfterSeconds: 4 }]);
    const error = await client()
      .chat.completions.create({ model: 'demo-gpt-4.1-mini', messages: [{ role: 'user', content: 'Best VPN?' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('4');
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).code).toBe('rate_limit_exceeded');
  });

  it('gives up on a hang through its own timeout', async () => {
    simulator.injectFaults([{ kind: 'hang' }]);
    const error = await new OpenAI({ apiKey: 'sk-test', baseURL: simulator.baseUrls.openai, maxRetries: 0, timeout: 250 })
      .chat.completions.create({ model: 'demo-gpt-4.1-mini', messages: [{ role: 'user', content: 'Best VPN?' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });
});

describe('@anthropic-ai/sdk', () => {
  const client = (): Anthropic => new Anthropic({ apiKey: 'sk-ant-test', baseURL: simulator.baseUrls.anthropic, maxRetries: 0 });

  it('parses a message: text, usage, echoed model and request id', async () => {
    const message = await client().messages.create({
      model: 'demo-claude-sonnet',
      max_tokens: 512,
      messages: [{ role: 'user', content: 'Would you recommend Pipedrive for CRM software? Answer yes, no or unsure, then give your reason.' }],
    });
    const block = message.content[0];
    expect(block?.type).toBe('text');
    const text = block?.type === 'text' ? block.text : '';
    expect(text).toMatch(/^(Yes|No|Unsure) — .*Pipedrive/);
    expect(message.model).toBe('demo-claude-sonnet');
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBe(Math.ceil(text.length / 4));
    expect(message.usage.input_tokens).toBeGreaterThan(10);
    expect(message._request_id).toMatch(/^req_/);
  });

  it('surfaces a 529 fault as an overloaded error', async () => {
    simulator.injectFaults([{ kind: 'server_error', status: 529 }]);
    const error = await client()
      .messages.create({ model: 'demo-claude-sonnet', max_tokens: 64, messages: [{ role: 'user', content: 'Best VPN?' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
  });
});

describe('@google/genai SDK', () => {
  const client = (): GoogleGenAI => new GoogleGenAI({ apiKey: 'AIza-test', httpOptions: { baseUrl: simulator.baseUrls.gemini } });

  it('parses generateContent: text, usage metadata, modelVersion and responseId', async () => {
    const response = await client().models.generateContent({
      model: 'demo-gemini-flash',
      contents: 'Enumera las 5 mejores marcas de software de contabilidad, una por línea.',
      config: { temperature: 0, maxOutputTokens: 1024 },
    });
    const text = response.text ?? '';
    expect(text.split('\n').filter((line) => /^\d+\. \S/.test(line))).toHaveLength(5);
    expect(response.modelVersion).toBe('demo-gemini-flash');
    expect(response.responseId).toMatch(/^[\w-]{10,}$/);
    expect(response.usageMetadata?.candidatesTokenCount).toBe(Math.ceil(text.length / 4));
    expect(response.usageMetadata?.totalTokenCount).toBe((response.usageMetadata?.promptTokenCount ?? 0) + (response.usageMetadata?.candidatesTokenCount ?? 0));
    expect(simulator.requests()).toMatchObject([{ provider: 'gemini', kind: 'blind_list', language: 'es', headers: { 'x-goog-api-key': 'AIza-test' } }]);
  });

  it('surfaces a rate-limit fault as ApiError with status 429', async () => {
    simulator.injectFaults([{ kind: 'rate_limit' }]);
    const error = await client()
      .models.generateContent({ model: 'demo-gemini-flash', contents: 'Best VPN?' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).message).toContain('RESOURCE_EXHAUSTED');
  });
});
