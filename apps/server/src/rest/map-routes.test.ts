import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FanoutMapResponseSchema, type BuyerQuestionMap } from '@visibility/core';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from '../test-support/fixture-site.js';
import { postJson, startTestService, type TestService } from '../test-support/service.js';

const SESSION_SECRET = 'map-routes-test-secret-0123456789abcdef';
const OWNER = 'owner@pipedrive.test';
const API_ERROR = { error: expect.any(String), code: expect.any(String), hint: expect.any(String), docs: 'http://visibility.test/developers' };
const PROVIDERS = ['anthropic', 'gemini', 'openai'];
const DAY_SECONDS = 24 * 3600;

interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

let site: FixtureSite;
let running: TestService;
// Every test takes its own callers, so the per-caller limits of one never refuse another.
let callers = 0;
const nextCaller = (): string => `203.0.113.${(callers += 1)}`;

beforeAll(async () => {
  site = await startFixtureSite(SAAS_SITE);
  running = await startTestService({ CRAWL_HOST_MAP: `pipedrive.test=${site.origin}`, TRUST_PROXY: 'loopback', SESSION_SECRET });
});
afterAll(async () => {
  await running?.stop();
  await site?.close();
});

const cookieFor = (email: string, secret = SESSION_SECRET, now = new Date()): string => `${SESSION_COOKIE}=${createSessionToken(email, secret, now)}`;

