// Issue 17's first "done when": two instances on one PostgreSQL, with 200 concurrent callers spread over
// both, keep every limit, credit and budget exact. Each scenario gets its own database and its own pair of
// real service instances (in this process, each with its own pool, rate limiter, budget and job runner,
// sharing nothing but the database); the providers are each instance's demo simulator. No sleeps: the 200
// requests are fired at once and every count is asserted exactly, against what PostgreSQL holds.

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgPool, createWatch, type PgPool } from '@visibility/core';
import { createSessionToken, SESSION_COOKIE } from './auth/session.js';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from './test-support/fixture-site.js';
import { postJson, startTestService, type TestService } from './test-support/service.js';

const PG_TEST_URL = process.env['VISIBILITY_TEST_DATABASE_URL'];
const SKIP_REASON = 'PostgreSQL scale-out tests skipped: no VISIBILITY_TEST_DATABASE_URL (install postgresql: apt-get install -y postgresql)';
const SESSION_SECRET = 's'.repeat(40);
const CALLERS = 200;
const OWNER = 'owner@pipedrive.test';

/** A fresh database on the test cluster, dropped by the returned drop(). */
async function freshDatabase(prefix: string): Promise<{ url: string; pool: PgPool; drop(): Promise<void> }> {
  const admin = createPgPool(PG_TEST_URL as string, { max: 1 });
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(PG_TEST_URL as string);
  url.pathname = `/${name}`;
  const pool = createPgPool(url.toString(), { max: 2 });
  return {
    url: url.toString(),
    pool,
    async drop() {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Two instances on one database, started together (the migrations run once, under the advisory lock). */
async function startPair(environment: Record<string, string>): Promise<[TestService, TestService]> {
  const both = { SESSION_SECRET, TRUST_PROXY: 'loopback', ...environment };
  const [first, second] = await Promise.all([
    startTestService(both, undefined, { watchScheduler: false }),
    startTestService(both, undefined, { watchScheduler: false }),
  ]);
  return [first, second];
}

/** The i-th of the 200 callers' addresses (believed through X-Forwarded-For: TRUST_PROXY=loopback). */
const callerAddress = (index: number): string => `198.51.${100 + Math.floor(index / 250)}.${(index % 250) + 1}`;

const simulatorCalls = (instances: readonly TestService[]): number =>
  instances.reduce((sum, running) => sum + (running.service.simulator?.requests().length ?? 0), 0);

describe.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? SKIP_REASON : 'two instances on one PostgreSQL, 200 concurrent callers', () => {
  describe('rate limits and credits (demo lineup, free calls)', () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    let site: FixtureSite;
    let instances: [TestService, TestService];

    beforeAll(async () => {
      database = await freshDatabase('vis_scale_limits');
      site = await startFixtureSite(SAAS_SITE);
      instances = await startPair({ DATABASE_URL: database.url, CRAWL_HOST_MAP: `pipedrive.test=${site.origin}` });
    });

    afterAll(async () => {
      await Promise.all(instances?.map((running) => running.stop()) ?? []);
      await site?.close();
      await database?.drop();
    });

    it('a per-caller limit lets exactly its maximum through for each caller, whichever instance each request reaches', async () => {
      // 10 callers × 20 requests, interleaved and alternated over the two instances; checkBrandRecognition allows 6 an hour.
      const perCaller = 20;
      const callers = CALLERS / perCaller;
      const requests = Array.from({ length: CALLERS }, (_, index) => ({ caller: callerAddress(index % callers), instance: instances[index % 2] as TestService }));
      const results = await Promise.all(
        requests.map(async ({ caller, instance }) => ({
          caller,
          ...(await postJson(`${instance.url}/api/check`, { brand: 'Pipedrive' }, { headers: { 'X-Forwarded-For': caller } })),
        })),
      );
      expect(results.filter((result) => ![200, 429].includes(result.status))).toEqual([]);
      for (const refused of results.filter((result) => result.status === 429)) {
        expect(refused.body).toMatchObject({ code: 'rate_limited' });
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }

      // What PostgreSQL counted: every counter within its maximum, and exactly one per call let through.
      const { rows } = await database.pool.query<{ caller_key: string; window_start: string; used: number }>(
        "SELECT caller_key, window_start, used FROM rate_limit_counters WHERE bucket = 'checkBrandRecognition:hour'",
      );
      for (let index = 0; index < callers; index += 1) {
        const caller = callerAddress(index);
        const allowed = results.filter((result) => result.caller === caller && result.status === 200).length;
        const windows = rows.filter((row) => row.caller_key === `caller:${caller}`);
        expect(windows.reduce((sum, row) => sum + row.used, 0)).toBe(allowed);
        for (const window of windows) expect(window.used).toBeLessThanOrEqual(6);
        // The usual case, one hour window for the whole burst: exactly 6 (a burst across the hour may see 12).
        if (windows.length === 1) expect(allowed).toBe(6);
      }
      // Each call let through asked its questions, on one instance or the other; none refused asked anything.
      const allowed = results.filter((result) => result.status === 200).length;
      expect(allowed).toBeGreaterThanOrEqual(6 * callers);
      expect(simulatorCalls(instances)).toBe(2 * allowed);
    });

    it('the map read\'s limit (120 a minute per caller) is one counter in PostgreSQL: 200 reads over both instances, exactly 120 answered', async () => {
      const audit = await postJson(
        `${instances[0].url}/api/audit`,
        { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' },
        { headers: { 'X-Forwarded-For': '203.0.113.7' } },
      );
      expect(audit.status).toBe(200);
      const reader = '203.0.113.8';
      const results = await Promise.all(
        Array.from({ length: CALLERS }, (_, index) =>
          fetch(`${(instances[index % 2] as TestService).url}/api/audit/${audit.body.id as string}/fanout-map`, { headers: { 'X-Forwarded-For': reader } }),
        ),
      );
      const statuses = results.map((result) => result.status);
      expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
      const answered = statuses.filter((status) => status === 200).length;
      const { rows } = await database.pool.query<{ used: number }>(
        "SELECT used FROM rate_limit_counters WHERE bucket = 'getBuyerQuestionMap:minute' AND caller_key = $1",
        [`caller:${reader}`],
      );
      expect(rows.reduce((sum, row) => sum + row.used, 0)).toBe(answered);
      for (const row of rows) expect(row.used).toBeLessThanOrEqual(120);
      // One minute window for the whole burst (the usual case): exactly 120, not 120 per instance.
      if (rows.length === 1) expect(answered).toBe(120);
      // A burst that straddles a minute (a slow machine) may be answered whole, 120 or fewer in each window.
      const refused = results.find((result) => result.status === 429);
      if (rows.length === 1) expect(refused).toBeDefined();
      if (refused !== undefined) expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
    });

    it('one account with N credits: of 200 concurrent re-runs on both instances exactly N start, the balance ends at 0, never below', async () => {
      const credits = 4;
      // One real audit of the owner, with its free first map, cloned into 200 audits of the same owner
      // (each with a stored map, so each POST rerun: true is a paid re-run and none joins another's).
      const [first, second] = instances;
      const audit = await postJson(
        `${first.url}/api/audit`,
        { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software', email: OWNER },
        { headers: { 'X-Forwarded-For': '203.0.113.9' } },
      );
      expect(audit.status).toBe(200);
      const source = audit.body.id as string;
      const firstMap = await postJson(`${second.url}/api/audit/${source}/fanout-map`, {}, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
      expect(firstMap.status).toBe(200);
      const { rows: clones } = await database.pool.query<{ id: string }>(
        `WITH ids AS (SELECT gen_random_uuid()::text AS id FROM generate_series(1, $2)),
              audit_rows AS (
                INSERT INTO audits (id, created_at, brand, brand_key, website, category, category_key, email, mode, measured, score, response_json)
                SELECT ids.id, a.created_at, a.brand, a.brand_key, a.website, a.category, a.category_key, a.email, a.mode, a.measured, a.score,
                       replace(a.response_json, $1, ids.id)
                FROM ids, audits a WHERE a.id = $1 RETURNING id)
         SELECT id FROM audit_rows`,
        [source, CALLERS],
      );
      await database.pool.query(
        `INSERT INTO buyer_question_map_jobs (audit_id, generation, status, mode, brand, website, competitors_json, questions_json, providers_json,
                                              charged_email, created_at, completed_at, map_json)
         SELECT c.id, j.generation, j.status, j.mode, j.brand, j.website, j.competitors_json, j.questions_json, j.providers_json,
                j.charged_email, j.created_at, j.completed_at, replace(j.map_json, $1, c.id)
         FROM unnest($2::text[]) AS c(id), buyer_question_map_jobs j WHERE j.audit_id = $1`,
        [source, clones.map((clone) => clone.id)],
      );
      expect(clones).toHaveLength(CALLERS);
      expect(await first.service.ports.accountRepository.grantCredits(OWNER, credits)).toBe(credits);
      const callsBefore = simulatorCalls(instances);

      const cookie = `${SESSION_COOKIE}=${createSessionToken(OWNER, SESSION_SECRET)}`;
      const results = await Promise.all(
        clones.map(({ id }, index) =>
          postJson(`${(instances[index % 2] as TestService).url}/api/audit/${id}/fanout-map`, { rerun: true }, { headers: { cookie, 'X-Forwarded-For': callerAddress(index) } }),
        ),
      );
      const started = results.filter((result) => result.status === 200);
      const refused = results.filter((result) => result.status === 402);
      expect(started).toHaveLength(credits);
      expect(refused).toHaveLength(CALLERS - credits);
      for (const result of refused) expect(result.body).toMatchObject({ code: 'no_credits' });
      for (const result of started) expect(result.body.map.generation).toBe(2);

      expect((await first.service.ports.accountRepository.getAccount(OWNER))?.credits).toBe(0);
      const { rows: charged } = await database.pool.query<{ generations: string; negative: string }>(
        `SELECT (SELECT COUNT(*) FROM buyer_question_map_jobs WHERE generation = 2 AND charged_email = $1) AS generations,
                (SELECT COUNT(*) FROM accounts WHERE credits < 0) AS negative`,
        [OWNER],
      );
      expect(charged[0]).toEqual({ generations: String(credits), negative: '0' });
      // Only the paid re-runs asked anything: each map once, every question of every provider.
      const cells = (firstMap.body.map.rows as unknown[]).length * 3;
      expect(simulatorCalls(instances) - callsBefore).toBe(credits * cells);
    });
    it('the watch schedulers of both instances, passing together on one due watch, run it exactly once', async () => {
      const [first, second] = instances;
      const { watch } = await createWatch(first.service.watchTracker, OWNER, {
        brand: 'Pipedrive',
        category: 'CRM software',
        schedule: 'daily',
        samples: 1,
        providers: ['openai', 'gemini'],
      });
      const callsBefore = simulatorCalls(instances);
      // Four scheduler passes on each instance at once (a tick: take over dead runs, start due watches, try alerts).
      const passes = await Promise.all(Array.from({ length: 8 }, (_, index) => (index % 2 === 0 ? first : second).service.watchTracker.tick()));
      const started = passes.flat();
      expect(started).toHaveLength(1);
      expect(started[0]).toMatchObject({ watchId: watch.id, status: 'running' });
      await Promise.all(instances.map((running) => running.service.watchTracker.idle()));

      const { rows } = await database.pool.query<{ id: string; run_trigger: string; status: string; answers: string }>(
        `SELECT r.id, r.run_trigger, r.status, (SELECT COUNT(*) FROM watch_answers a WHERE a.run_id = r.id) AS answers
         FROM watch_runs r WHERE r.watch_id = $1`,
        [watch.id],
      );
      const asked = watch.questions.length * 2;
      expect(rows).toEqual([{ id: started[0]?.id, run_trigger: 'schedule', status: 'complete', answers: String(asked) }]);
      // Every answer asked once, by one instance or the other.
      expect(simulatorCalls(instances) - callsBefore).toBe(asked);
      // The next passes find nothing due: the watch's next run is tomorrow.
      expect((await Promise.all([first.service.watchTracker.tick(), second.service.watchTracker.tick()])).flat()).toEqual([]);
    });
  });

  describe('the monthly budget (a priced demo lineup and a small budget)', () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    let instances: [TestService, TestService];
    // A dollar per million tokens in and out: a check's call costs some hundred micro-dollars.
    const price = { input: 1, output: 1 };
    const budgetUsd = 0.01;

    beforeAll(async () => {
      database = await freshDatabase('vis_scale_budget');
      instances = await startPair({
        DATABASE_URL: database.url,
        MONTHLY_BUDGET_USD: String(budgetUsd),
        DEGRADED_AUDIT_RESERVE_PERCENT: '0',
        MODEL_PRICES: JSON.stringify({ 'demo-gpt-4.1-mini': price, 'demo-claude-sonnet-4-6': price, 'demo-gemini-2.5-flash': price }),
      });
    });

    afterAll(async () => {
      await Promise.all(instances?.map((running) => running.stop()) ?? []);
      await database?.drop();
    });

    it('never spends past the budget, and every answer that got through is in the call log and the spend', async () => {
      const results = await Promise.all(
        Array.from({ length: CALLERS }, (_, index) =>
          postJson(`${(instances[index % 2] as TestService).url}/api/check`, { brand: 'Pipedrive' }, { headers: { 'X-Forwarded-For': callerAddress(index) } }),
        ),
      );
      const answered = results.filter((result) => result.status === 200);
      const refused = results.filter((result) => result.status === 503);
      expect(answered.length + refused.length).toBe(CALLERS);
      for (const result of refused) expect(result.body).toMatchObject({ code: 'budget' });
      // The budget bit: some got through, most did not.
      expect(answered.length).toBeGreaterThan(0);
      expect(refused.length).toBeGreaterThan(0);

      const { rows } = await database.pool.query<{ spent: string; calls: number; logged: string; ok: string; refusedCalls: string; reserved: string }>(
        `SELECT (SELECT COALESCE(SUM(spent_micro_usd), 0) FROM budget_spend) AS spent,
                (SELECT COALESCE(SUM(calls), 0)::int FROM budget_spend) AS calls,
                (SELECT COUNT(*) FROM provider_calls) AS logged,
                (SELECT COUNT(*) FROM provider_calls WHERE outcome = 'ok') AS ok,
                (SELECT COUNT(*) FROM provider_calls WHERE outcome = 'failed' AND failure_kind = 'budget') AS "refusedCalls",
                (SELECT COUNT(*) FROM budget_reservations) AS reserved`,
      );
      const totals = rows[0];
      expect(Number(totals?.spent)).toBeGreaterThan(0);
      expect(Number(totals?.spent)).toBeLessThanOrEqual(budgetUsd * 1_000_000);
      expect(totals?.reserved).toBe('0');
      // Every provider answer (counted by the simulators of both instances) is one logged, settled call, and
      // no more; every other logged call is one the budget refused before asking (no request reached a provider).
      const asked = simulatorCalls(instances);
      expect(Number(totals?.ok)).toBe(asked);
      expect(totals?.calls).toBe(asked);
      expect(Number(totals?.logged)).toBe(asked + Number(totals?.refusedCalls));
      // Each check that answered asked its two questions; a refused one may have had one answered before the money ran out.
      expect(asked).toBeGreaterThanOrEqual(2 * answered.length);
      expect(asked).toBeLessThanOrEqual(2 * answered.length + refused.length);
      // What the instances report agrees with the database.
      for (const running of instances) expect((await running.service.budget.status()).spentUsd).toBeCloseTo(Number(totals?.spent) / 1_000_000, 6);
    });
  });
});
