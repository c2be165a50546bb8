import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from './server.js';
import { API_PROVIDER, callVendor, vendorRequest } from './test-support/vendors.js';
import type { VendorApi } from './test-support/vendors.js';
import type { RunningSimulator } from './types.js';

const PROMPT = 'What is the best CRM for a small agency?';
const APIS: readonly VendorApi[] = ['chat', 'responses', 'messages', 'gemini'];

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ seed: 7 });
});
afterAll(async () => {
  await simulator.close();
});

describe('OpenAI chat completions', () => {
  it('answers in the chat.completion shape with a dated snapshot model and usage', async () => {
    const { status, headers, json } = await callVendor(simulator, 'chat', PROMPT);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(json).toMatchObject({
      id: expect.stringMatching(/^chatcmpl-\w+$/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'demo-gpt-4.1-mini-2025-04-14',
      choices: [{ index: 0, message: { role: 'assistant', content: expect.stringContaining('**'), refusal: null }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: expect.any(Number),
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
      system_fingerprint: expect.stringMatching(/^fp_[0-9a-f]+$/),
    });
    const usage = json['usage'] as { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    const content = (json as { choices: { message: { content: string } }[] }).choices[0]?.message.content ?? '';
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    expect(usage.completion_tokens).toBe(Math.ceil(content.length / 4));
    expect(Math.abs((json['created'] as number) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('keeps a model id that is already dated', async () => {
    const { json } = await callVendor(simulator, 'chat', PROMPT, { model: 'gpt-4o-2024-11-20' });
    expect(json['model']).toBe('gpt-4o-2024-11-20');
  });

  it('stops at max_completion_tokens with finish_reason "length"', async () => {
    const { json } = await callVendor(simulator, 'chat', PROMPT, { extra: { max_completion_tokens: 10 } });
    const choice = (json as { choices: { message: { content: string }; finish_reason: string }[] }).choices[0];
    expect(choice?.finish_reason).toBe('length');
    expect(choice?.message.content.length).toBeLessThanOrEqual(40);
    expect((json['usage'] as { completion_tokens: number }).completion_tokens).toBeLessThanOrEqual(10);
  });
});

describe('OpenAI responses', () => {
  it('answers in the response shape with output_text content and usage', async () => {
    const { status, headers, json } = await callVendor(simulator, 'responses', PROMPT);
    expect(status).toBe(200);
    expect(headers.get('x-request-id')).toMatch(/^req_/);
    expect(json).toMatchObject({
      id: expect.stringMatching(/^resp_[0-9a-f]+$/),
      object: 'response',
      status: 'completed',
      model: 'demo-gpt-4.1-mini-2025-04-14',
      output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: expect.stringContaining('**'), annotations: [] }] }],
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number), total_tokens: expect.any(Number) },
    });
  });

  it('reads the prompt from input items as well as from a string', async () => {
    const { url, init } = vendorRequest(simulator, 'responses', 'ignored', {
      extra: { input: [{ role: 'user', content: [{ type: 'input_text', text: 'Do you know the brand "Zoho CRM"?' }] }] },
    });
    const json = (await (await fetch(url, init)).json()) as { output: { content: { text: string }[] }[] };
    expect(json.output[0]?.content[0]?.text).toMatch(/^Yes — .*Zoho CRM/);
  });
});

describe('Anthropic messages', () => {
  it('answers in the message shape, echoing the requested model', async () => {
    const { status, headers, json } = await callVendor(simulator, 'messages', PROMPT);
    expect(status).toBe(200);
    expect(headers.get('request-id')).toMatch(/^req_\w+$/);
    expect(json).toMatchObject({
      id: expect.stringMatching(/^msg_\w+$/),
      type: 'message',
      role: 'assistant',
      model: 'demo-claude-sonnet',
      content: [{ type: 'text', text: expect.stringContaining('**') }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
    });
  });

  it('accepts the key as authorization: Bearer (what the 1.x SDK sends)', async () => {
    const { url, init } = vendorRequest(simulator, 'messages', PROMPT, { withoutKey: true });
    const response = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: 'Bearer sk-ant' } });
    expect(response.status).toBe(200);
  });

  it('requires max_tokens, as the real API does', async () => {
    const { url, init } = vendorRequest(simulator, 'messages', PROMPT);
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    delete body['max_tokens'];
    const response = await fetch(url, { ...init, body: JSON.stringify(body) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') } });
  });
});

describe('Gemini generateContent', () => {
  it('answers in the GenerateContentResponse shape, reporting the requested model as modelVersion', async () => {
    const { status, json } = await callVendor(simulator, 'gemini', PROMPT);
    expect(status).toBe(200);
    expect(json).toMatchObject({
      candidates: [{ content: { parts: [{ text: expect.stringContaining('**') }], role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: expect.any(Number), candidatesTokenCount: expect.any(Number), totalTokenCount: expect.any(Number) },
      modelVersion: 'demo-gemini-flash',
      responseId: expect.stringMatching(/^[\w-]{10,}$/),
    });
  });

  it('accepts the key as a ?key= query parameter', async () => {
    const { url, init } = vendorRequest(simulator, 'gemini', PROMPT, { withoutKey: true });
    expect((await fetch(`${url}?key=AIza-test`, init)).status).toBe(200);
  });

  it('refuses streamGenerateContent with a 400', async () => {
    const { url, init } = vendorRequest(simulator, 'gemini', PROMPT);
    const response = await fetch(url.replace(':generateContent', ':streamGenerateContent'), init);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  });
});

describe('errors in each vendor shape', () => {
  const unauthorized: Readonly<Record<VendorApi, unknown>> = {
    chat: { error: { message: expect.stringContaining('API key'), type: 'invalid_request_error', code: null } },
    responses: { error: { message: expect.stringContaining('API key'), type: 'invalid_request_error', code: null } },
    messages: { type: 'error', error: { type: 'authentication_error', message: expect.any(String) } },
    gemini: { error: { code: 401, message: expect.any(String), status: 'UNAUTHENTICATED' } },
  };
  const badRequest: Readonly<Record<VendorApi, unknown>> = {
    chat: { error: { type: 'invalid_request_error', param: 'stream', message: expect.stringContaining('Streaming') } },
    responses: { error: { type: 'invalid_request_error', param: 'stream' } },
    messages: { type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('stream') } },
    gemini: { error: { code: 400, status: 'INVALID_ARGUMENT' } },
  };

  it.each(APIS)('%s: a missing API key is a 401', async (api) => {
    const { status, json } = await callVendor(simulator, api, PROMPT, { withoutKey: true });
    expect(status).toBe(401);
    expect(json).toMatchObject(unauthorized[api] as Record<string, unknown>);
  });

  it.each(APIS)('%s: streaming is a 400', async (api) => {
    const path = api === 'gemini' ? ':streamGenerateContent' : undefined;
    const { url, init } = vendorRequest(simulator, api, PROMPT, { extra: { stream: true } });
    const response = await fetch(path ? url.replace(':generateContent', path) : url, init);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject(badRequest[api] as Record<string, unknown>);
  });

  it.each(APIS)('%s: a body that is not JSON is a 400 and is still recorded', async (api) => {
    simulator.clearRequests();
    const { url, init } = vendorRequest(simulator, api, PROMPT);
    const response = await fetch(url, { ...init, body: '{not json' });
    expect(response.status).toBe(400);
    expect(simulator.requests()).toMatchObject([{ provider: API_PROVIDER[api], status: 400, body: '{not json' }]);
  });

  it('a key starting with "invalid" is refused like a wrong key', async () => {
    const { url, init } = vendorRequest(simulator, 'chat', PROMPT);
    const response = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: 'Bearer invalid-key' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
  });

  it('unknown paths are a JSON 404 in the likeliest vendor shape', async () => {
    const openai = await fetch(`${simulator.url}/v1/embeddings`, { method: 'POST', body: '{}' });
    expect(openai.status).toBe(404);
    expect(await openai.json()).toMatchObject({ error: { message: 'Invalid URL (POST /v1/embeddings)' } });
    const gemini = await fetch(`${simulator.url}/v1beta/models`);
    expect(gemini.status).toBe(404);
    expect(await gemini.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    const anthropic = await fetch(`${simulator.url}/v1/complete`, { method: 'POST', headers: { 'anthropic-version': '2023-06-01' }, body: '{}' });
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const wrongMethod = await fetch(`${simulator.url}/v1/chat/completions`);
    expect(wrongMethod.status).toBe(404);
  });
});

describe('request log', () => {
  it('records provider, api, path, model, prompt, kind, language, headers, body, status and answer', async () => {
    simulator.clearRequests();
    await callVendor(simulator, 'messages', '¿Conoces la marca "Holded"?');
    const [entry] = simulator.requests();
    expect(entry).toMatchObject({
      provider: 'anthropic',
      api: 'messages',
      path: '/v1/messages',
      model: 'demo-claude-sonnet',
      prompt: '¿Conoces la marca "Holded"?',
      kind: 'recognition',
      language: 'es',
      headers: { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' },
      body: { model: 'demo-claude-sonnet', max_tokens: 1024 },
      status: 200,
      answer: expect.stringMatching(/^Sí — /),
    });
    expect(Math.abs((entry?.receivedAt ?? 0) - Date.now())).toBeLessThan(10_000);
  });

  it('returns copies, so callers cannot change the log', async () => {
    simulator.clearRequests();
    await callVendor(simulator, 'chat', PROMPT);
    const [first] = simulator.requests();
    if (first) first.status = 999;
    expect(simulator.requests()[0]?.status).toBe(200);
  });
});
