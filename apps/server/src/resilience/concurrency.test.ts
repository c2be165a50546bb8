// Concurrency (issue 8, part 3): 200 concurrent callers against the real service in the demo lineup, and
// every limit stays exact: check (6/hour is in quick-measurements.test.ts; here its 20/day), repeat (3/hour
// per IP and the shared daily cap), audit (6/hour per caller), map POST (6 per 10 minutes), the MCP domain
// quota (one measurement per domain), credits (k credits buy exactly k re-runs) and the monthly budget
// (exactly K priced calls fit, never more).

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startFixtureSite, type FixtureSite } from '../test-support/fixture-site.js';
import { postJson, startTestService, type TestService } from '../test-support/service.js';
import { expectBudgetMatchesCallLog, expectIntact, insertAuditWithQuestions, PROVIDERS, sleep } from './support.js';

const CALLERS = 200;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

type Reply = Awaited<ReturnType<typeof postJson>>;

const ipOf = (index: number): string => `10.${Math.floor(index / 250)}.${index % 250}.${1 + (index % 7)}`;
const statuses = (replies: readonly Reply[]): Record<number, number> =>
  replies.reduce<Record<number, number>>((counts, reply) => ({ ...counts, [reply.status]: (counts[reply.status] ?? 0) + 1 }), {});

