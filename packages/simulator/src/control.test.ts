import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator } from './server.js';
import { callVendor } from './test-support/vendors.js';
import type { RunningSimulator } from './types.js';

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ seed: 11, latencyMs: 5 });
});
afterAll(async () => {
  await simulator.close();
});
beforeEach(() => {
  simulator.reset();
});

async function control(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const init: RequestInit = { method };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(`${simulator.url}/__simulator/${path}`, init);
  return { status: response.status, json: await response.json() };
}

describe('control endpoints', () => {
  it('GET health reports the seed, latency and counts', async () => {
    await callVendor(simulator, 'chat', 'Best VPN?');
    expect(await control('GET', 'health')).toEqual({ status: 200, json: { ok: true, seed: 11, latencyMs: 5, pendingFaults: 0, requests: 1 } });
  });

  it('GET requests lists what was received; DELETE requests clears it', async () => {
    await callVendor(simulator, 'gemini', 'List the 3 best VPN brands, one per line.');
    const listed = await control('GET', 'requests');
    expect(listed.status).toBe(200);
    expect(listed.json).toMatchObject([{ provider: 'gemini', api: 'generateContent', kind: 'blind_list', status: 200, model: 'demo-gemini-flash' }]);
    expect(await control('DELETE', 'requests')).toEqual({ status: 200, json: { cleared: 1 } });
    expect((await control('GET', 'requests')).json).toEqual([]);
    expect(simulator.requests()).toEqual([]);
  });

  it('POST faults queues faults that requests then consume; DELETE faults clears them', async () => {
    const queued = await control('POST', 'faults', [{ kind: 'rate_limit', provider: 'anthropic', retryAfterSeconds: 3 }, { kind: 'server_error', times: 2 }]);
    expect(queued).toMatchObject({ status: 200, json: { queued: 2 } });
    expect((await control('GET', 'faults')).json).toEqual([
      { kind: 'rate_limit', provider: 'anthropic', retryAfterSeconds: 3, times: 1 },
      { kind: 'server_error', times: 2 },
    ]);
    const limited = await callVendor(simulator, 'messages', 'Best VPN?');
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '3']);
    expect((await callVendor(simulator, 'chat', 'Best VPN?')).status).toBe(500);
    expect(await control('DELETE', 'faults')).toEqual({ status: 200, json: { cleared: 1 } });
    expect((await callVendor(simulator, 'chat', 'Best VPN?')).status).toBe(200);
  });

  it('POST faults refuses malformed faults with a 400 and queues nothing', async () => {
    for (const body of ['not json', [{ kind: 'explode' }], [{ kind: 'hang', provider: 'mistral' }], [{ kind: 'rate_limit', times: 0 }], [{ kind: 'server_error', status: 404 }]]) {
      const result = await control('POST', 'faults', body);
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.json).toMatchObject({ error: { message: expect.any(String) } });
    }
    expect((await control('GET', 'health')).json).toMatchObject({ pendingFaults: 0 });
  });

  it('POST latency sets the delay for normal answers', async () => {
    expect(await control('POST', 'latency', { ms: 300 })).toEqual({ status: 200, json: { latencyMs: 300 } });
    const startedAt = Date.now();
    await callVendor(simulator, 'chat', 'Best VPN?');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(290);
    expect((await control('POST', 'latency', { ms: -1 })).status).toBe(400);
    expect((await control('POST', 'latency', { wait: 5 })).status).toBe(400);
  });

  it('POST reset replays answers from the first call', async () => {
    const first = await callVendor(simulator, 'chat', 'What is the best VPN for travel?');
    await callVendor(simulator, 'chat', 'What is the best VPN for travel?');
    expect(await control('POST', 'reset')).toEqual({ status: 200, json: { ok: true } });
    const replayed = await callVendor(simulator, 'chat', 'What is the best VPN for travel?');
    expect((replayed.json as { choices: unknown }).choices).toEqual((first.json as { choices: unknown }).choices);
  });

  it('answers unknown control endpoints with a JSON 404', async () => {
    expect(await control('GET', 'nope')).toMatchObject({ status: 404, json: { error: { message: expect.stringContaining('nope') } } });
  });
});
