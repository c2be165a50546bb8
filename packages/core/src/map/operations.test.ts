import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deferred, fakeAnswer } from '../providers/test-support/fake-provider.js';
import { ProviderFailure, type Answer } from '../providers/types.js';
import { openStore, type Store } from '../store/store.js';
import type { BrandExtractor } from '../extraction/second-opinion.js';
import { auditNotFound, MapError } from './errors.js';
import { createAsyncBuyerQuestionMapReader, createBuyerQuestionMapReader, getBuyerQuestionMap, resumeBuyerQuestionMaps, startBuyerQuestionMap, stopBuyerQuestionMaps } from './operations.js';
import { insertAudit, mapDependencies, QUESTIONS, ScriptedProvider, sleep, until } from './test-support/map-fixtures.js';
import type { BuyerQuestionMap, BuyerQuestionMapResponse } from './types.js';

let dataDir: string;
let store: Store;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'visibility-map-'));
  store = openStore({ dataDir });
});
afterEach(() => {
  store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const OWNER = 'owner@pipedrive.test';

function mapOf(response: BuyerQuestionMapResponse): BuyerQuestionMap {
  if (!('map' in response)) throw new Error(`expected a map, got ${JSON.stringify(response)}`);
  return response.map;
}

type Dependencies = Parameters<typeof getBuyerQuestionMap>[0];
/** One reader per dependencies, kept across a test's steps: its cache must follow every state change. */
const readers = new WeakMap<Dependencies, ReturnType<typeof createBuyerQuestionMapReader>>();
function readMap(dependencies: Dependencies, auditId: string) {
  let reader = readers.get(dependencies);
  if (reader === undefined) {
    reader = createBuyerQuestionMapReader(dependencies, { cachedMaps: 2 });
    readers.set(dependencies, reader);
  }
  const lookup = reader.lookup(auditId);
  if (lookup === undefined) throw auditNotFound();
  return reader.read(lookup);
}
const readJson = (dependencies: Dependencies, auditId: string): unknown => JSON.parse(readMap(dependencies, auditId).body.toString('utf8'));

/**
 * The byte read must say exactly what the object read says, in every state; and the ports-only reader
 * of PostgreSQL mode must send the very same bytes (and so the same entity tag) as the synchronous one.
 */
async function expectSameAnswer(dependencies: Dependencies, auditId: string): Promise<void> {
  expect(readJson(dependencies, auditId)).toEqual(await getBuyerQuestionMap(dependencies, auditId));
  const asyncReader = createAsyncBuyerQuestionMapReader(dependencies);
  const lookup = await asyncReader.lookup(auditId);
  if (lookup === undefined) throw auditNotFound();
  const read = await asyncReader.read(lookup);
  const synchronous = readMap(dependencies, auditId);
  expect(read.body.toString('utf8')).toBe(synchronous.body.toString('utf8'));
  expect(read.etag).toBe(synchronous.etag);
}

/** `status` is the one the server's table gives `code` (apps/server/src/rest/core-errors.test.ts checks it): core carries no HTTP status. */
async function expectMapError(promise: Promise<unknown>, code: string, _status: number): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MapError);
  expect(error).toMatchObject({ code });
}