function expectRefusals(replies: readonly Reply[], codes: readonly string[]): void {
  for (const reply of replies.filter((entry) => entry.status === 429)) {
    expect(codes).toContain(reply.body.code);
    expect(reply.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  }
}

/** Fixed windows: a burst that straddles a UTC hour would count in two windows. Wait out the last seconds of an hour. */
async function awayFromHourBoundary(marginMs = 20_000): Promise<void> {
  const left = HOUR_MS - (Date.now() % HOUR_MS);
  if (left < marginMs) await sleep(left + 500);
}

let site: FixtureSite;
const services: TestService[] = [];
beforeAll(async () => {
  // A one-page site: its audits write the fewest buyer questions, and the limits, not the crawl, are tested here.
  site = await startFixtureSite({ pages: { '/': { body: '<html lang="en"><head><title>Pipedrive</title></head><body><h1>Pipedrive</h1></body></html>' } } });
});
afterAll(async () => {
  await Promise.allSettled(services.map((service) => service.stop()));
  await site?.close();
});

async function serve(environment: Record<string, string> = {}): Promise<TestService> {
  const running = await startTestService({ CRAWL_HOST_MAP: `pipedrive.test=${site.origin},quota.pipedrive.test=${site.origin}`, TRUST_PROXY: 'loopback', ...environment });
  services.push(running);
  return running;
}

describe('rate limits under 200 concurrent callers', () => {
  let running: TestService;
  beforeAll(async () => {
    // More calls in flight per provider: the allowed requests finish sooner; the limits are what is tested.
    running = await serve({ REPEAT_DAILY_CAP: '30', PROVIDER_CONCURRENCY: '16' });
  });
  beforeEach(async () => awayFromHourBoundary());

  const post = (path: string, body: unknown, caller: string, headers: Record<string, string> = {}) =>
    postJson(`${running.url}${path}`, body, { headers: { 'X-Forwarded-For': caller, ...headers } });

  it('check: a caller with 17 of its 20 daily checks used gets exactly 3 of 200 through, and the refusals do not use its hourly allowance', async () => {
    const caller = '198.51.100.20';
    const now = Date.now();
    const day = { bucket: 'checkBrandRecognition:day', callerKey: `caller:${caller}`, windowStartMs: now - (now % DAY_MS), windowEndMs: now - (now % DAY_MS) + DAY_MS };
    for (let used = 0; used < 17; used += 1) running.service.store.rateLimitRepository.incrementAll([day]);
    const before = running.service.simulator?.requests().length ?? 0;
    const replies = await Promise.all(Array.from({ length: CALLERS }, () => post('/api/check', { brand: 'Pipedrive', category: 'CRM software' }, caller)));
    expect(statuses(replies)).toEqual({ 200: 3, 429: CALLERS - 3 });
    expectRefusals(replies, ['rate_limited']);
    // Refused by the daily limit, so the wait is until 00:00 UTC, not the end of the hour.
    const untilMidnight = Math.ceil((day.windowEndMs - Date.now()) / 1000);
    for (const reply of replies.filter((entry) => entry.status === 429)) expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(untilMidnight - 5);
    // Exactly three checks asked anything (three questions each).
    expect((running.service.simulator?.requests().length ?? 0) - before).toBe(3 * 3);
    expect(await running.service.store.rateLimitRepository.usedCounts([day])).toEqual([20]);
    const hour = { ...day, bucket: 'checkBrandRecognition:hour', windowStartMs: now - (now % HOUR_MS), windowEndMs: now - (now % HOUR_MS) + HOUR_MS };
    expect(await running.service.store.rateLimitRepository.usedCounts([hour])).toEqual([3]);
  });

  it('repeat: exactly 3 of 200 concurrent calls from one IP', async () => {
    const replies = await Promise.all(Array.from({ length: CALLERS }, () => post('/api/tools/repeat', { question: 'Best CRM for a startup?' }, '198.51.100.30')));
    expect(statuses(replies)).toEqual({ 200: 3, 429: CALLERS - 3 });
    expectRefusals(replies, ['rate_limited']);
    expect(replies.filter((reply) => reply.status === 200).map((reply) => reply.headers.get('x-ratelimit-remaining')).sort()).toEqual(['0', '1', '2']);
  });

  it('repeat: 200 calls from 50 IPs (4 each) fill the shared daily cap exactly, and no IP passes 3', async () => {
    // The previous test used 3 of the shared cap of 30.
    const left = 30 - 3;
    const callers = Array.from({ length: CALLERS }, (_unused, index) => ipOf(1000 + (index % 50)));
    const before = running.service.simulator?.requests().length ?? 0;
    const replies = await Promise.all(
      callers.map((caller, index) => post('/api/tools/repeat', { question: 'Best VPN for travel?', provider: PROVIDERS[index % 3] }, caller)),
    );
    expect(statuses(replies)).toEqual({ 200: left, 429: CALLERS - left });
    expectRefusals(replies, ['rate_limited', 'daily_cap']);
    const perCaller = new Map<string, number>();
    replies.forEach((reply, index) => {
      if (reply.status === 200) perCaller.set(callers[index] as string, (perCaller.get(callers[index] as string) ?? 0) + 1);
    });
    expect(Math.max(...perCaller.values())).toBeLessThanOrEqual(3);
    // Every answered call asked its 5 runs; no refused call asked anything.
    expect((running.service.simulator?.requests().length ?? 0) - before).toBe(left * 5);
    expect((await running.service.rateLimiter.peek('runRepeatedBuyerQuestion', '192.0.2.250'))).toMatchObject({ allowed: false, code: 'daily_cap' });
  });

  it('audit: exactly 6 of 200 concurrent audits from one caller run; the others crawl and ask nothing', async () => {
    const crawlsBefore = site.requests.length;
    const auditsBefore = (running.service.store.database.prepare('SELECT COUNT(*) AS n FROM audits').get() as { n: number }).n;
    const replies = await Promise.all(
      Array.from({ length: CALLERS }, () => post('/api/audit', { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' }, '198.51.100.40')),
    );
    expect(statuses(replies)).toEqual({ 200: 6, 429: CALLERS - 6 });
    expectRefusals(replies, ['rate_limited']);
    expect(replies.filter((reply) => reply.status === 200).map((reply) => reply.body.rateLimit.remaining).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect((running.service.store.database.prepare('SELECT COUNT(*) AS n FROM audits').get() as { n: number }).n).toBe(auditsBefore + 6);
    // Six crawls' worth of requests at most: a refused audit never reached the site.
    const homepages = site.requests.slice(crawlsBefore).filter((line) => line.endsWith(' /'));
    expect(homepages.length).toBeLessThanOrEqual(6 * 2);
  });

  it('map POST: exactly 6 of 200 concurrent POSTs from one caller, one job, every cell asked once', async () => {
    const created = await post('/api/audit', { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' }, '198.51.100.50');
    expect(created.status).toBe(200);
    const questions = created.body.productFanout.questions as string[];
    const since = Date.now();
    const replies = await Promise.all(Array.from({ length: CALLERS }, () => post(`/api/audit/${created.body.id}/fanout-map`, undefined, '198.51.100.51')));
    expect(statuses(replies)).toEqual({ 200: 6, 429: CALLERS - 6 });
    expectRefusals(replies, ['rate_limited']);
    for (const reply of replies.filter((entry) => entry.status === 200)) expect(reply.body.map.generation).toBe(1);
    const asked = (running.service.simulator?.requests() ?? [])
      .filter((request) => request.receivedAt >= since && questions.includes(request.prompt))
      .map((request) => `${request.provider}|${request.prompt}`);
    expect(asked).toHaveLength(questions.length * PROVIDERS.length);
    expect(new Set(asked).size).toBe(asked.length);
    expect(running.service.store.mapRepository.latestGeneration(created.body.id)).toBe(1);
    expectIntact(running.service.store);
  });
});

describe('the MCP domain quota under 200 concurrent starts', () => {
  const PROTOCOL = '2025-06-18';
  const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  /** A raw MCP session opened by one caller (X-Forwarded-For); resolves to a tools/call function. */
  async function openSession(mcpUrl: string, caller: string): Promise<(name: string, args: Record<string, unknown>) => Promise<any>> {
    const headers = { ...HEADERS, 'x-forwarded-for': caller };
    const init = await fetch(mcpUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'quota', version: '1' } } }),
    });
    await init.text();
    const sessionId = init.headers.get('mcp-session-id');
    if (sessionId === null) throw new Error(`initialize answered ${init.status} without a session`);
    const session = { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL };
    await (await fetch(mcpUrl, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
    return async (name, args) => {
      const reply = await fetch(mcpUrl, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } }) });
      const text = await reply.text();
      const messages = (reply.headers.get('content-type') ?? '').includes('text/event-stream')
        ? text.split('\n').filter((line) => line.startsWith('data: ') && line.length > 6).map((line) => JSON.parse(line.slice(6)))
        : [JSON.parse(text)];
      const answer = messages.find((message: { id?: number }) => message.id === 2);
      if (answer?.result === undefined) throw new Error(`tools/call answered ${reply.status}: ${text}`);
      return answer.result;
    };
  }

  it('starts exactly one measurement; every other start gets that run back, and only its caller spent a slot', async () => {
    const running = await serve();
    const mcpUrl = `${running.url}/mcp`;
    // 40 callers, each with its own session, each sending 5 starts at once: 200 concurrent starts.
    const callers = Array.from({ length: 40 }, (_unused, index) => ipOf(2000 + index));
    const sessions = await Promise.all(callers.map((caller) => openSession(mcpUrl, caller)));
    const spellings = ['quota.pipedrive.test', 'https://quota.pipedrive.test/', 'QUOTA.pipedrive.test', 'https://quota.pipedrive.test/pricing'];
    const results = await Promise.all(
      Array.from({ length: CALLERS }, (_unused, index) =>
        (sessions[index % sessions.length] as (name: string, args: Record<string, unknown>) => Promise<any>)('start_visibility_check', {
          brand: 'Pipedrive',
          website: spellings[index % spellings.length],
          category: 'CRM software',
        }),
      ),
    );
    for (const result of results) expect(result.isError, JSON.stringify(result)).not.toBe(true);
    const starts = results.map((result) => result.structuredContent as { runId: string; reused: boolean });
    expect(new Set(starts.map((start) => start.runId)).size).toBe(1);
    expect(starts.filter((start) => !start.reused)).toHaveLength(1);
    const runId = starts[0]?.runId as string;
    const rows = running.service.store.database.prepare("SELECT id FROM mcp_runs WHERE domain = 'quota.pipedrive.test'").all() as Array<{ id: string }>;
    expect(rows).toEqual([{ id: runId }]);
    // The one start that created the run took its caller's startVisibilityAudit slot; no other start spent one.
    const creator = callers[starts.findIndex((start) => !start.reused) % callers.length] as string;
    for (const caller of callers.filter((other) => other !== creator)) {
      expect((await running.service.rateLimiter.peek('startVisibilityAudit', caller))).toMatchObject({ allowed: true, remaining: 6 });
    }
    expect((await running.service.rateLimiter.peek('startVisibilityAudit', creator))).toMatchObject({ allowed: true, remaining: 5 });
  });
});

