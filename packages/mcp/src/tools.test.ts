import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  crawlSite,
  INTERRUPTED_REASON,
  parseAuditRequest,
  recoverVisibilityRuns,
  startVisibilityAudit,
  type BuyerQuestionMap,
} from '@visibility/core';
import { RunOutputSchema } from './tools/run-output.js';
import { startTestRuns, type TestRuns } from './test-support/runs.js';

const PIPEDRIVE = { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' };

interface Call {
  result: CallToolResult;
  progress: Progress[];
  elapsedMs: number;
}

/** Calls a tool with a progressToken (the SDK sets one when onprogress is given) and records its notifications. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Call> {
  const progress: Progress[] = [];
  const started = Date.now();
  const result = (await client.callTool({ name, arguments: args }, undefined, { onprogress: (event) => progress.push(event), timeout: 70_000 })) as CallToolResult;
  return { result, progress, elapsedMs: Date.now() - started };
}

const textOf = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
const structured = (result: CallToolResult): Record<string, any> => {
  expect(result.isError, textOf(result)).not.toBe(true);
  return result.structuredContent as Record<string, any>;
};
const runCount = (testRuns: TestRuns): number => (testRuns.store.database.prepare('SELECT COUNT(*) AS runs FROM mcp_runs').get() as { runs: number }).runs;

describe('tools/list', () => {
  let testRuns: TestRuns;
  beforeAll(async () => {
    testRuns = await startTestRuns();
  });
  afterAll(async () => testRuns?.close());

  it('lists the two tools with input and output schemas and honest annotations', async () => {
    const client = await testRuns.connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['start_visibility_check', 'get_visibility_check']);
    const [start, get] = tools;
    expect(start?.inputSchema.required).toEqual(['brand', 'website', 'category']);
    expect(start?.inputSchema.properties?.['brand']).toMatchObject({ type: 'string', maxLength: 80 });
    expect(start?.inputSchema.properties?.['competitors']).toMatchObject({ maxLength: 220 });
    expect(start?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(start?.description).toMatch(/about a minute/);
    expect(start?.description).toMatch(/30 days/);
    expect(start?.outputSchema?.required).toEqual(expect.arrayContaining(['runId', 'status', 'reusedExistingRun', 'pollAfterSeconds']));
    expect(get?.inputSchema.required).toEqual(['runId']);
    expect(get?.inputSchema.properties?.['waitSeconds']).toMatchObject({ type: 'integer', minimum: 0, maximum: 50 });
    expect(get?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(get?.outputSchema?.properties).toHaveProperty('buyerQuestionsWon');
  });
});

describe('start_visibility_check and get_visibility_check', () => {
  let testRuns: TestRuns;
  let client: Client;
  beforeAll(async () => {
    testRuns = await startTestRuns();
    client = await testRuns.connect();
    await client.listTools(); // lets the client validate structuredContent against the output schemas
  });
  afterAll(async () => testRuns?.close());

  it('answers a runId at once, measures in the background and reports the result from the map', async () => {
    const started = await call(client, 'start_visibility_check', PIPEDRIVE);
    const run = structured(started.result);
    expect(run).toMatchObject({ status: 'auditing', reusedExistingRun: false, mode: 'demo', domain: 'pipedrive.test', website: 'https://pipedrive.test/' });
    expect(run['pollAfterSeconds']).toBeGreaterThan(0);
    expect(started.progress.length).toBeGreaterThanOrEqual(1);
    expect(started.progress[0]).toMatchObject({ total: 100 });
    expect(textOf(started.result)).toContain(run['runId']);
    expect(textOf(started.result)).toContain('DEMO MODE');

    const got = await call(client, 'get_visibility_check', { runId: run['runId'], waitSeconds: 50 });
    const done = RunOutputSchema.parse(structured(got.result));
    expect(done.status).toBe('done');
    expect(done.pollAfterSeconds).toBe(0);
    // Progress moved forward only, through the audit's answers, and ended at 100.
    const percents = got.progress.map((event) => event.progress);
    expect(percents).toEqual([...percents].sort((left, right) => left - right));
    expect(new Set(percents).size).toBe(percents.length);
    expect(got.progress.some((event) => /^answers \d+\/\d+$/.test(event.message ?? ''))).toBe(true);
    expect(got.progress.at(-1)).toMatchObject({ progress: 100, total: 100 });

    expect(done.verdict?.measured).toBe(true);
    const [low, high] = done.verdict?.scoreInterval ?? [];
    expect(done.verdict?.score).toBeGreaterThanOrEqual(low ?? Number.NaN);
    expect(done.verdict?.score).toBeLessThanOrEqual(high ?? Number.NaN);
    expect(done.providersAnswered?.map((provider) => provider.provider).sort()).toEqual(['anthropic', 'gemini', 'openai']);
    expect(done.providersAnswered?.every((provider) => provider.model.startsWith('demo-'))).toBe(true);
    expect(done.providersFailed).toEqual([]);
    // The questions won are the stored map's, not the audit's samples.
    const map = testRuns.store.mapRepository.latestCompleteJob(done.auditId ?? '')?.map as unknown as BuyerQuestionMap;
    expect(done.buyerQuestionsWon).toBe(map.summary.questionsWon);
    expect(done.buyerQuestionsTotal).toBe(map.rows.filter((row) => row.cells.some((cell) => cell.ok)).length);
    expect(done.buyerQuestionsAsked).toBe(map.questions.length);
    expect(done.buyerQuestions?.map((question) => question.question)).toEqual(map.questions);
    expect(done.competitorsNamedInstead?.map((competitor) => competitor.name)).toEqual(
      map.summary.topCompetitors.filter((competitor) => competitor.namedInstead > 0).slice(0, 8).map((competitor) => competitor.name),
    );
    expect(done.reportUrl).toBe('http://visibility.test/account');
    expect(done.buyerQuestionMapUrl).toBe(`http://visibility.test/api/audit/${done.auditId}/fanout-map`);

    const text = textOf(got.result);
    expect(text).toContain('DEMO MODE');
    expect(text).toContain(`Buyer questions won: ${done.buyerQuestionsWon} of ${done.buyerQuestionsTotal}`);
    expect(text).toContain(`Visibility score ${Math.round(done.verdict?.score ?? -1)}/100`);
    expect(text).toContain(`openai (${done.providersAnswered?.find((provider) => provider.provider === 'openai')?.model})`);
  });

  it('reports the buyer-question map stage while it is measured', async () => {
    // Slow answers, so the map is still filling in when the wait looks at it.
    testRuns.simulator.setLatency(250);
    try {
      const run = structured((await call(client, 'start_visibility_check', { brand: 'Acme', website: 'acme.test', category: 'CRM software' })).result);
      const got = await call(client, 'get_visibility_check', { runId: run['runId'], waitSeconds: 50 });
      expect(structured(got.result)['status']).toBe('done');
      const mapEvents = got.progress.filter((event) => /^buyer-question map \d+\/\d+$/.test(event.message ?? ''));
      expect(mapEvents.length).toBeGreaterThanOrEqual(1);
      expect(mapEvents.every((event) => event.progress > 62 && event.progress < 100)).toBe(true);
    } finally {
      testRuns.simulator.setLatency(0);
    }
  });

  it('without waitSeconds answers the current state at once, with no progress token needed', async () => {
    testRuns.simulator.setLatency(200);
    try {
      const run = structured((await client.callTool({ name: 'start_visibility_check', arguments: { ...PIPEDRIVE, website: 'beta.test' } })) as CallToolResult);
      const started = Date.now();
      const polled = (await client.callTool({ name: 'get_visibility_check', arguments: { runId: run['runId'] } })) as CallToolResult;
      expect(Date.now() - started).toBeLessThan(1_000);
      const state = structured(polled);
      expect(state).toMatchObject({ runId: run['runId'], status: 'auditing', pollAfterSeconds: 15 });
      expect(state['progress']).toMatchObject({ stage: expect.any(String), percent: expect.any(Number) });
      expect(textOf(polled)).toMatch(/In progress .*waitSeconds/s);
      await call(client, 'get_visibility_check', { runId: run['runId'], waitSeconds: 50 });
    } finally {
      testRuns.simulator.setLatency(0);
    }
  });

  it('reports a provider that failed as not measured, with its reason, and never as a lost question', async () => {
    const { simulator } = testRuns;
    simulator.injectFaults([{ kind: 'server_error', provider: 'gemini', status: 500, times: 10_000 }]);
    try {
      const run = structured((await call(client, 'start_visibility_check', { brand: 'Pipedrive', website: 'limited.test', category: 'sales CRM' })).result);
      const done = RunOutputSchema.parse(structured((await call(client, 'get_visibility_check', { runId: run['runId'], waitSeconds: 50 })).result));
      expect(done.status).toBe('done');
      expect(done.providersAnswered?.map((provider) => provider.provider).sort()).toEqual(['anthropic', 'openai']);
      expect(done.providersFailed).toEqual([{ provider: 'gemini', reason: expect.any(String) }]);
      expect(done.buyerQuestions?.every((question) => question.failedProviders.includes('gemini') && !question.namedBy.includes('gemini'))).toBe(true);
      expect(done.buyerQuestionsTotal).toBe(done.buyerQuestionsAsked);
    } finally {
      simulator.clearFaults();
    }
  });
});

describe('the 30-day quota', () => {
  let testRuns: TestRuns;
  let client: Client;
  beforeAll(async () => {
    testRuns = await startTestRuns();
    client = await testRuns.connect('198.51.100.20');
  });
  afterAll(async () => testRuns?.close());

  it('returns the existing run for the same domain, however it is spelled, without measuring or counting again', async () => {
    const first = structured((await call(client, 'start_visibility_check', PIPEDRIVE)).result);
    await call(client, 'get_visibility_check', { runId: first['runId'], waitSeconds: 50 });
    const requestsBefore = testRuns.simulator.requests().length;
    const slotsBefore = testRuns.runs.rateLimiter.peek('startVisibilityAudit', '198.51.100.21');

    const other = await testRuns.connect('198.51.100.21');
    const again = await call(other, 'start_visibility_check', { brand: 'Pipedrive CRM', website: 'https://WWW.Pipedrive.test/pricing', category: 'sales software' });
    const reused = structured(again.result);
    expect(reused).toMatchObject({ runId: first['runId'], reusedExistingRun: true, status: 'done', pollAfterSeconds: 0, brand: 'Pipedrive' });
    expect(textOf(again.result)).toMatch(/already checked .* nothing new was measured/);
    expect(again.progress.at(-1)).toMatchObject({ progress: 100 });
    expect(testRuns.simulator.requests()).toHaveLength(requestsBefore);
    expect(testRuns.runs.rateLimiter.peek('startVisibilityAudit', '198.51.100.21')).toMatchObject({ remaining: slotsBefore.allowed ? slotsBefore.remaining : -1 });

    testRuns.advanceDays(29);
    expect(structured((await call(client, 'start_visibility_check', PIPEDRIVE)).result)).toMatchObject({ runId: first['runId'], reusedExistingRun: true });
    testRuns.advanceDays(1.01);
    const renewed = structured((await call(client, 'start_visibility_check', PIPEDRIVE)).result);
    expect(renewed['reusedExistingRun']).toBe(false);
    expect(renewed['runId']).not.toBe(first['runId']);
    await call(client, 'get_visibility_check', { runId: renewed['runId'], waitSeconds: 50 });
  });

  it('does not let a failed run hold the quota', async () => {
    testRuns.runs.crawl = async (website, options) => {
      if (website.includes('failing.test')) throw new Error('the crawler exploded');
      return crawlSite(website, options);
    };
    const failing = { brand: 'Failing', website: 'failing.test', category: 'CRM software' };
    const first = structured((await call(client, 'start_visibility_check', failing)).result);
    const failed = await call(client, 'get_visibility_check', { runId: first['runId'], waitSeconds: 50 });
    expect(structured(failed.result)).toMatchObject({ status: 'failed', error: { code: 'server_error' }, pollAfterSeconds: 0 });
    expect(textOf(failed.result)).toContain("does not use the domain's free measurement");

    const second = structured((await call(client, 'start_visibility_check', failing)).result);
    expect(second['reusedExistingRun']).toBe(false);
    expect(second['runId']).not.toBe(first['runId']);
    await call(client, 'get_visibility_check', { runId: second['runId'], waitSeconds: 50 });
  });
});

describe('errors a model can act on', () => {
  let testRuns: TestRuns;
  let client: Client;
  beforeAll(async () => {
    testRuns = await startTestRuns();
    client = await testRuns.connect('192.0.2.50');
  });
  afterAll(async () => testRuns?.close());

  it.each([
    ['a brand over 80 characters', 'start_visibility_check', { ...PIPEDRIVE, brand: 'b'.repeat(81) }, /brand/],
    ['no category', 'start_visibility_check', { brand: 'Pipedrive', website: 'pipedrive.test' }, /category/],
    ['competitors over 220 characters', 'start_visibility_check', { ...PIPEDRIVE, competitors: 'c'.repeat(221) }, /competitors/],
    ['an unknown language', 'start_visibility_check', { ...PIPEDRIVE, language: 'fr' }, /language/],
    ['a bad email', 'start_visibility_check', { ...PIPEDRIVE, email: 'not-an-email' }, /email/],
    ['a runId that is no UUID', 'get_visibility_check', { runId: 'run-1' }, /runId/],
    ['waitSeconds over 50', 'get_visibility_check', { runId: randomUUID(), waitSeconds: 51 }, /waitSeconds/],
  ])('refuses %s with an isError result naming the field, before anything runs', async (_name, tool, args, field) => {
    const before = runCount(testRuns);
    const { result } = await call(client, tool, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(field);
    expect(runCount(testRuns)).toBe(before);
  });

  it.each([
    ['localhost', 'http://localhost:3000'],
    ['a private address', '192.168.1.10'],
    ['a file URL', 'file:///etc/passwd'],
  ])('refuses %s as invalid_website with what to send instead', async (_name, website) => {
    const before = runCount(testRuns);
    const { result } = await call(client, 'start_visibility_check', { ...PIPEDRIVE, website });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^invalid_website: .*public address/);
    expect(runCount(testRuns)).toBe(before);
  });

  it('answers an unknown runId with run_not_found and what to do', async () => {
    const { result } = await call(client, 'get_visibility_check', { runId: randomUUID() });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^run_not_found: .*start_visibility_check/);
  });

  it('counts a new run against the caller startVisibilityAudit limit and says how long to wait', async () => {
    const caller = '192.0.2.99';
    for (let slot = 0; slot < 6; slot += 1) testRuns.runs.rateLimiter.consume('startVisibilityAudit', caller);
    const limited = await testRuns.connect(caller);
    const before = runCount(testRuns);
    const { result } = await call(limited, 'start_visibility_check', { ...PIPEDRIVE, website: 'acme.test' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^rate_limited: .*Wait \d+ seconds .*\(retryAfterSeconds: \d+\)$/);
    expect(runCount(testRuns)).toBe(before);

    // Another caller starts it; a reused run then needs no slot, even for the limited caller.
    const first = structured((await call(client, 'start_visibility_check', { ...PIPEDRIVE, website: 'acme.test' })).result);
    expect(structured((await call(limited, 'start_visibility_check', { ...PIPEDRIVE, website: 'acme.test' })).result)).toMatchObject({
      runId: first['runId'],
      reusedExistingRun: true,
    });
    await call(client, 'get_visibility_check', { runId: first['runId'], waitSeconds: 50 });
  });
});

describe('after a restart', () => {
  let testRuns: TestRuns;
  let client: Client;
  beforeAll(async () => {
    testRuns = await startTestRuns();
    client = await testRuns.connect();
  });
  afterAll(async () => testRuns?.close());

  it('fails runs a killed process left queued or auditing, and finishes a run left mapping', async () => {
    const { runRepository } = testRuns.runs;
    const at = new Date().toISOString();
    const claim = (domain: string) =>
      runRepository.claimRun(
        { id: randomUUID(), domain, mode: 'demo', brand: 'Pipedrive', website: `https://${domain}/`, category: 'CRM software', request: {}, createdAt: at },
        '2000-01-01T00:00:00.000Z',
      ).run;
    const queued = claim('queued.test');
    const auditing = claim('auditing.test');
    runRepository.markAuditing(auditing.id, at);
    // A run killed between storing its audit and creating its map job.
    const request = parseAuditRequest(PIPEDRIVE, { hostMap: testRuns.runs.crawlHostMap });
    const audit = await startVisibilityAudit(testRuns.runs, request);
    const mapping = claim('pipedrive.test');
    runRepository.markAuditing(mapping.id, at);
    runRepository.markMapping(mapping.id, audit.id, at);

    expect(await recoverVisibilityRuns(testRuns.runs)).toEqual({ failed: 2, mapsStarted: 1 });

    for (const run of [queued, auditing]) {
      const { result } = await call(client, 'get_visibility_check', { runId: run.id });
      expect(structured(result)).toMatchObject({ status: 'failed', error: { code: 'interrupted', message: INTERRUPTED_REASON } });
      expect(textOf(result)).toContain(INTERRUPTED_REASON);
    }
    const finished = structured((await call(client, 'get_visibility_check', { runId: mapping.id, waitSeconds: 50 })).result);
    expect(finished).toMatchObject({ status: 'done', auditId: audit.id });
    expect(finished['buyerQuestionsAsked']).toBe(audit.productFanout?.questions.length);
    // Failed runs do not hold the quota: the domain can be measured again at once.
    expect(structured((await call(client, 'start_visibility_check', { ...PIPEDRIVE, website: 'acme.test' })).result)['reusedExistingRun']).toBe(false);
  });
});
