import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintAuditToken } from '@visibility/core';
import { startTestService, type TestService } from '../test-support/service.js';

// GET /api/badge/{token}, GET /api/audit/{id}/fanout-map and the 404 of an unknown API path are
// answered before Express (cheap-reads.ts). The same request with an If-Modified-Since header goes
// through Express (the fast path leaves it to Express) and, with no Last-Modified on these answers,
// gets the ordinary answer: so each pair below is the fast path and the Express route answering the
// same request, and must match byte for byte but the Date.

let running: TestService;
beforeAll(async () => {
  // TRUST_PROXY=loopback: X-Forwarded-For names the caller, so two requests can be two fresh callers.
  running = await startTestService({ SESSION_SECRET: 'cheap-reads-test-secret-0123456789abcdef', TRUST_PROXY: 'loopback' });
});
afterAll(async () => {
  await running.stop();
});

async function insertAudit(): Promise<string> {
  const id = randomUUID();
  await running.service.store.auditRepository.insertAudit({
    id,
    createdAt: new Date(Date.now() - 86_400_000).toISOString(),
    brand: 'Acme & Sons',
    brandKey: 'acme sons',
    website: 'https://acme.example/',
    category: 'CRM software',
    categoryKey: 'crm software',
    email: 'owner@acme.example',
    mode: 'live',
    measured: true,
    score: 62,
    response: { id, audit: { score: 62 }, productFanout: { questions: ['Which CRM should a small agency use?'] } },
  });
  return id;
}

async function badgeToken(): Promise<string> {
  return mintAuditToken(running.service.store.tokenRepository, { auditId: await insertAudit(), kind: 'badge', createdBy: 'owner@acme.example' });
}

/** An audit with a stored (complete) buyer-question map of one question and one provider. */
async function auditWithMap(): Promise<string> {
  const auditId = await insertAudit();
  const { mapRepository } = running.service.store;
  const createdAt = new Date().toISOString();
  const job = { auditId, mode: 'live', brand: 'Acme & Sons', website: 'https://acme.example/', competitors: [], questions: ['Which CRM?'], providers: [{ provider: 'openai' as const, model: 'gpt-test' }], createdAt };
  expect(mapRepository.createFirstJob(job)).toBe(true);
  expect(mapRepository.completeJob(auditId, 1, { auditId, generation: 1, brand: '<b>Acme & Sons</b>', questions: ['Which CRM?'] }, createdAt)).toBe(true);
  return auditId;
}

let callers = 0;
/** A caller no test has used yet. */
const freshCaller = () => `198.51.100.${(callers += 1)}`;

interface Raw {
  status: number;
  rawHeaders: string[];
  body: Buffer;
}