describe('startBuyerQuestionMap', () => {
  it('reads every cell with the injected brand extractor, given the brand', async () => {
    const openai = new ScriptedProvider('openai', 'demo-gpt');
    const brands: Array<string | undefined> = [];
    const brandExtractor: BrandExtractor = {
      mode: 'hybrid',
      extract: async (_answer, request) => {
        brands.push(request?.brand);
        return ['Zoho CRM', 'Pipedrive'];
      },
    };
    const map = mapOf(await startBuyerQuestionMap({ ...mapDependencies(store, [openai]), brandExtractor }, { auditId: await insertAudit(store), rerun: true }));
    expect(brands).toEqual(['Pipedrive', 'Pipedrive', 'Pipedrive']);
    expect(map.rows[0]?.cells[0]).toMatchObject({ brands: ['Zoho CRM', 'Pipedrive'], named: true, position: 2 });
  });

  it('counts competitors as the audit does: a store named in the answers is no competitor of CRM software', async () => {
    const openai = new ScriptedProvider('openai', 'demo-gpt', () =>
      fakeAnswer('Two solid picks:\n\n1. **Salesforce** – for larger teams.\n2. **Amazon** – where many teams buy their software licences.', 'openai'),
    );
    const dependencies = mapDependencies(store, [openai]);
    const auditId = await insertAudit(store);
    const map = mapOf(await startBuyerQuestionMap(dependencies, { auditId, rerun: true }));
    const names = map.summary.topCompetitors.map((competitor) => competitor.name);
    expect(names).toContain('Salesforce');
    expect(names).not.toContain('Amazon');
  });

  it('asks every question to every provider once, stores the grid and then answers it cached without calls', async () => {
    const openai = new ScriptedProvider('openai', 'demo-gpt');
    const gemini = new ScriptedProvider('gemini', 'demo-gemini', () => fakeAnswer('Two solid picks:\n\n1. **HubSpot** – free to start.\n2. **Salesforce** – for larger teams.', 'gemini'));
    const dependencies = mapDependencies(store, [openai, gemini]);
    const auditId = await insertAudit(store);

    const first = await startBuyerQuestionMap(dependencies, { auditId, rerun: true });
    expect(first).toMatchObject({ ok: true, cached: false });
    const map = mapOf(first);
    expect(openai.calls.map((call) => call.prompt)).toEqual(QUESTIONS);
    expect(gemini.calls.map((call) => call.prompt)).toEqual(QUESTIONS);
    expect(openai.calls.every((call) => call.purpose === 'map.buyer_question')).toBe(true);

    expect(map).toMatchObject({ auditId, generation: 1, mode: 'demo', brand: 'Pipedrive', questions: QUESTIONS });
    expect(map.providers).toEqual([
      { provider: 'openai', model: 'demo-gpt' },
      { provider: 'gemini', model: 'demo-gemini' },
    ]);
    expect(map.rows).toHaveLength(3);
    const [openaiCell, geminiCell] = map.rows[0]?.cells ?? [];
    expect(openaiCell).toMatchObject({ provider: 'openai', ok: true, named: true, position: 2, competitors: ['HubSpot', 'Zoho CRM'], namedInstead: [] });
    expect(openaiCell?.brands).toEqual(['HubSpot', 'Pipedrive', 'Zoho CRM']);
    expect(openaiCell?.answer).toContain('Pipedrive');
    expect(geminiCell).toMatchObject({ provider: 'gemini', ok: true, named: false, position: null, namedInstead: ['HubSpot', 'Salesforce'] });
    expect(map.summary).toMatchObject({ questions: 3, providers: 2, cells: 6, answeredCells: 6, failedCells: 0, questionsWon: 3, cellsWon: 3 });
    expect(map.providerSummaries.map((summary) => [summary.provider, summary.questionsWon, summary.averagePosition])).toEqual([
      ['openai', 3, 2],
      ['gemini', 0, null],
    ]);
    expect(map.summary.topCompetitors[0]).toEqual({ name: 'HubSpot', namedInstead: 3, mentions: 6 });

    const again = await startBuyerQuestionMap(dependencies, { auditId });
    expect(again).toEqual({ ok: true, cached: true, map });
    expect(await getBuyerQuestionMap(dependencies, auditId)).toEqual({ ok: true, cached: true, map });
    expect(openai.calls).toHaveLength(3);
    expect(gemini.calls).toHaveLength(3);
  });

  it('starts one job for concurrent starts', async () => {
    const openai = new ScriptedProvider('openai', 'demo-gpt', async (_request, provider) => {
      await sleep(5);
      return fakeAnswer('HubSpot.', provider.id);
    });
    const anthropic = new ScriptedProvider('anthropic', 'demo-claude');
    const dependencies = mapDependencies(store, [openai, anthropic]);
    const auditId = await insertAudit(store);
    const responses = await Promise.all(Array.from({ length: 8 }, () => startBuyerQuestionMap(dependencies, { auditId })));
    expect(openai.calls).toHaveLength(QUESTIONS.length);
    expect(anthropic.calls).toHaveLength(QUESTIONS.length);
    expect(new Set(responses.map((response) => mapOf(response).generation))).toEqual(new Set([1]));
    expect(store.mapRepository.latestGeneration(auditId)).toBe(1);
  });

  it('keeps each provider column within its concurrency cap', async () => {
    const questions = Array.from({ length: 9 }, (_unused, index) => `Which CRM software would you pick for team ${index + 1}?`);
    const openai = new ScriptedProvider('openai', 'demo-gpt', async (_request, provider) => {
      await sleep(5);
      return fakeAnswer('HubSpot.', provider.id);
    });
    const dependencies = mapDependencies(store, [openai], { concurrency: 3 });
    await startBuyerQuestionMap(dependencies, { auditId: await insertAudit(store, { questions }) });
    expect(openai.calls).toHaveLength(9);
    expect(openai.maxInFlight).toBe(3);
  });

  it('stores a failed call as a failed cell with its kind and reason, and counts it as not won', async () => {
    const openai = new ScriptedProvider('openai', 'demo-gpt', (request) => {
      if (request.prompt === QUESTIONS[1]) throw new ProviderFailure({ kind: 'overloaded', provider: 'openai', message: 'vendor said 529', attempts: 3 });
      return fakeAnswer('Pipedrive is great.');
    });
    const map = mapOf(await startBuyerQuestionMap(mapDependencies(store, [openai]), { auditId: await insertAudit(store) }));
    expect(map.rows[1]?.cells[0]).toMatchObject({
      ok: false,
      answer: null,
      model: null,
      brands: [],
      named: false,
      failure: { kind: 'overloaded', message: 'the provider was overloaded or answered with a server error after 3 attempts' },
    });
    expect(map.rows[0]?.cells[0]).not.toHaveProperty('failure');
    expect(map.summary).toMatchObject({ answeredCells: 2, failedCells: 1, questionsWon: 2 });
    expect(map.providerSummaries[0]).toMatchObject({ answered: 2, failed: 1, questionsWon: 2, winRate: 1 });
  });

  it('answers 409 no_fanout for an audit without buyer questions, asking nothing', async () => {
    const openai = new ScriptedProvider('openai', 'demo-gpt');
    const dependencies = mapDependencies(store, [openai]);
    const auditId = await insertAudit(store, { questions: [], reason: 'The category is empty.' });
    let slots = 0;
    await expectMapError(startBuyerQuestionMap(dependencies, { auditId }, { beforeSpend: () => (slots += 1) }), 'no_fanout', 409);
    expect(slots).toBe(0);
    expect(openai.calls).toHaveLength(0);
    expect(await getBuyerQuestionMap(dependencies, auditId)).toEqual({ ok: true, cached: false, status: 'no_fanout' });
  });

  it.each([
    ['an unknown id', '6f1c2a52-7d0e-4a8e-9a36-0d3c1c1b2f11'],
    ['an id that is not a UUID', 'not-a-uuid'],
    ['an empty id', ''],
    ['an SQL-looking id', "' OR 1=1 --"],
  ])('answers 404 audit_not_found for %s', async (_name, auditId) => {
    const dependencies = mapDependencies(store, [new ScriptedProvider('openai', 'demo-gpt')]);
    await expectMapError(startBuyerQuestionMap(dependencies, { auditId }), 'audit_not_found', 404);
    await expectMapError(getBuyerQuestionMap(dependencies, auditId), 'audit_not_found', 404);
  });

  it('reads the JSON text the same way: 404 for unknown and malformed ids, no_fanout, ids in capitals', async () => {
    const dependencies = mapDependencies(store, [new ScriptedProvider('openai', 'demo-gpt')]);
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      await expectMapError(Promise.resolve().then(() => readMap(dependencies, id)), 'audit_not_found', 404);
    }
    const withoutQuestions = await insertAudit(store, { questions: [] });
    expect(readJson(dependencies, withoutQuestions)).toEqual({ ok: true, cached: false, status: 'no_fanout' });
    await expectSameAnswer(dependencies, withoutQuestions);
    const auditId = await insertAudit(store);
    await startBuyerQuestionMap(dependencies, { auditId });
    expect(readJson(dependencies, auditId.toUpperCase())).toEqual(await getBuyerQuestionMap(dependencies, auditId));
  });

  it('finds an audit by its id in capitals too', async () => {
    const dependencies = mapDependencies(store, [new ScriptedProvider('openai', 'demo-gpt')]);
    const auditId = await insertAudit(store);
    expect(await getBuyerQuestionMap(dependencies, auditId.toUpperCase())).toEqual({ ok: true, cached: false, status: 'not_started' });
  });

  it('starts nothing when beforeSpend refuses (the rate limit)', async () => {
    const openai = new ScriptedProvider('openai', 'demo-gpt');
    const dependencies = mapDependencies(store, [openai]);
    const auditId = await insertAudit(store);
    const refusal = new Error('429');
    await expect(startBuyerQuestionMap(dependencies, { auditId }, { beforeSpend: () => { throw refusal; } })).rejects.toBe(refusal);
    expect(store.mapRepository.latestGeneration(auditId)).toBe(0);
    expect(openai.calls).toHaveLength(0);
  });

  it('answers the running state when the job outlasts the wait, and GET has no map until it completes', async () => {
    const release = deferred<void>();
    const openai = new ScriptedProvider('openai', 'demo-gpt', async (_request, provider) => {
      await release.promise;
      return fakeAnswer('Pipedrive.', provider.id);
    });
    const dependencies = mapDependencies(store, [openai]);
    const auditId = await insertAudit(store);
    expect(await getBuyerQuestionMap(dependencies, auditId)).toEqual({ ok: true, cached: false, status: 'not_started' });
    await expectSameAnswer(dependencies, auditId);
    const started = await startBuyerQuestionMap(dependencies, { auditId }, { waitMs: 20 });
    expect(started).toEqual({ ok: true, cached: false, status: 'running', generation: 1, progress: { completed: 0, total: 3 } });
    const reading = await getBuyerQuestionMap(dependencies, auditId);
    expect(reading).not.toHaveProperty('map');
    expect(reading).toMatchObject({ status: 'running', progress: { total: 3 } });
    await expectSameAnswer(dependencies, auditId);
    release.resolve();
    await until(() => store.mapRepository.latestCompleteJob(auditId) !== undefined);
    expect(mapOf(await getBuyerQuestionMap(dependencies, auditId)).summary.cells).toBe(3);
    await expectSameAnswer(dependencies, auditId);
  });

  it('stops waiting when the caller leaves, and the job goes on', async () => {
    const release = deferred<void>();
    const openai = new ScriptedProvider('openai', 'demo-gpt', async (_request, provider) => {
      await release.promise;
      return fakeAnswer('Pipedrive.', provider.id);
    });
    const dependencies = mapDependencies(store, [openai]);
    const auditId = await insertAudit(store);
    const left = new AbortController();
    const pending = startBuyerQuestionMap(dependencies, { auditId }, { signal: left.signal });
    await until(() => openai.calls.length > 0);
    left.abort();
    expect(await pending).toMatchObject({ status: 'running' });
    release.resolve();
    await until(() => store.mapRepository.latestCompleteJob(auditId) !== undefined);
  });
});

