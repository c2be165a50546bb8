import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_BODY_BYTES } from '../rest/json-body.js';
import type { TestService } from '../test-support/service.js';
import { healthStatus, rawExchange, startSecurityService } from './test-support/harness.js';

// Oversize requests: headers over Node's 16 KB limit answer 431 and the server keeps serving; bodies over the
// JSON limit answer the operation's own 400 ApiError (JSON, never a 413 HTML page), however the size is
// hidden (chunked, a lying Content-Length, compression).

let running: TestService;
let port: number;
beforeAll(async () => {
  running = await startSecurityService({ SESSION_SECRET: 'security-oversize-secret-0123456789abcdef', TRUST_PROXY: 'loopback' });
  port = Number(new URL(running.url).port);
});
afterAll(async () => {
  await running?.stop();
});

const API_ERROR = (code: string) => ({ error: expect.any(String), code, hint: expect.any(String), docs: 'http://visibility.test/developers' });

/** Parses the JSON body of a raw HTTP/1.1 response (Content-Length or chunked). */
function rawJsonBody(text: string): unknown {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  let body = rest.join('\r\n\r\n');
  if (/transfer-encoding: chunked/i.test(head)) {
    let decoded = '';
    for (;;) {
      const newline = body.indexOf('\r\n');
      const size = Number.parseInt(body.slice(0, newline), 16);
      if (!Number.isFinite(size) || size === 0) break;
      decoded += body.slice(newline + 2, newline + 2 + size);
      body = body.slice(newline + 2 + size + 2);
    }
    body = decoded;
  }
  return JSON.parse(body);
}

describe('oversize headers', () => {
  it('answers a single 64 KB header with 431 and keeps serving', async () => {
    const answer = await rawExchange(port, [`GET /health HTTP/1.1\r\nHost: visibility.test\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`]);
    expect(answer.status).toBe(431);
    expect(answer.ending).not.toBe('timeout');
    expect(await healthStatus(running.url)).toBe(200);
  });

  it('answers 5,000 small headers (over 16 KB together) with 431, but serves 500 of them', async () => {
    const many = (count: number) => Array.from({ length: count }, (_, index) => `X-H${index}: v`).join('\r\n');
    const tooMany = await rawExchange(port, [`GET /health HTTP/1.1\r\nHost: visibility.test\r\n${many(5_000)}\r\nConnection: close\r\n\r\n`]);
    expect(tooMany.status).toBe(431);
    const fine = await rawExchange(port, [`GET /health HTTP/1.1\r\nHost: visibility.test\r\n${many(500)}\r\nConnection: close\r\n\r\n`]);
    expect(fine.status).toBe(200);
    expect(await healthStatus(running.url)).toBe(200);
  });

  it('answers a 100 KB request line with 431 (or 414) and keeps serving', async () => {
    const answer = await rawExchange(port, [`GET /api/badge/${'x'.repeat(100 * 1024)} HTTP/1.1\r\nHost: visibility.test\r\n\r\n`]);
    expect([414, 431]).toContain(answer.status);
    expect(await healthStatus(running.url)).toBe(200);
  });

  it('survives a burst of oversize requests in parallel while answering a normal one', async () => {
    const burst = Array.from({ length: 20 }, () => rawExchange(port, [`GET / HTTP/1.1\r\nHost: x\r\nCookie: ${'c'.repeat(40 * 1024)}\r\n\r\n`]));
    const [health, ...answers] = await Promise.all([healthStatus(running.url), ...burst]);
    expect(health).toBe(200);
    for (const answer of answers) expect(answer.status).toBe(431);
  });
});