function get(path: string, headers: Record<string, string>, method = 'GET'): Promise<Raw> {
  const { port } = new URL(running.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, rawHeaders: response.rawHeaders, body: Buffer.concat(chunks) }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Header names and values in wire order, without Date. */
function headerLines(raw: Raw): string[] {
  const lines: string[] = [];
  for (let index = 0; index < raw.rawHeaders.length; index += 2) {
    if (raw.rawHeaders[index]?.toLowerCase() !== 'date') lines.push(`${raw.rawHeaders[index]}: ${raw.rawHeaders[index + 1]}`);
  }
  return lines;
}

/** One header's value, by name in any case. */
function header(raw: Raw, name: string): string | undefined {
  for (let index = 0; index < raw.rawHeaders.length; index += 2) {
    if (raw.rawHeaders[index]?.toLowerCase() === name.toLowerCase()) return raw.rawHeaders[index + 1];
  }
  return undefined;
}

/** The access-log line of a request id, without its time and duration. */
function logLine(requestId: string): Record<string, unknown> {
  const line = running.logLines.map((text) => JSON.parse(text) as Record<string, unknown>).find((record) => record.requestId === requestId && record.msg === 'request');
  if (line === undefined) throw new Error(`no access-log line for ${requestId}`);
  const { time: _time, durationMs, ...rest } = line;
  expect(typeof durationMs).toBe('number');
  return rest;
}

/** Both access-log lines of a request id (fast path, then Express), without time and duration. */
function logLines(requestId: string): Array<Record<string, unknown>> {
  return running.logLines
    .map((text) => JSON.parse(text) as Record<string, unknown>)
    .filter((record) => record.requestId === requestId && record.msg === 'request')
    .map(({ time: _time, durationMs: _durationMs, ...rest }) => rest);
}

let requestIds = 0;
const uniqueRequestId = () => `cheap-read-${String((requestIds += 1)).padStart(4, '0')}`;

const CONDITIONAL = { 'if-modified-since': 'Sat, 01 Jan 2000 00:00:00 GMT' };

describe('GET /api/badge/{token} before Express', () => {
  for (const [label, path] of [
    ['a fresh badge', async () => `/api/badge/${await badgeToken()}`],
    ['a fresh badge with a query string', async () => `/api/badge/${await badgeToken()}?style=flat`],
    ['an unknown token (404 SVG)', async () => `/api/badge/vb_${'A'.repeat(43)}`],
    ['a malformed token (404 SVG)', async () => '/api/badge/nonsense'],
  ] as const) {
    it(`answers ${label} exactly as the Express route does`, async () => {
      const url = await path();
      const fast = await get(url, { 'x-request-id': 'fast-path-0001' });
      const express = await get(url, { 'x-request-id': 'fast-path-0001', ...CONDITIONAL });
      expect(fast.status).toBe(express.status);
      expect(headerLines(fast)).toEqual(headerLines(express));
      expect(fast.body.equals(express.body)).toBe(true);
      expect(fast.body.toString('utf8').startsWith('<svg')).toBe(true);
    });
  }

  it('writes the same access-log line, and a new request id when the incoming one is not plain', async () => {
    const url = `/api/badge/${await badgeToken()}`;
    await get(url, { 'x-request-id': 'fast-path-log-1' });
    await get(url, { 'x-request-id': 'fast-path-log-2', ...CONDITIONAL });
    expect({ ...logLine('fast-path-log-1'), requestId: 'x' }).toEqual({ ...logLine('fast-path-log-2'), requestId: 'x' });
    const minted = await get(url, { 'x-request-id': 'no good' });
    const requestId = headerLines(minted).find((line) => line.startsWith('X-Request-Id: '))?.slice('X-Request-Id: '.length) ?? '';
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(logLine(requestId)).toMatchObject({ method: 'GET', path: url, status: 200 });
  });

  it('leaves HEAD, other paths and letter case to Express, which still answers them', async () => {
    const token = await badgeToken();
    const head = await get(`/api/badge/${token}`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect((await get(`/api/badge/${token}/`, {})).status).toBe(200);
    expect((await get(`/API/BADGE/${token}`, {})).status).toBe(200);
    expect((await get('/api/badge/%E0%A4%A', {})).status).toBe(404);
  });
});

describe('GET /api/badge/{token}: entity tags', () => {
  it('tags the badge with its bytes and answers a matching If-None-Match with 304, on both paths', async () => {
    const url = `/api/badge/${await badgeToken()}`;
    const first = await get(url, {});
    const etag = header(first, 'etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(header(first, 'cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(header(await get(url, {}), 'etag')).toBe(etag);
    for (const conditional of [{}, CONDITIONAL]) {
      for (const tag of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const revalidated = await get(url, { 'if-none-match': tag, 'x-request-id': 'badge-etag-0001', ...conditional });
        expect(revalidated.status).toBe(304);
        expect(revalidated.body.length).toBe(0);
        expect(header(revalidated, 'etag')).toBe(etag);
        expect(header(revalidated, 'cache-control')).toBe(header(first, 'cache-control'));
        expect(header(revalidated, 'content-type')).toBeUndefined();
      }
      const changed = await get(url, { 'if-none-match': '"not-this-one"', ...conditional });
      expect(changed.status).toBe(200);
      expect(changed.body.equals(first.body)).toBe(true);
    }
    const fast = await get(url, { 'if-none-match': etag, 'x-request-id': 'badge-304-fast' });
    const express = await get(url, { 'if-none-match': etag, 'x-request-id': 'badge-304-fast', ...CONDITIONAL });
    expect(headerLines(fast)).toEqual(headerLines(express));
  });

  it('keeps the 404 SVG of an unknown token a 404 whatever If-None-Match says', async () => {
    const url = `/api/badge/vb_${'B'.repeat(43)}`;
    const first = await get(url, {});
    expect(first.status).toBe(404);
    const again = await get(url, { 'if-none-match': header(first, 'etag') ?? '' });
    expect(again.status).toBe(404);
    expect(again.body.equals(first.body)).toBe(true);
  });
});

describe('GET /api/audit/{auditId}/fanout-map before Express', () => {
  /** X-RateLimit-Reset names the end of the minute: two requests a few ms apart may straddle it. */
  const withoutReset = (raw: Raw) => headerLines(raw).filter((line) => !line.startsWith('X-RateLimit-Reset: '));

  for (const [label, path] of [
    ['a stored map', async () => `/api/audit/${await auditWithMap()}/fanout-map`],
    ['a stored map, id in capitals', async () => `/api/audit/${(await auditWithMap()).toUpperCase()}/fanout-map`],
    ['an audit with no map yet', async () => `/api/audit/${await insertAudit()}/fanout-map`],
    ['an unknown audit (404 ApiError)', async () => `/api/audit/${randomUUID()}/fanout-map`],
  ] as const) {
    it(`answers ${label} exactly as the Express route does`, async () => {
      const url = await path();
      const requestId = uniqueRequestId();
      const fast = await get(url, { 'x-request-id': requestId, 'x-forwarded-for': freshCaller() });
      const express = await get(url, { 'x-request-id': requestId, 'x-forwarded-for': freshCaller(), ...CONDITIONAL });
      expect(fast.status).toBe(express.status);
      expect(withoutReset(fast)).toEqual(withoutReset(express));
      expect(fast.body.equals(express.body)).toBe(true);
      expect(logLines(requestId)).toEqual([{ ...logLine(requestId), path: url }, { ...logLine(requestId), path: url }]);
      expect(logLine(requestId)).toMatchObject({ method: 'GET', status: fast.status });
    });
  }

  it('answers the stored map with its tag, revalidates it to 304 (still a counted read), and shares one limit with Express', async () => {
    const auditId = await auditWithMap();
    const url = `/api/audit/${auditId}/fanout-map`;
    const caller = freshCaller();
    const first = await get(url, { 'x-forwarded-for': caller });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body.toString('utf8'))).toMatchObject({ ok: true, cached: true, map: { auditId, brand: '<b>Acme & Sons</b>' } });
    expect(header(first, 'cache-control')).toBe('public, no-cache');
    expect(header(first, 'content-type')).toBe('application/json; charset=utf-8');
    expect(header(first, 'x-ratelimit-remaining')).toBe('119');
    const etag = header(first, 'etag') ?? '';
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);

    const revalidated = await get(url, { 'x-forwarded-for': caller, 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(header(revalidated, 'etag')).toBe(etag);
    expect(header(revalidated, 'cache-control')).toBe('public, no-cache');
    expect(header(revalidated, 'x-ratelimit-remaining')).toBe('118');
    const throughExpress = await get(url, { 'x-forwarded-for': caller, 'if-none-match': etag, ...CONDITIONAL });
    expect(throughExpress.status).toBe(304);
    expect(header(throughExpress, 'x-ratelimit-remaining')).toBe('117');
    expect((await get(url, { 'x-forwarded-for': caller, 'if-none-match': '"stale"' })).status).toBe(200);
  });

  it('refuses a caller past its limit with the 429 ApiError on both paths, If-None-Match or not', async () => {
    const url = `/api/audit/${await auditWithMap()}/fanout-map`;
    const caller = freshCaller();
    let last: Raw | undefined;
    // 120 a minute; a minute boundary inside the loop gives at most 120 more.
    for (let call = 0; call < 241 && last?.status !== 429; call += 1) last = await get(url, { 'x-forwarded-for': caller });
    expect(last?.status).toBe(429);
    const etag = '*';
    const fast = await get(url, { 'x-forwarded-for': caller, 'if-none-match': etag, 'x-request-id': 'map-429-00001' });
    const express = await get(url, { 'x-forwarded-for': caller, 'if-none-match': etag, 'x-request-id': 'map-429-00001', ...CONDITIONAL });
    for (const refused of [fast, express]) {
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body.toString('utf8'))).toEqual({
        // The limit, its window, whom it counts and when it resets (the same words on every door).
        error: expect.stringMatching(/^You have reached the limit for reading buyer-question maps: \d+ per minute per caller\. It resets at \d{4}-\d\d-\d\dT[\d:.]+Z\.$/u),
        code: 'rate_limited',
        hint: expect.stringMatching(/^Wait \d+ seconds/),
        docs: 'http://visibility.test/developers',
      });
      expect(Number(header(refused, 'retry-after'))).toBeGreaterThan(0);
    }
    expect(headerLines(fast).map((line) => line.replace(/\d+/g, 'N'))).toEqual(headerLines(express).map((line) => line.replace(/\d+/g, 'N')));
    // Another caller is still served.
    expect((await get(url, { 'x-forwarded-for': freshCaller() })).status).toBe(200);
  });
});

