// Faults (issue 8, part 2): provider storms (429, 5xx, hangs) during an audit, a buyer-question map and an
// MCP run, one provider down throughout, and the store refusing writes. Every scenario must end in a
// clear state: a provider that failed is "not measured" (never "not mentioned"), a map cell that failed is
// a failed cell with its reason, an MCP run says which providers failed, and a refused write leaves
// nothing half-stored.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuditResponseSchema, type BuyerQuestionMap } from '@visibility/core';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from '../test-support/fixture-site.js';
import { postJson, startTestService, type TestService } from '../test-support/service.js';
import { callTool, connectMcp, expectIntact, insertAuditWithQuestions, PROVIDERS, providerStorm, transientStorm, waitForRun } from './support.js';

const API_ERROR = { error: expect.any(String), code: expect.any(String), hint: expect.any(String), docs: 'http://visibility.test/developers' };
const FAILURE_KINDS = ['rate_limited', 'overloaded', 'unavailable', 'timeout'];
// Hosts the crawler reaches on the fixture site; each is its own MCP quota domain.
const HOSTS = ['pipedrive.test', 'storm.pipedrive.test', 'down.pipedrive.test', 'store.pipedrive.test', 'cells.pipedrive.test'];

let site: FixtureSite;
let running: TestService;
let callers = 0;
const nextCaller = (): string => `203.0.113.${(callers += 1)}`;
const clients: Client[] = [];

beforeAll(async () => {
  site = await startFixtureSite(SAAS_SITE);
  running = await startTestService({
    CRAWL_HOST_MAP: HOSTS.map((host) => `${host}=${site.origin}`).join(','),
    TRUST_PROXY: 'loopback',
    // One retry; a hang ends after two seconds (far above an answer's time even on a busy machine, where a
    // tighter deadline would turn slow answers into timeouts and retries). Keeps storms short.
    PROVIDER_MAX_RETRIES: '1',
    PROVIDER_TIMEOUT_MS: '2000',
    // Waits (backoff, hangs) overlap instead of queueing behind four slots.
    PROVIDER_CONCURRENCY: '8',
  });
});
afterEach(() => {
  running.service.simulator?.clearFaults();
});
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await running?.stop();
  await site?.close();
});

const simulator = () => {
  const value = running.service.simulator;
  if (value === undefined) throw new Error('the demo lineup has no simulator');
  return value;
};

