import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createJobRunner,
  createVisibilityRunTracker,
  crawlSite,
  INTERRUPTED_REASON,
  parseAuditRequest,
  recoverVisibilityRuns,
  startVisibilityAudit,
  type BuyerQuestionMap,
} from '@visibility/core';
import { DEMO_CAVEAT, RunOutputSchema } from './tools/run-output.js';
import { startTestRuns, testReportUrl, UNREACHABLE_HOST, type TestRuns } from './test-support/runs.js';

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

  it('lists the two tools with input and output schemas and honest annotations, and advertises no list changes', async () => {
    const client = await testRuns.connect();
    // The tool list never changes, so the server does not claim it might.
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['start_visibility_check', 'get_visibility_check', 'get_visibility_history']);
    const [start, get] = tools;
    expect(start?.inputSchema.required).toEqual(['brand', 'website', 'category']);
    expect(start?.inputSchema.properties?.['brand']).toMatchObject({ type: 'string', maxLength: 80 });
    expect(start?.inputSchema.properties?.['competitors']).toMatchObject({ maxLength: 220 });
    expect(start?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(start?.description).toMatch(/about a minute/);
    expect(start?.description).toMatch(/30 days/);
    expect(start?.outputSchema?.required).toEqual(expect.arrayContaining(['runId', 'status', 'reused', 'caveats', 'pollAfterSeconds']));
    expect(get?.inputSchema.required).toEqual(['runId']);
    expect(get?.inputSchema.properties?.['waitSeconds']).toMatchObject({ type: 'integer', minimum: 0, maximum: 50 });
    expect((get?.inputSchema.properties?.['waitSeconds'] as { description?: string } | undefined)?.description).toMatch(/Default 45/);
    // get only reads this service's own store: not open world.
    expect(get?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(get?.outputSchema?.required).toEqual(expect.arrayContaining(['caveats']));
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
    expect(run).toMatchObject({ status: 'auditing', reused: false, mode: 'demo', domain: 'pipedrive.test', website: 'https://pipedrive.test/', caveats: [DEMO_CAVEAT] });
    expect(run).not.toHaveProperty('measuredAt');
    expect(run['pollAfterSeconds']).toBeGreaterThan(0);
    expect(started.progress.length).toBeGreaterThanOrEqual(1);
    expect(started.progress[0]).toMatchObject({ total: 100 });
    expect(textOf(started.result)).toContain(run['runId']);
    expect(textOf(started.result)).toContain(DEMO_CAVEAT);

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
    // every cell answered; one that did not is named with its failure (the caveats below only count them)
    const unanswered = map.rows.flatMap((row) => row.cells.filter((cell) => !cell.ok).map((cell) => `${cell.provider}: ${cell.failure?.kind} ${cell.failure?.message}`));
    expect(unanswered).toEqual([]);
    expect(done.buyerQuestionsWon).toBe(map.summary.questionsWon);
    expect(done.buyerQuestionsTotal).toBe(map.rows.filter((row) => row.cells.some((cell) => cell.ok)).length);
    expect(done.buyerQuestionsAsked).toBe(map.questions.length);
    expect(done.buyerQuestions?.map((question) => question.question)).toEqual(map.questions);
    expect(done.competitorsNamedInstead?.map((competitor) => competitor.name)).toEqual(
      map.summary.topCompetitors.filter((competitor) => competitor.namedInstead > 0).slice(0, 8).map((competitor) => competitor.name),
    );
    expect(done.reportUrl).toBe(testReportUrl(done.auditId ?? ''));
    expect(done.measuredAt).toBe(done.finishedAt);
    expect(done.caveats).toEqual([DEMO_CAVEAT]);
    expect(done.buyerQuestionMapUrl).toBe(`http://visibility.test/api/audit/${done.auditId}/fanout-map`);

    const text = textOf(got.result);
    expect(text).toContain(`Note: ${DEMO_CAVEAT}`);
    expect(text).toContain(`Full report (a private link: share it only with the user): ${done.reportUrl}`);
    expect(text).toContain(`Measured on ${done.measuredAt}.`);
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

  it('start, then get once with defaults, answers the finished result: get waits 45 s by default', async () => {
    const run = structured((await client.callTool({ name: 'start_visibility_check', arguments: { ...PIPEDRIVE, website: 'gamma.test' } })) as CallToolResult);
    expect(run['status']).not.toBe('done');
    const got = await call(client, 'get_visibility_check', { runId: run['runId'] });
    const done = RunOutputSchema.parse(structured(got.result));
    expect(done).toMatchObject({ status: 'done', pollAfterSeconds: 0, caveats: [DEMO_CAVEAT] });
    expect(got.progress.at(-1)).toMatchObject({ progress: 100, total: 100 });
    expect(textOf(got.result)).toMatch(/Visibility score \d+\/100/);
  });

  it('with waitSeconds 0 answers the current state at once, with no progress token needed', async () => {
    testRuns.simulator.setLatency(200);
    try {
      const run = structured((await client.callTool({ name: 'start_visibility_check', arguments: { ...PIPEDRIVE, website: 'beta.test' } })) as CallToolResult);
      const started = Date.now();
      const polled = (await client.callTool({ name: 'get_visibility_check', arguments: { runId: run['runId'], waitSeconds: 0 } })) as CallToolResult;
      expect(Date.now() - started).toBeLessThan(1_000);
      const state = structured(polled);
      expect(state).toMatchObject({ runId: run['runId'], status: 'auditing', pollAfterSeconds: 15 });
      expect(state['progress']).toMatchObject({ stage: expect.any(String), percent: expect.any(Number) });
      expect(textOf(polled)).toMatch(/In progress .*it waits up to 45 seconds/s);
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
      const got = await call(client, 'get_visibility_check', { runId: run['runId'], waitSeconds: 50 });
      const done = RunOutputSchema.parse(structured(got.result));
      expect(done.status).toBe('done');
      expect(done.providersAnswered?.map((provider) => provider.provider).sort()).toEqual(['anthropic', 'openai']);
      expect(done.providersFailed).toEqual([{ provider: 'gemini', reason: expect.any(String) }]);
      expect(done.buyerQuestions?.every((question) => question.failedProviders.includes('gemini') && !question.namedBy.includes('gemini'))).toBe(true);
      expect(done.buyerQuestionsTotal).toBe(done.buyerQuestionsAsked);
      // Said in a sentence an assistant will repeat, not only as a field.
      expect(done.caveats).toContainEqual(expect.stringMatching(/^Only 2 of 3 AI providers answered; gemini \(.+\) did not/));
      expect(textOf(got.result)).toMatch(/Note: Only 2 of 3 AI providers answered/);
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

  it('returns the earlier measurement for the same domain, brand and category, however spelled, and says so without measuring or counting again', async () => {
    const first = structured((await call(client, 'start_visibility_check', { ...PIPEDRIVE, email: 'owner@pipedrive.test' })).result);
    const finished = structured((await call(client, 'get_visibility_check', { runId: first['runId'], waitSeconds: 50 })).result);
    const requestsBefore = testRuns.simulator.requests().length;
    const slotsBefore = (await testRuns.runs.rateLimiter.peek('startVisibilityAudit', '198.51.100.21'));

    const other = await testRuns.connect('198.51.100.21');
    const again = await call(other, 'start_visibility_check', {
      brand: ' pipedrive ',
      website: 'https://WWW.Pipedrive.test/pricing',
      category: 'CRM  Software',
      email: 'someone-else@example.com',
    });
    const reused = structured(again.result);
    expect(reused).toMatchObject({
      runId: first['runId'],
      reused: true,
      status: 'done',
      pollAfterSeconds: 0,
      brand: 'Pipedrive',
      category: 'CRM software',
      measuredAt: finished['finishedAt'],
    });
    expect(reused['caveats']).toContainEqual(expect.stringMatching(new RegExp(`^This is an earlier measurement of pipedrive\\.test for Pipedrive in "CRM software", made on ${finished['finishedAt']}, reused .* nothing new was measured\\.$`)));
    expect(reused['caveats']).toContainEqual(expect.stringMatching(/^The email given was not used/));
    expect(textOf(again.result)).toMatch(/^Reused: pipedrive\.test was already checked for Pipedrive/);
    // Nothing of the first caller's private data reaches the second: not the email, in any answer.
    const got = await call(other, 'get_visibility_check', { runId: first['runId'] });
    for (const answer of [again.result, got.result]) expect(JSON.stringify(answer)).not.toContain('owner@pipedrive.test');
    expect(again.progress.at(-1)).toMatchObject({ progress: 100 });
    expect(testRuns.simulator.requests()).toHaveLength(requestsBefore);
    expect((await testRuns.runs.rateLimiter.peek('startVisibilityAudit', '198.51.100.21'))).toMatchObject({ remaining: slotsBefore.allowed ? slotsBefore.remaining : -1 });

    testRuns.advanceDays(29);
    expect(structured((await call(client, 'start_visibility_check', PIPEDRIVE)).result)).toMatchObject({ runId: first['runId'], reused: true });
    testRuns.advanceDays(1.01);
    const renewed = structured((await call(client, 'start_visibility_check', PIPEDRIVE)).result);
    expect(renewed['reused']).toBe(false);
    expect(renewed['runId']).not.toBe(first['runId']);
    await call(client, 'get_visibility_check', { runId: renewed['runId'], waitSeconds: 50 });
  });

  it.each([
    ['another brand', { brand: 'Pipedrive CRM' }],
    ['another category', { category: 'sales software' }],
  ])('refuses a start for the same domain with %s as domain_quota_used, saying what was measured and when it renews', async (_name, change) => {
    const held = structured((await call(client, 'start_visibility_check', { ...PIPEDRIVE, website: 'acme.test' })).result);
    await call(client, 'get_visibility_check', { runId: held['runId'], waitSeconds: 50 });
    const requestsBefore = testRuns.simulator.requests().length;
    const before = runCount(testRuns);
    const { result } = await call(client, 'start_visibility_check', { ...PIPEDRIVE, website: 'www.acme.test', ...change });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/^domain_quota_used: acme\.test already used its free check for the last 30 days: it was measured on \S+ for the brand "Pipedrive" in the category "CRM software"/);
    expect(text).toContain(`runId ${held['runId']}`);
    expect(text).toContain(held['quotaRenewsAt']);
    expect(runCount(testRuns)).toBe(before);
    expect(testRuns.simulator.requests()).toHaveLength(requestsBefore);
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
    expect(second['reused']).toBe(false);
    expect(second['runId']).not.toBe(first['runId']);
    await call(client, 'get_visibility_check', { runId: second['runId'], waitSeconds: 50 });
  });
});

describe('the spend guard', () => {
  let testRuns: TestRuns;
  let client: Client;
  beforeAll(async () => {
    testRuns = await startTestRuns();
    client = await testRuns.connect('198.51.100.30');
  });
  afterAll(async () => testRuns?.close());

  it.each([
    ['does not answer (connection refused)', { website: UNREACHABLE_HOST }, undefined],
    ['does not resolve', { website: 'no-such-brand-site.com' }, 'no-such-brand-site.com'],
  ])('fails a run whose website %s as site_unreachable before any provider is asked', async (_name, change, unresolvable) => {
    if (unresolvable !== undefined) {
      // The system resolver answering ENOTFOUND, as it does for a name with no DNS record.
      testRuns.runs.crawl = (website, options) =>
        crawlSite(website, {
          ...options,
          lookup: async (hostname) => {
            throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
          },
        });
    }
    try {
      const requestsBefore = testRuns.simulator.requests().length;
      const run = structured((await call(client, 'start_visibility_check', { ...PIPEDRIVE, ...change })).result);
      const got = await call(client, 'get_visibility_check', { runId: run['runId'] });
      const failed = RunOutputSchema.parse(structured(got.result));
      expect(failed).toMatchObject({ status: 'failed', error: { code: 'site_unreachable' } });
      expect(failed.error?.message).toMatch(/could not be reached .*No AI provider was asked and nothing was spent/);
      expect(failed.caveats).toContain(`The website ${failed.website} could not be reached, so nothing was measured and no AI provider was asked.`);
      expect(textOf(got.result)).toMatch(/failed \(site_unreachable\): The website https:\/\/.+ could not be reached/);
      expect(testRuns.simulator.requests()).toHaveLength(requestsBefore);
      // A failed run does not hold the quota.
      expect(await testRuns.store.mcpRunRepository.findQuotaRun(failed.domain, 'demo', new Date(0).toISOString())).toBeUndefined();
    } finally {
      delete testRuns.runs.crawl;
    }
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
    for (let slot = 0; slot < 6; slot += 1) (await testRuns.runs.rateLimiter.consume('startVisibilityAudit', caller));
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
      reused: true,
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
    const claim = async (domain: string) =>
      (await runRepository.claimRun(
        { id: randomUUID(), domain, mode: 'demo', brand: 'Pipedrive', website: `https://${domain}/`, category: 'CRM software', request: {}, createdAt: at },
        '2000-01-01T00:00:00.000Z',
      )).run;
    const queued = await claim('queued.test');
    const auditing = await claim('auditing.test');
    await runRepository.markAuditing(auditing.id, at);
    // A run killed between storing its audit and creating its map job.
    const request = parseAuditRequest(PIPEDRIVE, { hostMap: testRuns.runs.crawlHostMap });
    const audit = await startVisibilityAudit(testRuns.runs, request);
    const mapping = await claim('pipedrive.test');
    await runRepository.markAuditing(mapping.id, at);
    await runRepository.markMapping(mapping.id, audit.id, at);

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
    expect(structured((await call(client, 'start_visibility_check', { ...PIPEDRIVE, website: 'acme.test' })).result)['reused']).toBe(false);
  });
});

describe('beside another live process', () => {
  let testRuns: TestRuns;
  beforeAll(async () => {
    testRuns = await startTestRuns();
  });
  afterAll(async () => testRuns?.close());

  it('leaves alone a run another live process holds, and takes it over once that lease has run out', async () => {
    const { runRepository } = testRuns.runs;
    const jobStore = testRuns.store.jobRepository;
    // This process's tracker on the shared lease table (as the service wires it).
    const here = { ...testRuns.runs, tracker: createVisibilityRunTracker({ jobs: createJobRunner({ store: jobStore }) }) };
    const at = new Date().toISOString();
    const run = (await runRepository.claimRun(
      { id: randomUUID(), domain: 'live-elsewhere.test', mode: 'demo', brand: 'Pipedrive', website: 'https://live-elsewhere.test/', category: 'CRM software', request: {}, createdAt: at },
      '2000-01-01T00:00:00.000Z',
    )).run;
    await runRepository.markAuditing(run.id, at);
    const other = { id: 'other-host/4242/live', host: 'other-host', pid: 4242 };
    await jobStore.claim('mcp-run', run.id, other, 30_000, Date.now());

    expect(await recoverVisibilityRuns(here)).toEqual({ failed: 0, mapsStarted: 0 });
    expect((await runRepository.getRun(run.id))?.status).toBe('auditing');

    // The other process died 31 s ago: its lease has run out, so this start takes the run over.
    await jobStore.claim('mcp-run', run.id, other, 30_000, Date.now() - 31_000);
    expect(await recoverVisibilityRuns(here)).toEqual({ failed: 1, mapsStarted: 0 });
    expect(await runRepository.getRun(run.id)).toMatchObject({ status: 'failed', errorCode: 'interrupted' });
    await here.tracker.stop(0);
  });
});