describe('the 404 of an unknown API path before Express', () => {
  for (const path of ['/api/unknown', '/api/unknown/deeper?x=1', '/api/', "/api/it's-(not)-here"]) {
    it(`answers GET ${path} exactly as Express's 404 handler does`, async () => {
      const requestId = uniqueRequestId();
      const fast = await get(path, { 'x-request-id': requestId });
      const express = await get(path, { 'x-request-id': requestId, ...CONDITIONAL });
      expect(fast.status).toBe(404);
      expect(headerLines(fast)).toEqual(headerLines(express));
      expect(fast.body.equals(express.body)).toBe(true);
      expect(JSON.parse(fast.body.toString('utf8'))).toEqual({
        error: `There is no API endpoint at GET ${path.split('?')[0]}.`,
        code: 'endpoint_not_found',
        hint: 'Check the path and method against /openapi.json.',
        docs: 'http://visibility.test/developers',
      });
      const expected = { level: 'info', msg: 'request', requestId, method: 'GET', path: path.split('?')[0], status: 404 };
      expect(logLines(requestId)).toEqual([expected, expected]);
    });
  }

  it('never answers 404 for a path a route serves, in any letter case', async () => {
    expect((await get('/API/Account', {})).status).toBe(401);
    expect((await get('/api/account/audits', {})).status).toBe(401);
    expect((await get(`/Api/Badge/${await badgeToken()}`, {})).status).toBe(200);
  });

  it('knows the API routes from the app itself', async () => {
    const { apiRouteSegments } = await import('./cheap-reads.js');
    const express = (await import('express')).default;
    const app = express();
    const router = express.Router();
    router.get('/api/new-thing/:id', (_request, response) => response.end());
    app.use(router);
    app.post('/api/audit', (_request, response) => response.end());
    expect(apiRouteSegments(app)).toEqual(new Set(['new-thing', 'audit']));
    // A router mounted under a path cannot be read: no 404 fast path then.
    app.use('/api/v2', express.Router().get('/x', (_request, response) => response.end()));
    expect(apiRouteSegments(app)).toBeUndefined();
  });
});

describe('rememberTrust', () => {
  it('answers as the trust function does, asking it once per address and hop', async () => {
    const { rememberTrust } = await import('./cheap-reads.js');
    const asked: string[] = [];
    const trust = rememberTrust((address, hop) => {
      asked.push(`${hop} ${address}`);
      return address.startsWith('127.') && hop < 2;
    });
    expect([trust('127.0.0.1', 0), trust('127.0.0.1', 0), trust('127.0.0.1', 2), trust('10.0.0.1', 0), trust('10.0.0.1', 0)]).toEqual([true, true, false, false, false]);
    expect(asked).toEqual(['0 127.0.0.1', '2 127.0.0.1', '0 10.0.0.1']);
    // Many made-up addresses cannot grow it without bound, and it stays right after starting over.
    for (let index = 0; index < 3_000; index += 1) trust(`10.${index >> 8}.${index & 255}.1`, 1);
    expect(trust('127.0.0.1', 0)).toBe(true);
  });
});
