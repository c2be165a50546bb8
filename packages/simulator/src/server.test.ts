import { describe, expect, it } from 'vitest';
import { startSimulator } from './server.js';
import { callVendor, vendorRequest } from './test-support/vendors.js';

describe('startSimulator', () => {
  it('listens on 127.0.0.1 on a free port and hands each SDK its base URL', async () => {
    const simulator = await startSimulator();
    try {
      expect(simulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(simulator.baseUrls).toEqual({ openai: `${simulator.url}/v1`, anthropic: simulator.url, gemini: simulator.url });
      expect(await (await fetch(`${simulator.url}/__simulator/health`)).json()).toMatchObject({ ok: true, seed: 42, latencyMs: 0 });
    } finally {
      await simulator.close();
    }
  });

  it('listens on the requested port', async () => {
    const probe = await startSimulator();
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const simulator = await startSimulator({ port });
    try {
      expect(simulator.url).toBe(`http://127.0.0.1:${port}`);
    } finally {
      await simulator.close();
    }
  });

  it('close() returns promptly with hanging and delayed requests open, and the clients see the connection drop', async () => {
    const simulator = await startSimulator();
    simulator.injectFaults([{ kind: 'hang', times: 2 }]);
    const hanging = [1, 2].map(() => {
      const { url, init } = vendorRequest(simulator, 'messages', 'Best VPN?');
      return fetch(url, init).then(
        () => 'answered',
        () => 'dropped',
      );
    });
    simulator.setLatency(60_000);
    const delayed = callVendor(simulator, 'gemini', 'Best VPN?').then(
      () => 'answered',
      () => 'dropped',
    );
    for (let waited = 0; simulator.requests().length < 3 && waited < 2_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(simulator.requests().map((entry) => entry.status)).toEqual([0, 0, 0]);
    const startedAt = Date.now();
    await simulator.close();
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    expect(await Promise.all([...hanging, delayed])).toEqual(['dropped', 'dropped', 'dropped']);
    await expect(fetch(`${simulator.url}/__simulator/health`)).rejects.toThrow();
    // Closing twice is harmless.
    await simulator.close();
  });

  it('keeps two simulators independent', async () => {
    const [first, second] = [await startSimulator(), await startSimulator()];
    try {
      first.injectFaults([{ kind: 'server_error' }]);
      expect((await callVendor(second, 'chat', 'Best VPN?')).status).toBe(200);
      expect((await callVendor(first, 'chat', 'Best VPN?')).status).toBe(500);
      expect(second.requests()).toHaveLength(1);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