describe('re-running a stored map', () => {
  async function storedMap(options: { email?: string } = { email: OWNER }) {
    let round = 0;
    // Re-measurements take a little while, so concurrent re-runs really overlap the running one.
    const openai = new ScriptedProvider('openai', 'demo-gpt', async (_request, provider) => {
      if (round === 0) return fakeAnswer('Pipedrive.', provider.id);
      await sleep(10);
      return fakeAnswer('HubSpot.', provider.id);
    });
    const dependencies = mapDependencies(store, [openai]);
    const auditId = await insertAudit(store, options);
    const first = mapOf(await startBuyerQuestionMap(dependencies, { auditId }));
    round = 1;
    return { openai, dependencies, auditId, first };
  }

  it('re-measures for the signed-in owner (any case) and spends exactly one credit', async () => {
    const { openai, dependencies, auditId, first } = await storedMap();
    await store.accountRepository.grantCredits(OWNER, 2);
    const rerun = mapOf(await startBuyerQuestionMap(dependencies, { auditId, rerun: true, signedInEmail: 'Owner@Pipedrive.TEST' }));
    expect(rerun.generation).toBe(2);
    expect(rerun.summary.questionsWon).toBe(0);
    expect(first.summary.questionsWon).toBe(3);
    expect(openai.calls).toHaveLength(6);
    expect((await store.accountRepository.getAccount(OWNER))?.credits).toBe(1);
    expect(store.mapRepository.job(auditId, 2)?.chargedEmail).toBe(OWNER);
    expect(await startBuyerQuestionMap(dependencies, { auditId })).toEqual({ ok: true, cached: true, map: rerun });
  });

  it('keeps the previous map readable until the re-measurement completes', async () => {
    const { dependencies, auditId, first } = await storedMap();
    await store.accountRepository.grantCredits(OWNER, 1);
    const release = deferred<void>();
    const slow = new ScriptedProvider('openai', 'demo-gpt', async (_request, provider) => {
      await release.promise;
      return fakeAnswer('HubSpot.', provider.id);
    });
    const slowDependencies = { ...dependencies, lineup: new Map([['openai' as const, slow]]) };
    const before = readMap(dependencies, auditId);
    expect(readMap(dependencies, auditId)).toBe(before); // the stored map's bytes are kept, not read again
    const running = await startBuyerQuestionMap(slowDependencies, { auditId, rerun: true, signedInEmail: OWNER }, { waitMs: 10 });
    expect(running).toEqual({ ok: true, cached: false, status: 'running', generation: 2, progress: { completed: 0, total: 3 } });
    expect(await getBuyerQuestionMap(slowDependencies, auditId)).toEqual({
      ok: true,
      cached: true,
      map: first,
      remeasuring: { status: 'running', generation: 2, progress: { completed: 0, total: 3 } },
    });
    await expectSameAnswer(slowDependencies, auditId);
    const during = readMap(dependencies, auditId);
    expect(during.etag).not.toBe(before.etag);
    await expectSameAnswer(dependencies, auditId);
    release.resolve();
    await until(() => store.mapRepository.latestCompleteJob(auditId)?.generation === 2);
    expect(mapOf(await getBuyerQuestionMap(slowDependencies, auditId)).generation).toBe(2);
    // The reader that kept generation 1 now answers generation 2, under another tag.
    await expectSameAnswer(dependencies, auditId);
    const after = readMap(dependencies, auditId);
    expect([before.etag, during.etag]).not.toContain(after.etag);
  });

  it('reads the right map for every audit when more audits are read than it keeps', async () => {
    const dependencies = mapDependencies(store, [new ScriptedProvider('openai', 'demo-gpt')]);
    const auditIds = [await insertAudit(store), await insertAudit(store), await insertAudit(store)];
    for (const auditId of auditIds) await startBuyerQuestionMap(dependencies, { auditId });
    for (const auditId of [...auditIds, ...auditIds.toReversed(), ...auditIds]) {
      expect(readJson(dependencies, auditId)).toEqual(await getBuyerQuestionMap(dependencies, auditId));
      expect(mapOf(readJson(dependencies, auditId) as BuyerQuestionMapResponse).auditId).toBe(auditId);
    }
    const tags = new Set(auditIds.map((auditId) => readMap(dependencies, auditId).etag));
    expect(tags.size).toBe(3);
  });

  it('trusts a lookup until a job is written through its repository, or for a second when another process writes', async () => {
    let nowMs = 0;
    const dependencies = mapDependencies(store, [new ScriptedProvider('openai', 'demo-gpt')]);
    const reader = createBuyerQuestionMapReader(dependencies, { now: () => nowMs });
    const auditId = await insertAudit(store);
    expect(reader.lookup(auditId)).toMatchObject({ completeGeneration: undefined });
    // Written through the same repository: the next lookup sees it at once.
    await startBuyerQuestionMap(dependencies, { auditId });
    expect(reader.lookup(auditId)).toMatchObject({ completeGeneration: 1, runningGeneration: undefined });
    // Written by another store on the same file (another process): seen once the kept lookup expires.
    const other = openStore({ dataDir });
    try {
      const job = { auditId, mode: 'demo', brand: 'Pipedrive', website: 'https://pipedrive.test/', competitors: [], questions: ['Which CRM?'], providers: [{ provider: 'openai' as const, model: 'demo-gpt' }], createdAt: new Date().toISOString() };
      expect(other.mapRepository.createRerunJob(job, () => true).outcome).toBe('started');
      nowMs += 999;
      expect(reader.lookup(auditId)).toMatchObject({ runningGeneration: undefined });
      nowMs += 1;
      expect(reader.lookup(auditId)).toMatchObject({ completeGeneration: 1, runningGeneration: 2 });
    } finally {
      other.close();
    }
  });

  it('looks up only audits that exist, by an id in any case', async () => {
    const dependencies = mapDependencies(store, [new ScriptedProvider('openai', 'demo-gpt')]);
    const reader = createBuyerQuestionMapReader(dependencies);
    const asyncReader = createAsyncBuyerQuestionMapReader(dependencies);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '', "' OR 1=1 --"]) {
      expect(reader.lookup(id)).toBeUndefined();
      expect(await asyncReader.lookup(id)).toBeUndefined();
    }
    const auditId = await insertAudit(store);
    expect(reader.lookup(auditId.toUpperCase())).toEqual({ auditId, completeGeneration: undefined, runningGeneration: undefined });
    expect(await asyncReader.lookup(auditId.toUpperCase())).toEqual({ auditId, completeGeneration: undefined, runningGeneration: undefined });
  });

  it.each([
    ['nobody signed in', undefined, OWNER],
    ['another signed-in user', 'someone@else.test', OWNER],
    ['a signed-in user on an audit without an email', OWNER, undefined],
  ])('answers 401 unauthorized for %s, spending nothing', async (_name, signedInEmail, auditEmail) => {
    const { openai, dependencies, auditId } = await storedMap(auditEmail === undefined ? {} : { email: auditEmail });
    await store.accountRepository.grantCredits(OWNER, 1);
    if (signedInEmail !== undefined && signedInEmail !== OWNER) (await store.accountRepository.grantCredits(signedInEmail, 1));
    await expectMapError(startBuyerQuestionMap(dependencies, { auditId, rerun: true, signedInEmail }), 'unauthorized', 401);
    expect(openai.calls).toHaveLength(3);
    expect((await store.accountRepository.getAccount(OWNER))?.credits).toBe(1);
    expect(store.mapRepository.latestGeneration(auditId)).toBe(1);
  });

  it('answers 402 no_credits when the owner has none, before taking a rate-limit slot', async () => {
    const { openai, dependencies, auditId } = await storedMap();
    let slots = 0;
    await expectMapError(
      startBuyerQuestionMap(dependencies, { auditId, rerun: true, signedInEmail: OWNER }, { beforeSpend: () => (slots += 1) }),
      'no_credits',
      402,
    );
    expect(slots).toBe(0);
    expect(openai.calls).toHaveLength(3);
    expect(store.mapRepository.latestGeneration(auditId)).toBe(1);
  });

  it('spends one credit for concurrent re-runs: the others join the same re-measurement', async () => {
    const { openai, dependencies, auditId } = await storedMap();
    await store.accountRepository.grantCredits(OWNER, 5);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => startBuyerQuestionMap(dependencies, { auditId, rerun: true, signedInEmail: OWNER })),
    );
    expect((await store.accountRepository.getAccount(OWNER))?.credits).toBe(4);
    expect(responses.map((response) => mapOf(response).generation)).toEqual([2, 2, 2, 2, 2]);
    expect(openai.calls).toHaveLength(6);
  });

  it('ignores rerun while the first (free) map is still running', async () => {
    const release = deferred<void>();
    const openai = new ScriptedProvider('openai', 'demo-gpt', async (_request, provider) => {
      await release.promise;
      return fakeAnswer('Pipedrive.', provider.id);
    });
    const dependencies = mapDependencies(store, [openai]);
    const auditId = await insertAudit(store, { email: OWNER });
    await store.accountRepository.grantCredits(OWNER, 1);
    await startBuyerQuestionMap(dependencies, { auditId }, { waitMs: 0 });
    const joined = startBuyerQuestionMap(dependencies, { auditId, rerun: true });
    release.resolve();
    expect(mapOf(await joined).generation).toBe(1);
    expect((await store.accountRepository.getAccount(OWNER))?.credits).toBe(1);
    expect(openai.calls).toHaveLength(3);
  });
});

