import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from '../service.js';
import type { TestService } from '../test-support/service.js';
import { healthStatus, rawExchange, startSecurityService, type RawExchange } from './test-support/harness.js';

// Slow clients (slowloris): a client that sends its headers or its body slower than the server allows is
// closed, and everyone else is served meanwhile. The service is started exactly as in production, with the
// timeouts shortened through startService's test seam (production: headers 20 s, whole request 120 s).

const TIMEOUTS: HttpTimeouts = { headersTimeoutMs: 600, requestTimeoutMs: 1_200, keepAliveTimeoutMs: 500, connectionsCheckingIntervalMs: 100 };
/** When a timed-out socket must be gone by: the timeout, plus one check interval, plus scheduling slack. */
const closedWithin = (timeoutMs: number) => timeoutMs + TIMEOUTS.connectionsCheckingIntervalMs + 1_200;

let running: TestService;
let port: number;
beforeAll(async () => {
  running = await startSecurityService({ TRUST_PROXY: 'loopback' }, { httpTimeouts: TIMEOUTS });
  port = Number(new URL(running.url).port);
});
afterAll(async () => {
  await running?.stop();
});

/** The text one character at a time, `gapMs` apart. */
function trickle(text: string, gapMs: number): Array<string | number> {
  return [...text].flatMap((character) => [character, gapMs]);
}

/** Time to answer /health, measured while something else is going on. */
async function healthLatency(): Promise<number> {
  const started = Date.now();
  expect(await healthStatus(running.url)).toBe(200);
  return Date.now() - started;
}

function expectClosedByServer(exchange: RawExchange, timeoutMs: number): void {
  expect(exchange.ending, exchange.text).not.toBe('timeout');
  expect(exchange.elapsedMs).toBeGreaterThanOrEqual(timeoutMs - 50);
  expect(exchange.elapsedMs).toBeLessThanOrEqual(closedWithin(timeoutMs));
  // Node answers a timed-out request with 408 before closing (when it can still write).
  if (exchange.status !== undefined) expect(exchange.status).toBe(408);
}

describe('slow clients are closed and do not starve others', () => {
  it('keeps the production defaults: headers 20 s, whole request 120 s', () => {
    expect(DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs).toBe(20_000);
    expect(DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs).toBe(120_000);
    expect(DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs).toBeLessThanOrEqual(DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs);
  });

  it('closes a client that sends its headers byte by byte slower than headersTimeout, serving others meanwhile', async () => {
    const slow = rawExchange(port, trickle('GET /health HTTP/1.1\r\nHost: visibility.test\r\nX-Slow: 1234567890abcdef\r\n\r\n', 100), 5_000);
    const latencies = [];
    for (let index = 0; index < 3; index += 1) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      latencies.push(await healthLatency());
    }
    const exchange = await slow;
    expectClosedByServer(exchange, TIMEOUTS.headersTimeoutMs);
    for (const latency of latencies) expect(latency).toBeLessThan(1_500);
  });

  it('closes a client that connects and never sends a byte', async () => {
    const exchange = await rawExchange(port, [], 5_000);
    expectClosedByServer(exchange, TIMEOUTS.headersTimeoutMs);
  });

  it('closes a client that sends the headers at once and then the body slowly (slow POST) by requestTimeout', async () => {
    const body = '{"brand":"HubSpot","category":"CRM software"}';
    const exchange = rawExchange(
      port,
      [
        `POST /api/check HTTP/1.1\r\nHost: visibility.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        ...trickle(body, 150),
      ],
      5_000,
    );
    const latency = await (async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return healthLatency();
    })();
    const result = await exchange;
    expectClosedByServer(result, TIMEOUTS.requestTimeoutMs);
    expect(latency).toBeLessThan(1_500);
  });

  it('closes a client streaming a declared 1 GB body by requestTimeout (body-parser would read it all)', async () => {
    const exchange = await rawExchange(
      port,
      [
        'POST /api/audit HTTP/1.1\r\nHost: visibility.test\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n{"brand":"',
        ...Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? 'x'.repeat(1024) : 50)),
      ],
      5_000,
    );
    expect(exchange.ending).not.toBe('timeout');
    expect(exchange.elapsedMs).toBeLessThanOrEqual(closedWithin(TIMEOUTS.requestTimeoutMs));
  });

  it('closes 60 slowloris sockets at once while answering normal requests promptly', async () => {
    const sockets = Array.from({ length: 60 }, (_, index) =>
      rawExchange(port, ['GET /health HTTP/1.1\r\n', 200, `Host: visibility.test\r\n`, 200, `X-N: ${index}\r\n`, 200, 'X-More: 1\r\n', 200, 'X-More: 2\r\n'], 5_000),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const latencies = await Promise.all(Array.from({ length: 5 }, () => healthLatency()));
    const exchanges = await Promise.all(sockets);
    for (const latency of latencies) expect(latency).toBeLessThan(1_500);
    for (const exchange of exchanges) expectClosedByServer(exchange, TIMEOUTS.headersTimeoutMs);
    expect(await healthLatency()).toBeLessThan(1_500);
  });

  it('closes an idle keep-alive connection that starts its next request too slowly', async () => {
    const exchange = await rawExchange(port, ['GET /health HTTP/1.1\r\nHost: visibility.test\r\n\r\n', 300, 'GET /hea', 400, 'lt', 400, 'h HT'], 5_000);
    expect(exchange.status).toBe(200);
    expect(exchange.ending).not.toBe('timeout');
    // The first request's answer came back; the second never completed, and the socket was closed.
    expect(exchange.text.match(/HTTP\/1\.1 200/g)).toHaveLength(1);
    expect(exchange.elapsedMs).toBeLessThanOrEqual(closedWithin(TIMEOUTS.headersTimeoutMs + 300));
  });
});