const audit = (body: Record<string, unknown>, caller = nextCaller()) =>
  postJson(`${running.url}/api/audit`, { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software', ...body }, { headers: { 'X-Forwarded-For': caller } });

function providerCalls(since: string): Array<{ provider: string; outcome: string; failure_kind: string | null; purpose: string }> {
  return running.service.store.database
    .prepare('SELECT provider, outcome, failure_kind, purpose FROM provider_calls WHERE created_at >= ? ORDER BY id')
    .all(since) as Array<{ provider: string; outcome: string; failure_kind: string | null; purpose: string }>;
}

/** A stored audit with its own buyer questions, so what the simulator is asked for them is this test's alone. */
let maps = 0;
async function mapAudit(count = 4): Promise<{ auditId: string; questions: string[] }> {
  maps += 1;
  const questions = Array.from({ length: count }, (_unused, index) => `Which CRM would you pick for sales team ${maps}-${index}?`);
  return { auditId: await insertAuditWithQuestions(running.service.store, questions), questions };
}

const postMap = (auditId: string) =>
  postJson(`${running.url}/api/audit/${auditId}/fanout-map`, undefined, { raw: '', headers: { 'X-Forwarded-For': nextCaller() } });

function askedSince(questions: readonly string[], since: number): string[] {
  return simulator()
    .requests()
    .filter((request) => request.receivedAt >= since && questions.includes(request.prompt))
    .map((request) => `${request.provider}|${request.prompt}`);
}

const countAudits = (): number => (running.service.store.database.prepare('SELECT COUNT(*) AS n FROM audits').get() as { n: number }).n;

describe('provider storms during an audit', () => {
  it('reports a provider down throughout (429, 5xx, hangs) as not measured with its reason; the others absorb a burst', async () => {
    const since = new Date().toISOString();
    const before = simulator().requests().length;
    simulator().injectFaults([...providerStorm('gemini', 40, 2), ...transientStorm('openai', 2)]);
    const result = await audit({});
    expect(result.status).toBe(200);
    AuditResponseSchema.parse(result.body);
    // Fields beyond the spec's contract (samples, measured, …) are read from the body as sent.
    const body = result.body;
    const samples = (body.audit.questions as number) * (body.audit.samplesPerQuestion as number);

    // gemini: not measured, with why. Never a finding, so never a 0% "not mentioned".
    expect(body.providerFindings.map((finding: { provider: string }) => finding.provider).sort()).toEqual(['anthropic', 'openai']);
    expect(body.providerErrors).toHaveLength(1);
    const failure = body.providerErrors[0] as { provider: string; reason: string; kind: string; failedSamples: number };
    expect(failure).toMatchObject({ provider: 'gemini', failedSamples: samples });
    expect(FAILURE_KINDS).toContain(failure.kind);
    expect(failure.reason.length).toBeGreaterThan(10);
    expect(body.audit.providersAsked).toContain('gemini');
    expect(body.audit.providersAnswered).not.toContain('gemini');
    expect(body.audit.measured).toBe(true);
    expect(JSON.stringify(body.providerFindings)).not.toContain('gemini');

    // The answers counted are exactly the answers received: failed samples never count as "not named".
    for (const finding of body.providerFindings as Array<{ samples: number; successfulSamples: number; failedSamples: number; summary: string }>) {
      expect(finding.samples).toBe(samples);
      expect(finding.successfulSamples + finding.failedSamples).toBe(samples);
      if (finding.failedSamples > 0) expect(finding.summary).toMatch(/failed and (is|are) not counted/);
    }
    const answered = (body.providerFindings as Array<{ successfulSamples: number }>).reduce((sum, finding) => sum + finding.successfulSamples, 0);
    expect(body.audit.successfulSamples).toBe(answered);

    // Every gemini call was tried twice (one retry) and never answered; the call log says so.
    const geminiRequests = simulator().requests().slice(before).filter((request) => request.provider === 'gemini');
    expect(geminiRequests).toHaveLength(samples * 2);
    expect(geminiRequests.every((request) => request.status !== 200)).toBe(true);
    const logged = providerCalls(since).filter((call) => call.provider === 'gemini');
    expect(logged).toHaveLength(samples);
    expect(logged.every((call) => call.outcome === 'failed' && FAILURE_KINDS.includes(call.failure_kind ?? ''))).toBe(true);

    // Stored as answered.
    const stored = await running.service.store.auditRepository.getAudit(body.id);
    expect(stored?.measured).toBe(true);
    expect((stored?.response as { providerErrors: unknown[] }).providerErrors).toEqual(body.providerErrors);
  });

  it('answers "not measured" (no score, risk unknown) when every provider is down, and stores no 0 score', async () => {
    simulator().injectFaults(PROVIDERS.flatMap((provider) => providerStorm(provider, 30)));
    const result = await audit({ brand: 'Acme Storm CRM' });
    expect(result.status).toBe(200);
    const body = AuditResponseSchema.parse(result.body);
    expect(body.audit.measured).toBe(false);
    expect(body.audit.risk).toBe('unknown');
    expect(body.audit.scoreInterval).toBeNull();
    expect(body.audit.notMeasuredReason).toMatch(/Every provider asked failed/);
    expect(body.providerFindings).toEqual([]);
    expect(body.providerErrors?.map((failure) => failure.provider).sort()).toEqual([...PROVIDERS]);
    const stored = await running.service.store.auditRepository.getAudit(body.id);
    expect(stored).toMatchObject({ measured: false, score: null });
    // A not-measured audit never feeds the category benchmark as a 0.
    expect(await running.service.store.auditRepository.latestScoresInCategory(stored?.categoryKey ?? '', 'nobody', 'demo')).not.toContain(0);
  });
});

describe('provider storms during a buyer-question map', () => {
  it('stores the map with the failing provider cells failed with their reasons; a hang and a burst are absorbed by the retry', async () => {
    const { auditId, questions } = await mapAudit();
    // gemini down for the whole map; openai hangs once (a timeout, then the retry answers); anthropic takes a burst.
    simulator().injectFaults([...providerStorm('gemini', questions.length), { kind: 'hang', provider: 'openai' }, ...transientStorm('anthropic', 1)]);
    const posted = await postMap(auditId);
    expect(posted.status).toBe(200);
    const map = posted.body.map as BuyerQuestionMap;
    expect(map).toBeDefined();
    expect(map.summary).toMatchObject({ cells: questions.length * 3, answeredCells: questions.length * 2, failedCells: questions.length });
    for (const row of map.rows) {
      for (const cell of row.cells) {
        if (cell.provider === 'gemini') {
          expect(cell).toMatchObject({ ok: false, answer: null, model: null, brands: [], named: false });
          expect(FAILURE_KINDS).toContain(cell.failure?.kind);
          expect(cell.failure?.message).toMatch(/after 2 attempts|timed out|rate|overloaded|unavailable/i);
        } else {
          expect(cell.ok).toBe(true);
          expect(cell.answer).toEqual(expect.any(String));
        }
      }
      // A failed cell never counts as a question lost by that provider.
      expect(row.namedBy).not.toContain('gemini');
    }
    const gemini = map.providerSummaries.find((summary) => summary.provider === 'gemini');
    expect(gemini).toMatchObject({ answered: 0, failed: questions.length, questionsWon: 0 });
    expect([...map.summary.providersAnswered].sort()).toEqual(['anthropic', 'openai']);

    // Stored: the GET answers the same map, each cell stored once.
    const read = await fetch(`${running.url}/api/audit/${auditId}/fanout-map`, { headers: { 'X-Forwarded-For': nextCaller() } });
    expect(await read.json()).toEqual({ ok: true, cached: true, map });
    expect(running.service.store.mapRepository.listCells(auditId, 1)).toHaveLength(questions.length * 3);
  });
});

describe('provider storms during an MCP run', () => {
  it('finishes the run with the provider down throughout reported as failed, never as questions lost', async () => {
    simulator().injectFaults(providerStorm('gemini', 60));
    const client = await connectMcp(`${running.url}/mcp`, { 'X-Forwarded-For': nextCaller() });
    clients.push(client);
    const started = await callTool(client, 'start_visibility_check', { brand: 'Pipedrive', website: 'storm.pipedrive.test', category: 'CRM software' });
    expect(started).toMatchObject({ reused: false, status: 'auditing' });
    const done = await waitForRun(client, started['runId'] as string);
    expect(done['status']).toBe('done');
    expect(done['providersFailed']).toEqual([{ provider: 'gemini', reason: expect.any(String) }]);
    expect((done['providersAnswered'] as Array<{ provider: string }>).map((entry) => entry.provider).sort()).toEqual(['anthropic', 'openai']);
    expect(done['buyerQuestionsTotal']).toBe(done['buyerQuestionsAsked']);
    for (const question of done['buyerQuestions'] as Array<{ namedBy: string[]; failedProviders: string[] }>) {
      expect(question.failedProviders).toEqual(['gemini']);
      expect(question.namedBy).not.toContain('gemini');
    }
    expect(done['verdict']).toMatchObject({ measured: true });
  });

  it('fails the run as not_measured when every provider is down, and the domain may start again at once', async () => {
    simulator().injectFaults(PROVIDERS.flatMap((provider) => providerStorm(provider, 30)));
    const client = await connectMcp(`${running.url}/mcp`, { 'X-Forwarded-For': nextCaller() });
    clients.push(client);
    const started = await callTool(client, 'start_visibility_check', { brand: 'Pipedrive', website: 'down.pipedrive.test', category: 'CRM software' });
    const failed = await waitForRun(client, started['runId'] as string);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'not_measured', message: expect.stringMatching(/No AI provider answered/) } });
    // The failed run holds no quota: the lookup a new start makes finds nothing, so it would measure at once.
    expect(await running.service.store.mcpRunRepository.findQuotaRun('down.pipedrive.test', 'demo', new Date(0).toISOString())).toBeUndefined();
  });
});