describe('durable jobs', () => {
  it('resumes a job a dead process left, asking only the cells not stored', async () => {
    const auditId = await insertAudit(store);
    // The first process stores one cell of openai and dies (its runner is simply dropped) with the rest hanging.
    const hanging = deferred<Answer>();
    let firstCalls = 0;
    const dying = new ScriptedProvider('openai', 'demo-gpt', async (_request, provider) => {
      firstCalls += 1;
      return firstCalls === 1 ? fakeAnswer('Pipedrive first.', provider.id) : hanging.promise;
    });
    const firstProcess = mapDependencies(store, [dying, new ScriptedProvider('gemini', 'demo-gemini', () => hanging.promise)], { concurrency: 1 });
    await startBuyerQuestionMap(firstProcess, { auditId }, { waitMs: 0 });
    await until(() => store.mapRepository.countCells(auditId, 1) === 1);

    const openai = new ScriptedProvider('openai', 'demo-gpt');
    const gemini = new ScriptedProvider('gemini', 'demo-gemini');
    const restarted = mapDependencies(store, [openai, gemini]);
    expect(await getBuyerQuestionMap(restarted, auditId)).toMatchObject({ status: 'running', progress: { completed: 1, total: 6 } });
    expect(await resumeBuyerQuestionMaps(restarted)).toBe(1);
    await until(() => store.mapRepository.latestCompleteJob(auditId) !== undefined);
    expect(openai.calls.map((call) => call.prompt)).toEqual(QUESTIONS.slice(1));
    expect(gemini.calls.map((call) => call.prompt)).toEqual(QUESTIONS);
    const map = mapOf(await getBuyerQuestionMap(restarted, auditId));
    expect(map.rows[0]?.cells[0]?.answer).toBe('Pipedrive first.');
    expect(map.summary.answeredCells).toBe(6);
    // Nothing left to resume.
    expect(await resumeBuyerQuestionMaps(mapDependencies(store, [openai, gemini]))).toBe(0);
  });

  it('on stop, stores the calls in flight that finish, takes no new cell, and resumes the rest', async () => {
    const questions = Array.from({ length: 6 }, (_unused, index) => `Which CRM software suits team ${index + 1}?`);
    const auditId = await insertAudit(store, { questions });
    const gates: Array<() => void> = [];
    const slow = new ScriptedProvider('openai', 'demo-gpt', (_request, provider) => new Promise<Answer>((resolve) => gates.push(() => resolve(fakeAnswer('Pipedrive.', provider.id)))));
    const dependencies = mapDependencies(store, [slow], { concurrency: 2 });
    const waiting = startBuyerQuestionMap(dependencies, { auditId });
    await until(() => gates.length === 2);
    const stopped = stopBuyerQuestionMaps(dependencies, 5_000);
    // The held POST is released at once with the running state.
    expect(await waiting).toMatchObject({ status: 'running' });
    for (const open of gates) open();
    await stopped;
    expect(slow.calls).toHaveLength(2);
    expect(store.mapRepository.countCells(auditId, 1)).toBe(2);
    expect(store.mapRepository.runningJob(auditId)).toBeDefined();
    // Stopped runners start nothing.
    expect(await resumeBuyerQuestionMaps(dependencies)).toBe(0);

    const fresh = new ScriptedProvider('openai', 'demo-gpt');
    const restarted = mapDependencies(store, [fresh]);
    await resumeBuyerQuestionMaps(restarted);
    await until(() => store.mapRepository.latestCompleteJob(auditId) !== undefined);
    expect(fresh.calls.map((call) => call.prompt)).toEqual(questions.slice(2));
  });

  it('cuts calls still in flight after the grace period, leaving their cells to the next start', async () => {
    const auditId = await insertAudit(store);
    const hung = new ScriptedProvider(
      'openai',
      'demo-gpt',
      (request) =>
        new Promise<Answer>((_resolve, reject) => request.signal?.addEventListener('abort', () => reject(new ProviderFailure({ kind: 'timeout', provider: 'openai', message: 'aborted' })))),
    );
    const dependencies = mapDependencies(store, [hung], { concurrency: 1 });
    await startBuyerQuestionMap(dependencies, { auditId }, { waitMs: 0 });
    await until(() => hung.calls.length === 1);
    await stopBuyerQuestionMaps(dependencies, 20);
    expect(store.mapRepository.countCells(auditId, 1)).toBe(0);
    expect(store.mapRepository.runningJob(auditId)).toBeDefined();
  });

  it('fills the cells of a provider that left the lineup before a resume with a failure, not answers from another lineup', async () => {
    const auditId = await insertAudit(store);
    const firstProcess = mapDependencies(store, [new ScriptedProvider('openai', 'demo-gpt', () => new Promise<Answer>(() => {})), new ScriptedProvider('gemini', 'demo-gemini', () => new Promise<Answer>(() => {}))]);
    await startBuyerQuestionMap(firstProcess, { auditId }, { waitMs: 0 });
    const openai = new ScriptedProvider('openai', 'demo-gpt');
    await resumeBuyerQuestionMaps(mapDependencies(store, [openai]));
    await until(() => store.mapRepository.latestCompleteJob(auditId) !== undefined);
    const map = store.mapRepository.latestCompleteJob(auditId)?.map as unknown as BuyerQuestionMap;
    expect(map.rows.map((row) => row.cells[1]?.failure?.kind)).toEqual(['provider_removed', 'provider_removed', 'provider_removed']);
    expect(map.summary.providersAnswered).toEqual(['openai']);
    expect(openai.calls).toHaveLength(3);
  });
});