describe('credits under 200 concurrent re-runs', () => {
  const SESSION_SECRET = 'resilience-concurrency-secret-0123456789';
  const OWNER = 'owner@credits.pipedrive.test';

  it('k credits pay for exactly k re-runs across 8 maps, whatever 200 callers ask; the balance never goes below 0', async () => {
    const running = await serve({ SESSION_SECRET });
    const { accountRepository, mapRepository } = running.service.store;
    // Eight audits of the owner with two buyer questions each (stored directly: their crawl is not what is tested).
    const audits = await Promise.all(Array.from({ length: 8 }, (_unused, index) =>
      insertAuditWithQuestions(running.service.store, [`Which CRM is best for team ${index}?`, `Best CRM for a ${index}-person agency?`], OWNER),
    ));
    let caller = 0;
    const postMap = (auditId: string, body: unknown, cookie?: string) =>
      postJson(`${running.url}/api/audit/${auditId}/fanout-map`, body, {
        headers: { 'X-Forwarded-For': ipOf(3000 + (caller += 1)), ...(cookie === undefined ? {} : { cookie }) },
      });
    for (const auditId of audits) expect((await postMap(auditId, {})).body.map.generation).toBe(1);

    const credits = 3;
    await accountRepository.grantCredits(OWNER, credits);
    const cookie = `${SESSION_COOKIE}=${createSessionToken(OWNER, SESSION_SECRET)}`;
    running.service.simulator?.setLatency(40);
    let replies: Reply[];
    try {
      replies = await Promise.all(Array.from({ length: CALLERS }, (_unused, index) => postMap(audits[index % audits.length] as string, { rerun: true }, cookie)));
    } finally {
      running.service.simulator?.setLatency(0);
    }
    const counts = statuses(replies);
    expect(Object.keys(counts).sort()).toEqual(['200', '402']);
    for (const reply of replies.filter((entry) => entry.status === 402)) expect(reply.body.code).toBe('no_credits');
    expect((await accountRepository.getAccount(OWNER))?.credits).toBe(0);
    // Exactly `credits` new generations, each paid by the owner, across all eight maps.
    const paid = running.service.store.database.prepare('SELECT COUNT(*) AS n FROM buyer_question_map_jobs WHERE charged_email = ?').get(OWNER) as { n: number };
    expect(paid.n).toBe(credits);
    expect(audits.reduce((sum, auditId) => sum + mapRepository.latestGeneration(auditId) - 1, 0)).toBe(credits);
    expect(replies.filter((reply) => reply.status === 200).every((reply) => reply.body.map.generation >= 2)).toBe(true);
    expectIntact(running.service.store);
  });
});