describe('oversize bodies answer the operation\'s own 400 ApiError', () => {
  const overLimit = (field: string) => JSON.stringify({ [field]: 'x'.repeat(MAX_JSON_BODY_BYTES + 1_000) });

  it.each([
    ['/api/audit', 'brand', 'invalid_body'],
    ['/api/check', 'brand', 'missing_brand'],
    ['/api/tools/repeat', 'question', 'bad_body'],
    ['/auth/sign-in', 'email', 'invalid_body'],
    ['/api/audit/00000000-0000-4000-8000-000000000000/fanout-map', 'rerun', 'invalid_body'],
  ])('POST %s with an oversize "%s" field: 400 JSON %s', async (path, field, code) => {
    const response = await fetch(`${running.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.10' },
      body: overLimit(field),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual(API_ERROR(code));
  });

  it('answers an oversize chunked body (no Content-Length) with the 400 ApiError', async () => {
    const chunk = 'x'.repeat(4_096);
    const chunks: Array<string | number> = [
      'POST /api/audit HTTP/1.1\r\nHost: visibility.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
      `1\r\n{\r\n`,
    ];
    for (let index = 0; index < 6; index += 1) chunks.push(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    chunks.push('0\r\n\r\n');
    const answer = await rawExchange(port, chunks);
    expect(answer.status).toBe(400);
    expect(rawJsonBody(answer.text)).toEqual(API_ERROR('invalid_body'));
  });

  it('answers a 2 MB body with the 400 ApiError while still serving everyone else', async () => {
    const body = `{"brand":"${'b'.repeat(2 * 1024 * 1024)}"}`;
    const [answer, health] = await Promise.all([
      rawExchange(port, [`POST /api/check HTTP/1.1\r\nHost: visibility.test\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`, body]),
      healthStatus(running.url),
    ]);
    expect(health).toBe(200);
    expect(answer.status).toBe(400);
    expect(rawJsonBody(answer.text)).toEqual(API_ERROR('missing_brand'));
  });

  // body-parser would drain an oversize body before answering; jsonBody() refuses a declared length at once.
  it('answers a declared Content-Length of 1 GB at once with the 400 ApiError and closes, without reading the body', async () => {
    const answer = await rawExchange(port, [
      'POST /api/check HTTP/1.1\r\nHost: visibility.test\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n{"brand":"',
      5_000,
    ], 4_000);
    expect(answer.status).toBe(400);
    expect(answer.ending).not.toBe('timeout');
    expect(answer.elapsedMs).toBeLessThan(3_000);
    expect(answer.text.toLowerCase()).toContain('connection: close');
    expect(rawJsonBody(answer.text)).toEqual(API_ERROR('missing_brand'));
  });

  it('answers a declared 1 GB body on /mcp at once with the JSON-RPC 413 and closes, without reading it', async () => {
    const answer = await rawExchange(port, [
      'POST /mcp HTTP/1.1\r\nHost: visibility.test\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1073741824\r\n\r\n{"jsonrpc":"2.0",',
      5_000,
    ], 4_000);
    expect(answer.status).toBe(413);
    expect(answer.ending).not.toBe('timeout');
    expect(answer.elapsedMs).toBeLessThan(3_000);
    expect(answer.text.toLowerCase()).toContain('connection: close');
    expect(answer.text).toContain('Payload Too Large');
  });

  it('applies the limit to the decompressed body: a 40 KB gzip bomb of 20 MB answers 400, not a 20 MB parse', async () => {
    const bomb = gzipSync(Buffer.from(`{"brand":"${'a'.repeat(20 * 1024 * 1024)}"}`));
    expect(bomb.length).toBeLessThan(MAX_JSON_BODY_BYTES * 4);
    const response = await fetch(`${running.url}/api/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-forwarded-for': '203.0.113.11' },
      body: bomb,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(API_ERROR('missing_brand'));
    expect(await healthStatus(running.url)).toBe(200);
  });

  it('answers an oversize sign-in form post (over 4 KB) with 400 and the page, not a crash', async () => {
    const response = await fetch(`${running.url}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.12' },
      body: `email=${'a'.repeat(8 * 1024)}%40acme.example`,
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    await response.text();
  });

  it('answers deeply nested JSON within the size limit with a 400, not a stack overflow', async () => {
    const depth = 7_000;
    const response = await fetch(`${running.url}/api/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.13' },
      body: `${'['.repeat(depth)}${']'.repeat(depth)}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(API_ERROR('missing_brand'));
    expect(await healthStatus(running.url)).toBe(200);
  });
});