/** Creates an audit through POST /api/audit on the fixture site; returns its id and buyer questions. */
async function createAudit(email?: string): Promise<{ id: string; questions: string[] }> {
  const result = await postJson(
    `${running.url}/api/audit`,
    { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software', competitors: 'HubSpot', ...(email === undefined ? {} : { email }) },
    { headers: { 'X-Forwarded-For': `198.51.100.${(callers += 1)}` } },
  );
  expect(result.status).toBe(200);
  const questions = result.body.productFanout?.questions as string[];
  expect(questions.length).toBeGreaterThanOrEqual(6);
  return { id: result.body.id as string, questions };
}

async function send(method: 'GET' | 'POST', auditId: string, options: { body?: unknown; raw?: string; caller?: string; cookie?: string } = {}): Promise<Reply> {
  const headers: Record<string, string> = { 'X-Forwarded-For': options.caller ?? nextCaller() };
  if (options.cookie !== undefined) headers['cookie'] = options.cookie;
  const hasBody = options.body !== undefined || options.raw !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  const response = await fetch(`${running.url}/api/audit/${encodeURIComponent(auditId)}/fanout-map`, {
    method,
    headers,
    ...(hasBody ? { body: options.raw ?? JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) };
}

const postMap = (auditId: string, options: Parameters<typeof send>[2] = {}) => send('POST', auditId, options);
const getMap = (auditId: string, options: Parameters<typeof send>[2] = {}) => send('GET', auditId, options);

/** The simulator requests since a moment that asked one of these questions: the map's calls (audits finish before). */
function mapRequests(questions: readonly string[], since: number) {
  return (running.service.simulator?.requests() ?? []).filter((request) => request.receivedAt >= since && questions.includes(request.prompt));
}

/** Every (provider, question) asked exactly once. */
function expectEachCellAskedOnce(questions: readonly string[], since: number): void {
  const asked = mapRequests(questions, since).map((request) => `${request.provider}|${request.prompt}`);
  expect(asked).toHaveLength(questions.length * PROVIDERS.length);
  expect(new Set(asked).size).toBe(asked.length);
}

function expectFullMap(map: BuyerQuestionMap, auditId: string, questions: readonly string[]): void {
  expect(map).toMatchObject({ auditId, mode: 'demo', brand: 'Pipedrive', website: 'https://pipedrive.test/', questions });
  expect(map.providers.map((column) => column.provider).sort()).toEqual(PROVIDERS);
  expect(map.rows).toHaveLength(questions.length);
  for (const row of map.rows) {
    expect(row.cells).toHaveLength(PROVIDERS.length);
    for (const cell of row.cells) {
      expect(cell.ok).toBe(true);
      expect(cell.model).toMatch(/^demo-/);
      expect(typeof cell.answer).toBe('string');
      expect(cell.brands.length).toBeGreaterThan(0);
      expect(cell.namedInstead).toEqual(cell.named ? [] : cell.competitors);
    }
  }
  expect(map.summary.cells).toBe(questions.length * PROVIDERS.length);
  expect(map.summary.questionsWon).toBe(map.rows.filter((row) => row.won).length);
  expect(Date.parse(map.measuredAt)).not.toBeNaN();
}

describe('buyer-question map: no map yet', () => {
  let audit: { id: string; questions: string[] };
  let since: number;
  beforeAll(async () => {
    audit = await createAudit();
    since = Date.now();
  });

  it('GET: no map yet answers without a map, status not_started, and asks no provider', async () => {
    const result = await getMap(audit.id);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ ok: true, cached: false, status: 'not_started' });
    expect(mapRequests(audit.questions, since)).toHaveLength(0);
  });

  it('POST: asks every question to every configured provider once, stores the grid, free, rerun ignored', async () => {
    // rerun: true without any session: ignored, because this first run is the free one.
    const result = await postMap(audit.id, { body: { rerun: true } });
    expect(result.status).toBe(200);
    expect(FanoutMapResponseSchema.safeParse(result.body).success).toBe(true);
    expect(result.body).toMatchObject({ ok: true, cached: false });
    expect(result.body).not.toHaveProperty('status');
    expectFullMap(result.body.map, audit.id, audit.questions);
    expect(result.body.map.generation).toBe(1);
    expectEachCellAskedOnce(audit.questions, since);
    expect(result.headers.get('x-ratelimit-remaining')).toBe('5');
    expect(running.service.store.mapRepository.countCells(audit.id, 1)).toBe(audit.questions.length * PROVIDERS.length);
  });

  it('POST: an audit that produced no buyer questions answers 409 no_fanout and asks nothing', async () => {
    const id = randomUUID();
    await running.service.store.auditRepository.insertAudit({
      id,
      createdAt: new Date().toISOString(),
      brand: 'Pipedrive',
      brandKey: 'pipedrive',
      website: 'https://pipedrive.test/',
      category: 'Pipedrive',
      categoryKey: 'pipedrive',
      email: undefined,
      mode: 'demo',
      measured: false,
      score: null,
      response: { id, productFanout: null, fanoutMissingReason: 'Once the brand is taken out, the category says nothing.' },
    });
    const before = running.service.simulator?.requests().length;
    const result = await postMap(id);
    expect(result.status).toBe(409);
    expect(result.body).toEqual({ ...API_ERROR, code: 'no_fanout' });
    expect(result.body.error).toContain('the category says nothing');
    expect(running.service.simulator?.requests().length).toBe(before);
    expect((await getMap(id)).body).toEqual({ ok: true, cached: false, status: 'no_fanout' });
  });

  it('POST: concurrent POSTs start one job: exactly questions × providers calls', async () => {
    const fresh = await createAudit();
    const start = Date.now();
    const results = await Promise.all(Array.from({ length: 6 }, () => postMap(fresh.id)));
    for (const result of results) {
      expect(result.status).toBe(200);
      expect(result.body.map.generation).toBe(1);
    }
    expectEachCellAskedOnce(fresh.questions, start);
    expect(running.service.store.mapRepository.latestGeneration(fresh.id)).toBe(1);
  });

  it('GET while the map is running has no map, only the running status with progress', async () => {
    const fresh = await createAudit();
    running.service.simulator?.setLatency(150);
    try {
      const posted = postMap(fresh.id);
      let reading: Reply | undefined;
      for (let attempt = 0; attempt < 200; attempt += 1) {
        reading = await getMap(fresh.id);
        if (reading.body.status === 'running') break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(reading?.status).toBe(200);
      expect(reading?.body).toMatchObject({ ok: true, cached: false, status: 'running', generation: 1, progress: { total: fresh.questions.length * 3 } });
      expect(reading?.body).not.toHaveProperty('map');
      const done = await posted;
      expect(done.body.map.summary.cells).toBe(fresh.questions.length * 3);
    } finally {
      running.service.simulator?.setLatency(0);
    }
  });
});

describe('buyer-question map: map stored', () => {
  let audit: { id: string; questions: string[] };
  let stored: BuyerQuestionMap;
  beforeAll(async () => {
    audit = await createAudit(OWNER);
    const first = await postMap(audit.id);
    expect(first.status).toBe(200);
    stored = first.body.map;
  });

  it.each([
    ['no body', {}],
    ['rerun false', { body: { rerun: false } }],
    ['an empty object', { body: {} }],
  ])('POST with %s returns the stored map with cached: true and asks no provider', async (_name, options) => {
    const before = running.service.simulator?.requests().length;
    const result = await postMap(audit.id, options);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ ok: true, cached: true, map: stored });
    expect(running.service.simulator?.requests().length).toBe(before);
  });

  it('GET returns the stored map, and never calls a provider', async () => {
    const before = running.service.simulator?.requests().length;
    const result = await getMap(audit.id);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ ok: true, cached: true, map: stored });
    // Caches may keep it but must revalidate (ETag, 304: http/cheap-reads.test.ts).
    expect(result.headers.get('cache-control')).toBe('public, no-cache');
    expect(result.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(running.service.simulator?.requests().length).toBe(before);
  });

  it.each([
    ['no cookie', () => undefined],
    ['a forged cookie (signed with another secret)', () => cookieFor(OWNER, 'not-the-service-secret-0123456789abcdef')],
    ['a tampered cookie (payload changed, signature kept)', () => {
      const [payload = '', signature = ''] = createSessionToken('someone@else.test', SESSION_SECRET).split('.');
      const owner = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), email: OWNER })).toString('base64url');
      return `${SESSION_COOKIE}=${owner}.${signature}`;
    }],
    ['an expired cookie', () => `${SESSION_COOKIE}=${createSessionToken(OWNER, SESSION_SECRET, new Date(Date.now() - 2 * DAY_SECONDS * 1000), DAY_SECONDS)}`],
    ["another user's valid cookie", () => cookieFor('someone@else.test')],
    ['a malformed cookie', () => `${SESSION_COOKIE}=garbage`],
  ])('POST rerun with %s answers 401 unauthorized and spends nothing', async (_name, cookie) => {
    await running.service.store.accountRepository.grantCredits(OWNER, 1);
    await running.service.store.accountRepository.grantCredits('someone@else.test', 1);
    const credits = (await running.service.store.accountRepository.getAccount(OWNER))?.credits;
    const before = running.service.simulator?.requests().length;
    const value = cookie();
    const result = await postMap(audit.id, { body: { rerun: true }, ...(value === undefined ? {} : { cookie: value }) });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ ...API_ERROR, code: 'unauthorized' });
    expect((await running.service.store.accountRepository.getAccount(OWNER))?.credits).toBe(credits);
    expect(running.service.simulator?.requests().length).toBe(before);
    expect(running.service.store.mapRepository.runningJob(audit.id)).toBeUndefined();
  });

  it('POST rerun by the signed-in owner re-measures every cell and costs one credit', async () => {
    const accounts = running.service.store.accountRepository;
    await accounts.grantCredits(OWNER, 1);
    const credits = (await accounts.getAccount(OWNER))?.credits ?? 0;
    const previous = running.service.store.mapRepository.latestGeneration(audit.id);
    const since = Date.now();
    // The owner is matched case-insensitively.
    const result = await postMap(audit.id, { body: { rerun: true }, cookie: cookieFor('Owner@Pipedrive.TEST') });
    expect(result.status).toBe(200);
    expect(result.body.cached).toBe(false);
    expectFullMap(result.body.map, audit.id, audit.questions);
    expect(result.body.map.generation).toBe(previous + 1);
    expectEachCellAskedOnce(audit.questions, since);
    expect((await accounts.getAccount(OWNER))?.credits).toBe(credits - 1);
    stored = result.body.map;
    expect((await getMap(audit.id)).body).toEqual({ ok: true, cached: true, map: stored });
  });

  it('POST rerun spends exactly one credit under 5 concurrent re-runs', async () => {
    const accounts = running.service.store.accountRepository;
    // Drain whatever earlier tests left, then grant exactly one.
    while (await accounts.spendCredit(OWNER));
    await accounts.grantCredits(OWNER, 1);
    const previous = running.service.store.mapRepository.latestGeneration(audit.id);
    running.service.simulator?.setLatency(100);
    try {
      const cookie = cookieFor(OWNER);
      const results = await Promise.all(Array.from({ length: 5 }, () => postMap(audit.id, { body: { rerun: true }, cookie })));
      // Those that arrive while the re-run is measuring join it; any after it finished find no credit.
      for (const result of results) expect([200, 402]).toContain(result.status);
      expect(results.filter((result) => result.status === 200).every((result) => result.body.map.generation === previous + 1)).toBe(true);
      expect((await accounts.getAccount(OWNER))?.credits).toBe(0);
      expect(running.service.store.mapRepository.latestGeneration(audit.id)).toBe(previous + 1);
      expect(running.service.store.mapRepository.job(audit.id, previous + 1)?.chargedEmail).toBe(OWNER);
    } finally {
      running.service.simulator?.setLatency(0);
    }
  });

  it('POST rerun by the owner with no credit left answers 402 no_credits and asks nothing', async () => {
    const accounts = running.service.store.accountRepository;
    while (await accounts.spendCredit(OWNER));
    const before = running.service.simulator?.requests().length;
    const caller = nextCaller();
    const result = await postMap(audit.id, { body: { rerun: true }, cookie: cookieFor(OWNER), caller });
    expect(result.status).toBe(402);
    expect(result.body).toEqual({ ...API_ERROR, code: 'no_credits' });
    expect(running.service.simulator?.requests().length).toBe(before);
    // Refused before the rate-limit slot: the caller still has all six.
    expect((await postMap(audit.id, { caller })).headers.get('x-ratelimit-remaining')).toBe('5');
  });

  it('POST answers 429 rate_limited with Retry-After after 6 calls in 10 minutes per caller', async () => {
    const caller = nextCaller();
    for (let call = 0; call < 6; call += 1) {
      const result = await postMap(audit.id, { caller });
      expect(result.status).toBe(200);
      expect(result.headers.get('x-ratelimit-remaining')).toBe(String(5 - call));
    }
    const refused = await postMap(audit.id, { caller });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ ...API_ERROR, code: 'rate_limited' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    // Another caller is not refused.
    expect((await postMap(audit.id)).status).toBe(200);
  });

  it('GET answers 429 rate_limited with Retry-After past its per-caller limit', async () => {
    const caller = nextCaller();
    let refused: Reply | undefined;
    for (let call = 0; call < 200 && refused === undefined; call += 1) {
      const result = await getMap(audit.id, { caller });
      if (result.status === 429) refused = result;
      else expect(result.status).toBe(200);
    }
    expect(refused?.body).toEqual({ ...API_ERROR, code: 'rate_limited' });
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('buyer-question map: errors', () => {
  it.each([
    ['an unknown audit id', randomUUID()],
    ['an id that is not a UUID', 'not-a-uuid'],
    ['an id with SQL in it', "1' OR '1'='1"],
  ])('POST and GET answer 404 audit_not_found for %s', async (_name, auditId) => {
    const before = running.service.simulator?.requests().length;
    for (const result of [await postMap(auditId), await getMap(auditId)]) {
      expect(result.status).toBe(404);
      expect(result.body).toEqual({ ...API_ERROR, code: 'audit_not_found' });
    }
    expect(running.service.simulator?.requests().length).toBe(before);
  });

  it.each([
    ['broken JSON', { raw: '{"rerun":' }],
    ['rerun that is not a boolean', { body: { rerun: 'yes' } }],
    ['an array', { body: [true] }],
    ['a bare string', { body: 'rerun' }],
  ])('POST with %s answers 400 invalid_body, taking no slot', async (_name, options) => {
    const caller = nextCaller();
    const result = await postMap(randomUUID(), { ...options, caller });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ ...API_ERROR, code: 'invalid_body' });
    expect(result.headers.get('x-ratelimit-remaining')).toBeNull();
  });
});