describe('the monthly budget under 200 concurrent calls', () => {
  // Each priced call costs exactly 1 micro-dollar, estimate and settlement alike, so a cap of K micro-dollars fits exactly K calls
  // (no part of it kept for degraded audits, which these operations may not spend).
  const K = 37;
  const NO_RESERVE = { DEGRADED_AUDIT_RESERVE_PERCENT: '0' };
  const PRICES = { 'demo-': { input: 0.000001, output: 0 } };

  it('repeats: exactly K runs are answered and paid, never more, then 503 budget', async () => {
    const running = await serve({ MONTHLY_BUDGET_USD: String(K / 1_000_000), MODEL_PRICES: JSON.stringify(PRICES), REPEAT_DAILY_CAP: '1000', ...NO_RESERVE });
    const replies = await Promise.all(
      Array.from({ length: CALLERS }, (_unused, index) =>
        postJson(`${running.url}/api/tools/repeat`, { question: 'Best project management tool?', provider: PROVIDERS[index % 3] }, { headers: { 'X-Forwarded-For': ipOf(4000 + index) } }),
      ),
    );
    const counts = statuses(replies);
    expect(Object.keys(counts).every((status) => status === '200' || status === '503')).toBe(true);
    for (const reply of replies.filter((entry) => entry.status === 503)) expect(reply.body.code).toBe('budget');
    const answeredRuns = replies.filter((reply) => reply.status === 200).reduce((sum, reply) => sum + (reply.body.metrics.okRuns as number), 0);
    expect(answeredRuns).toBe(K);
    // The providers were asked exactly K times: nothing beyond the cap ever left the service.
    expect(running.service.simulator?.requests()).toHaveLength(K);
    const budget = (await running.service.budget.status());
    expect(budget).toMatchObject({ spentMicroUsd: K, reservedMicroUsd: 0, exhausted: true });
    expect(expectBudgetMatchesCallLog(running.service.store, PRICES)).toMatchObject({ spent: K, reserved: 0 });
    const after = await postJson(`${running.url}/api/tools/repeat`, { question: 'Best CRM?' }, { headers: { 'X-Forwarded-For': ipOf(4999) } });
    expect(after.status).toBe(503);
    expect(after.body.code).toBe('budget');
  });

  it('repeats and checks together: never overspent, and every answer the providers gave is paid once', async () => {
    const running = await serve({ MONTHLY_BUDGET_USD: String(K / 1_000_000), MODEL_PRICES: JSON.stringify(PRICES), REPEAT_DAILY_CAP: '1000', ...NO_RESERVE });
    const replies = await Promise.all(
      Array.from({ length: CALLERS }, (_unused, index) =>
        index % 2 === 0
          ? postJson(`${running.url}/api/tools/repeat`, { question: 'Best note-taking app?' }, { headers: { 'X-Forwarded-For': ipOf(5000 + index) } })
          : postJson(`${running.url}/api/check`, { brand: 'Notion', category: 'note-taking apps' }, { headers: { 'X-Forwarded-For': ipOf(5000 + index) } }),
      ),
    );
    expect(Object.keys(statuses(replies)).every((status) => status === '200' || status === '503')).toBe(true);
    const budget = (await running.service.budget.status());
    expect(budget.spentMicroUsd).toBeLessThanOrEqual(K);
    expect(budget.reservedMicroUsd).toBe(0);
    const { spent } = expectBudgetMatchesCallLog(running.service.store, PRICES);
    // Every answer the simulator sent back was settled: no answered call escaped the books.
    const answered = (running.service.simulator?.requests() ?? []).filter((request) => request.status === 200).length;
    expect(answered).toBe(spent);
  });
});