describe('the store refusing writes', () => {
  /** Replaces a repository method on the running service's own store object; returns how often it was called and a restore. */
  function refuse<T extends object, K extends keyof T & string>(repository: T, method: K, failures: number): { calls: () => number; restore: () => void } {
    const original = (repository[method] as (...args: unknown[]) => unknown).bind(repository);
    let calls = 0;
    (repository as Record<string, unknown>)[method] = (...args: unknown[]) => {
      calls += 1;
      if (calls <= failures) throw Object.assign(new Error('SQLITE_IOERR: disk I/O error'), { code: 'SQLITE_IOERR' });
      return original(...args);
    };
    return { calls: () => calls, restore: () => delete (repository as Record<string, unknown>)[method] };
  }

  it('POST /api/audit answers 503 store_unavailable after exactly one retry, stores and mails nothing, and keeps the slot it spent', async () => {
    const caller = nextCaller();
    const outbox = join(running.dataDir, 'outbox');
    const mails = (): number => {
      try {
        return readdirSync(outbox).length;
      } catch {
        return 0;
      }
    };
    const mailsBefore = mails();
    const auditsBefore = countAudits();
    const down = refuse(running.service.store.auditRepository, 'insertAudit', Number.POSITIVE_INFINITY);
    let result: Awaited<ReturnType<typeof audit>>;
    try {
      result = await audit({ email: 'owner@store.pipedrive.test' }, caller);
    } finally {
      down.restore();
    }
    expect(result.status).toBe(503);
    expect(result.body).toEqual({ ...API_ERROR, code: 'store_unavailable' });
    expect(result.headers.get('retry-after')).toBe('60');
    expect(down.calls()).toBe(2);
    // Nothing half-stored: no audit row, no mail announcing an audit nobody can open.
    expect(countAudits()).toBe(auditsBefore);
    expect(mails()).toBe(mailsBefore);
    expectIntact(running.service.store);
    // The slot was taken before the crawl and the providers were paid, so it stays spent (audit-routes.ts).
    expect(result.headers.get('x-ratelimit-remaining')).toBe('5');

    // The next audit meets one refused write: the retry stores it, once.
    const blip = refuse(running.service.store.auditRepository, 'insertAudit', 1);
    let next: Awaited<ReturnType<typeof audit>>;
    try {
      next = await audit({}, caller);
    } finally {
      blip.restore();
    }
    expect(next.status).toBe(200);
    // One more slot spent, unless the hourly window turned over between the two calls (a new window).
    const sameWindow = next.headers.get('x-ratelimit-reset') === result.headers.get('x-ratelimit-reset');
    expect(next.headers.get('x-ratelimit-remaining')).toBe(sameWindow ? '4' : '5');
    expect(blip.calls()).toBe(2);
    expect(countAudits()).toBe(auditsBefore + 1);
    expect((await running.service.store.auditRepository.getAudit(next.body.id))?.response).toEqual(expect.objectContaining({ id: next.body.id, audit: next.body.audit }));
  });

  it('an MCP run whose audit cannot be saved fails as store_unavailable and does not hold the quota', async () => {
    const client = await connectMcp(`${running.url}/mcp`, { 'X-Forwarded-For': nextCaller() });
    clients.push(client);
    const seam = refuse(running.service.store.auditRepository, 'insertAudit', Number.POSITIVE_INFINITY);
    let failed: Record<string, any>;
    let runId: string;
    try {
      const started = await callTool(client, 'start_visibility_check', { brand: 'Pipedrive', website: 'store.pipedrive.test', category: 'CRM software' });
      runId = started['runId'] as string;
      failed = await waitForRun(client, runId);
    } finally {
      seam.restore();
    }
    expect(failed).toMatchObject({ runId, status: 'failed', error: { code: 'store_unavailable' } });
    expect(failed['auditId']).toBeUndefined();
    expect(await running.service.store.mcpRunRepository.findQuotaRun('store.pipedrive.test', 'demo', new Date(0).toISOString())).toBeUndefined();
  });

  it('a map whose writes fail for a moment still completes: every cell stored once, asked once', async () => {
    const { auditId, questions } = await mapAudit();
    const total = questions.length * 3;
    const since = Date.now();
    // Three cell writes refused, then the write that completes the job.
    const seam = refuse(running.service.store.mapRepository, 'insertCell', 3);
    const completing = refuse(running.service.store.mapRepository, 'completeJob', 1);
    let posted: Awaited<ReturnType<typeof postJson>>;
    try {
      posted = await postMap(auditId);
    } finally {
      seam.restore();
      completing.restore();
    }
    expect(completing.calls()).toBe(2);
    expect(posted.status).toBe(200);
    expect(posted.body.map?.summary).toMatchObject({ cells: total, answeredCells: total, failedCells: 0 });
    expect(running.service.store.mapRepository.listCells(auditId, 1)).toHaveLength(total);
    // Nothing paid twice: the refused writes were retried with the answers in hand, not asked again.
    const asked = askedSince(questions, since);
    expect(asked).toHaveLength(total);
    expect(new Set(asked).size).toBe(total);
  });

  it('a map whose cell writes keep failing answers the running state, and the next POST stores the held answers without asking again', async () => {
    const { auditId, questions } = await mapAudit();
    const total = questions.length * 3;
    const since = Date.now();
    const seam = refuse(running.service.store.mapRepository, 'insertCell', Number.POSITIVE_INFINITY);
    let first: Awaited<ReturnType<typeof postJson>>;
    try {
      first = await postMap(auditId);
    } finally {
      seam.restore();
    }
    // A clear answer, not a 500 and not a half map: still running, nothing stored.
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ok: true, cached: false, status: 'running', generation: 1, progress: { completed: 0, total } });
    expect(running.service.store.mapRepository.listCells(auditId, 1)).toEqual([]);
    expectIntact(running.service.store);

    const second = await postMap(auditId);
    expect(second.status).toBe(200);
    expect(second.body.map?.summary).toMatchObject({ cells: total, answeredCells: total, failedCells: 0 });
    const asked = askedSince(questions, since);
    expect(asked).toHaveLength(total);
    expect(new Set(asked).size).toBe(total);
  });

  it('an MCP run whose map cannot be saved fails as store_unavailable instead of mapping forever', async () => {
    const client = await connectMcp(`${running.url}/mcp`, { 'X-Forwarded-For': nextCaller() });
    clients.push(client);
    const seam = refuse(running.service.store.mapRepository, 'insertCell', Number.POSITIVE_INFINITY);
    let failed: Record<string, any>;
    try {
      const started = await callTool(client, 'start_visibility_check', { brand: 'Pipedrive', website: 'cells.pipedrive.test', category: 'CRM software' });
      failed = await waitForRun(client, started['runId'] as string, 30_000);
    } finally {
      seam.restore();
    }
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'store_unavailable', message: expect.stringMatching(/map could not be saved/) } });
    // A failed run does not hold the domain's free measurement.
    expect(await running.service.store.mcpRunRepository.findQuotaRun('cells.pipedrive.test', 'demo', new Date(0).toISOString())).toBeUndefined();
  });
});