describe('buyer-question map: graceful shutdown', () => {
  it('answers a held POST with the running state on close, keeps finished cells, and completes after a restart with no call asked twice', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'visibility-map-stop-'));
    const environment = { CRAWL_HOST_MAP: `pipedrive.test=${site.origin}`, SESSION_SECRET, PROVIDER_CONCURRENCY: '1' };
    let first: TestService | undefined;
    let second: TestService | undefined;
    try {
      first = await startTestService(environment, dataDir);
      const audit = await postJson(`${first.url}/api/audit`, { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' });
      const auditId = audit.body.id as string;
      const questions = audit.body.productFanout.questions as string[];
      const since = Date.now();
      first.service.simulator?.setLatency(150);
      const held = fetch(`${first.url}/api/audit/${auditId}/fanout-map`, { method: 'POST' }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
      const mapRepository = first.service.store.mapRepository;
      const deadline = Date.now() + 10_000;
      while (mapRepository.countCells(auditId, 1) < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      const firstRequests = () => (first?.service.simulator?.requests() ?? []).filter((request) => request.receivedAt >= since && questions.includes(request.prompt));
      const closing = first.service.close(5_000);
      const answer = await held;
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ ok: true, cached: false, status: 'running', generation: 1 });
      expect(answer.body).not.toHaveProperty('map');
      await closing;
      // Read after the stop: calls sent in its last moments have reached the simulator by now.
      const askedBeforeStop = firstRequests();
      const total = questions.length * PROVIDERS.length;
      first = undefined;

      second = await startTestService(environment, dataDir);
      // Every call that reached the provider before the stop finished and was stored.
      const storedAtRestart = second.service.store.mapRepository.countCells(auditId, 1);
      expect(storedAtRestart).toBe(askedBeforeStop.length);
      expect(storedAtRestart).toBeGreaterThan(0);
      expect(storedAtRestart).toBeLessThan(total);
      const done = second.service.store.mapRepository;
      const until = Date.now() + 10_000;
      while (done.latestCompleteJob(auditId) === undefined && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      const resumed = (second.service.simulator?.requests() ?? []).filter((request) => questions.includes(request.prompt));
      expect(resumed).toHaveLength(total - storedAtRestart);
      const asked = [...askedBeforeStop, ...resumed].map((request) => `${request.provider}|${request.prompt}`);
      expect(new Set(asked).size).toBe(total);
      const result = await fetch(`${second.url}/api/audit/${auditId}/fanout-map`);
      const body = (await result.json()) as { cached: boolean; map: BuyerQuestionMap };
      expect(body.cached).toBe(true);
      expect(body.map.summary).toMatchObject({ cells: total, answeredCells: total });
    } finally {
      await first?.service.close(1_000);
      await second?.service.close(1_000);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
