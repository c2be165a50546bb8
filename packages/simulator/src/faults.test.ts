import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator } from './server.js';
import { callVendor, vendorRequest } from './test-support/vendors.js';
import type { VendorApi } from './test-support/vendors.js';
import type { RunningSimulator } from './types.js';

const PROMPT = 'Which VPN should I use for travel?';

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ seed: 3 });
});
afterAll(async () => {
  await simulator.close();
});
beforeEach(() => {
  simulator.clearFaults();
  simulator.clearRequests();
  simulator.setLatency(0);
});

describe('rate_limit', () => {
  const shapes: Readonly<Record<VendorApi, Record<string, unknown>>> = {
    chat: { error: { type: 'requests', code: 'rate_limit_exceeded', message: expect.stringContaining('Rate limit') } },
    responses: { error: { type: 'requests', code: 'rate_limit_exceeded' } },
    messages: { type: 'error', error: { type: 'rate_limit_error', message: expect.any(String) } },
    gemini: { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: expect.any(String) } },
  };

  it.each(['chat', 'responses', 'messages', 'gemini'] as const)('%s: answers 429 in the vendor shape with retry-after (default 1 s)', async (api) => {
    simulator.injectFaults([{ kind: 'rate_limit' }]);
    const { status, headers, json } = await callVendor(simulator, api, PROMPT);
    expect(status).toBe(429);
    expect(headers.get('retry-after')).toBe('1');
    expect(json).toMatchObject(shapes[api]);
  });

  it('uses retryAfterSeconds and sends OpenAI-style rate-limit headers', async () => {
    simulator.injectFaults([{ kind: 'rate_limit', retryAfterSeconds: 7 }]);
    const { status, headers } = await callVendor(simulator, 'chat', PROMPT);
    expect(status).toBe(429);
    expect(headers.get('retry-after')).toBe('7');
    expect(headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(headers.get('x-ratelimit-reset-requests')).toBe('7s');
  });
});

describe('server_error', () => {
  it('answers 500 by default, in the vendor shape', async () => {
    simulator.injectFaults([{ kind: 'server_error', times: 3 }]);
    const openai = await callVendor(simulator, 'chat', PROMPT);
    const anthropic = await callVendor(simulator, 'messages', PROMPT);
    const gemini = await callVendor(simulator, 'gemini', PROMPT);
    expect([openai.status, anthropic.status, gemini.status]).toEqual([500, 500, 500]);
    expect(openai.json).toMatchObject({ error: { type: 'server_error' } });
    expect(anthropic.json).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(gemini.json).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
  });

  it('uses the given status: 529 overloaded for Anthropic, 503 unavailable for Gemini', async () => {
    simulator.injectFaults([{ kind: 'server_error', status: 529, provider: 'anthropic' }, { kind: 'server_error', status: 503, provider: 'gemini' }]);
    const gemini = await callVendor(simulator, 'gemini', PROMPT);
    const anthropic = await callVendor(simulator, 'messages', PROMPT);
    expect(anthropic.status).toBe(529);
    expect(anthropic.json).toMatchObject({ error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(gemini.status).toBe(503);
    expect(gemini.json).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } });
  });

  it('refuses an invalid fault', () => {
    expect(() => simulator.injectFaults([{ kind: 'server_error', status: 200 }])).toThrow(/status/);
  });
});

describe('fault queue', () => {
  it('consumes one `times` per matching request, then answers normally', async () => {
    simulator.injectFaults([{ kind: 'server_error', times: 2 }]);
    const statuses = [];
    for (let call = 0; call < 3; call++) statuses.push((await callVendor(simulator, 'chat', PROMPT)).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('skips faults for other providers and serves faults in order', async () => {
    simulator.injectFaults([{ kind: 'rate_limit', provider: 'gemini' }, { kind: 'server_error', status: 503 }]);
    expect((await callVendor(simulator, 'chat', PROMPT)).status).toBe(503);
    expect((await callVendor(simulator, 'chat', PROMPT)).status).toBe(200);
    expect((await callVendor(simulator, 'gemini', PROMPT)).status).toBe(429);
    expect((await callVendor(simulator, 'gemini', PROMPT)).status).toBe(200);
  });

  it('records faulted requests with their status and prompt', async () => {
    simulator.injectFaults([{ kind: 'rate_limit' }]);
    await callVendor(simulator, 'messages', PROMPT);
    await callVendor(simulator, 'messages', PROMPT);
    expect(simulator.requests()).toMatchObject([
      { provider: 'anthropic', status: 429, prompt: PROMPT, kind: 'buyer_question' },
      { provider: 'anthropic', status: 200, prompt: PROMPT },
    ]);
    expect(simulator.requests()[0]?.answer).toBeUndefined();
  });

  it('clearFaults() drops queued faults', async () => {
    simulator.injectFaults([{ kind: 'server_error', times: 5 }]);
    simulator.clearFaults();
    expect((await callVendor(simulator, 'chat', PROMPT)).status).toBe(200);
  });
});

describe('hang', () => {
  it('never answers: the client gives up, and the request is recorded with status 0', async () => {
    simulator.injectFaults([{ kind: 'hang', provider: 'openai' }]);
    const { url, init } = vendorRequest(simulator, 'chat', PROMPT, { signal: AbortSignal.timeout(200) });
    const startedAt = Date.now();
    await expect(fetch(url, init)).rejects.toThrow(/abort|timeout/i);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(190);
    expect(simulator.requests()).toMatchObject([{ provider: 'openai', status: 0, prompt: PROMPT }]);
    // The next request is not affected.
    expect((await callVendor(simulator, 'chat', PROMPT)).status).toBe(200);
  });
});

describe('latency', () => {
  it('delays normal answers by the configured time', async () => {
    simulator.setLatency(250);
    const startedAt = Date.now();
    expect((await callVendor(simulator, 'gemini', PROMPT)).status).toBe(200);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(240);
    simulator.setLatency(0);
    const quickStart = Date.now();
    await callVendor(simulator, 'gemini', PROMPT);
    expect(Date.now() - quickStart).toBeLessThan(240);
  });

  it('does not delay faults', async () => {
    simulator.setLatency(2_000);
    simulator.injectFaults([{ kind: 'rate_limit' }]);
    const startedAt = Date.now();
    expect((await callVendor(simulator, 'chat', PROMPT)).status).toBe(429);
    expect(Date.now() - startedAt).toBeLessThan(1_000);
  });
});
