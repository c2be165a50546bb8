// Watches run end to end: the real SDK adapters against the provider simulator, a real SQLite store.
import { startSimulator, type RunningSimulator } from '@visibility/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJobRunner } from '../jobs/runner.js';
import { createLogger } from '../logging/logger.js';
import { createProviderLineup, type ProviderSettings } from '../providers/index.js';
import type { Provider, ProviderId } from '../providers/types.js';
import { useTempStores } from '../store/test-support/temp-stores.js';
import type { Store } from '../store/store.js';
import { createWatch, getWatchHistory, runWatchNow } from './operations.js';
import { WatchTracker, type TrackingDependencies } from './tracker.js';

const DEMO_MODELS: Record<ProviderId, string> = { openai: 'demo-gpt-4.1-mini', anthropic: 'demo-claude-sonnet-4-5', gemini: 'demo-gemini-2.5-flash' };
const OWNER = 'owner@pipedrive.test';
const START = new Date('2026-11-02T06:00:00.000Z');
const DAY = 86_400_000;

let simulator: RunningSimulator;
let lineup: Map<ProviderId, Provider>;
const stores = useTempStores('tracking');

beforeAll(async () => {
  simulator = await startSimulator({ seed: Number(process.env['TRACKING_SEED'] ?? 11) });
  const settings: Partial<Record<ProviderId, ProviderSettings>> = {};
  for (const id of ['openai', 'anthropic', 'gemini'] as const) settings[id] = { apiKey: 'demo-key', baseURL: simulator.baseUrls[id], model: DEMO_MODELS[id] };
  // a generous timeout: no test here is about timeouts, and a loaded CI machine (the refit test) slowed a call past 5 s
  lineup = createProviderLineup(settings, { timeoutMs: 15_000, maxRetries: 0, maxConcurrentPerProvider: 8 });
});
afterAll(async () => {
  await simulator.close();
});
beforeEach(() => {
  simulator.reset();
});

/** One process: a tracker and its job runner on one connection to the store. */
function trackerOn(store: Store, overrides: Partial<TrackingDependencies> = {}, jobClock: () => number = Date.now): WatchTracker {
  return new WatchTracker({
    watchRepository: store.watchRepository,
    jobs: createJobRunner({ store: store.jobRepository, now: jobClock }),
    lineup,
    mode: 'demo',
    baseUrl: 'http://visibility.test',
    logger: createLogger({ level: 'silent' }),
    now: () => START,
    concurrencyPerProvider: 8,
    ...overrides,
  });
}

async function newWatch(tracker: WatchTracker, body: Record<string, unknown> = {}): Promise<string> {
  const { watch } = await createWatch(tracker, OWNER, { brand: 'Pipedrive', category: 'CRM software', schedule: 'daily', ...body });
  return watch.id;
}

/** Runs the due watches at START + `day` days and waits for the runs to end. */
async function runDay(tracker: WatchTracker, day: number): Promise<void> {
  const started = await tracker.runDue(new Date(START.getTime() + day * DAY));
  expect(started.length).toBe(1);
  await tracker.idle();
}

describe('a watch over time against the simulator', () => {
  it('stays quiet over 30 runs of an unchanged world (at most one change)', async () => {
    const tracker = trackerOn(stores.open());
    const watchId = await newWatch(tracker);
    // The noisiest unchanged world there is: every answer names the brand with probability one half.
    simulator.setBrandRate('Pipedrive', 0.5);
    for (let day = 0; day < 30; day++) await runDay(tracker, day);
    simulator.setBrandRate('Pipedrive', undefined);
    const history = await getWatchHistory(tracker, OWNER, watchId);
    expect(history.points).toHaveLength(30);
    // The brand really is named in some answers and not others: the quiet is not a flat line.
    const rates = history.points.map((point) => point.overall.mentionRate ?? 0);
    expect(Math.min(...rates)).toBeGreaterThan(0);
    expect(Math.max(...rates)).toBeLessThan(1);
    if (process.env['TRACKING_REPORT'] !== undefined) console.log('quiet world: changes over 30 runs', history.changes.length, JSON.stringify(history.changes.map((change) => [change.provider, change.kind, change.competitor, change.from, change.to, change.pValue])), 'rates', rates.join(' '));
    expect(history.changes.length).toBeLessThanOrEqual(1);
    for (const point of history.points) {
      expect(point.overall.low).toBeLessThanOrEqual(point.overall.mentionRate ?? 0);
      expect(point.overall.high).toBeGreaterThanOrEqual(point.overall.mentionRate ?? 0);
      expect(Object.keys(point.providers).sort()).toEqual(['anthropic', 'gemini', 'openai']);
    }
  }, 240_000);

  it('detects a real fall when the world shifts the brand (about 90% to 30%), once, and then stays quiet at the new level', async () => {
    const tracker = trackerOn(stores.open());
    const watchId = await newWatch(tracker);
    for (let day = 0; day < 4; day++) await runDay(tracker, day);
    expect((await getWatchHistory(tracker, OWNER, watchId)).changes).toEqual([]);
    simulator.setBrandRate('Pipedrive', 0.3);
    await runDay(tracker, 4);
    const history = await getWatchHistory(tracker, OWNER, watchId);
    const overall = history.changes.find((change) => change.provider === 'overall' && change.competitor === undefined);
    expect(overall).toMatchObject({ direction: 'down', runId: history.points[4]?.runId });
    expect(overall?.pValue).toBeLessThan(overall?.threshold ?? 0);
    expect(overall?.to).toBeLessThan(overall?.from ?? 0);
    expect(overall?.toInterval[1]).toBeLessThan(overall?.fromInterval[0] ?? 0);
    await runDay(tracker, 5);
    await runDay(tracker, 6);
    const later = await getWatchHistory(tracker, OWNER, watchId);
    // The next runs at the new level are compared with it, not with the old one: the series that changed
    // does not alert again. A provider whose own fall only became significant with more runs may alert
    // later, for the same real fall (down, to the new level).
    const afterwards = later.changes.filter((change) => change.competitor === undefined && change.runId !== overall?.runId);
    const changedFirst = new Set(history.changes.filter((change) => change.competitor === undefined).map((change) => change.provider));
    for (const change of afterwards) {
      expect(changedFirst.has(change.provider)).toBe(false);
      expect(change.direction).toBe('down');
    }
    simulator.setBrandRate('Pipedrive', undefined);
  }, 120_000);

  it('runs a due watch once when two processes look at the same time', async () => {
    const first = trackerOn(stores.open());
    const second = trackerOn(stores.open());
    await newWatch(first, { samples: 1, providers: ['openai'] });
    const [a, b] = await Promise.all([first.runDue(START), second.runDue(START)]);
    expect(a.length + b.length).toBe(1);
    await Promise.all([first.idle(), second.idle()]);
    // Asked again at the same moment: nothing is due any more.
    expect(await first.runDue(START)).toEqual([]);
  });

  it('resumes a run cut off by a crash without asking again for the answers it has', async () => {
    const store = stores.open();
    const setup = trackerOn(store);
    const watchId = await newWatch(setup, { samples: 2, providers: ['openai', 'gemini'] });
    const watch = (await store.watchRepository.getWatch(watchId))!;
    // A process on another host claimed the run as a leased job, stored the answers of its first three
    // questions on openai, and died.
    const run = await store.watchRepository.claimScheduledRun({
      watchId,
      expectedNextRunAt: watch.nextRunAt,
      nextRunAt: new Date(START.getTime() + DAY).toISOString(),
      run: setup.newRun(watch, START),
      now: START.toISOString(),
    });
    const claimedAt = Date.now();
    expect(await store.jobRepository.claim('watch-run', run!.id, { id: 'dead-owner', host: 'elsewhere', pid: 4242 }, 30_000, claimedAt)).toBeDefined();
    for (let question = 0; question < 3; question++) {
      for (let sample = 0; sample < 2; sample++) {
        await store.watchRepository.insertAnswer({
          runId: run!.id, questionIndex: question, provider: 'openai', sampleIndex: sample, ok: true, model: 'demo-gpt-4.1-mini-2025-04-14',
          answer: 'Pipedrive and HubSpot.', brands: ['Pipedrive', 'HubSpot'], named: true, position: 1, failureKind: null, costMicroUsd: 0, answeredAt: START.toISOString(),
        });
      }
    }
    const total = watch.questions.length * 2 * 2;
    // While the dead owner's lease runs, nobody takes the run over.
    const survivor = trackerOn(stores.open(), {}, () => claimedAt + 10_000);
    expect(await survivor.tick(START)).toEqual([]);
    // Once it has run out, the next scan takes the run over and asks only what is missing.
    const later = trackerOn(stores.open(), {}, () => claimedAt + 31_000);
    simulator.clearRequests();
    const resumed = await later.tick(START);
    expect(resumed.map((entry) => entry.id)).toEqual([run!.id]);
    await later.idle();
    const asked = simulator.requests().filter((request) => watch.questions.includes(request.prompt));
    expect(asked).toHaveLength(total - 6);
    expect(asked.filter((request) => request.provider === 'openai' && watch.questions.slice(0, 3).includes(request.prompt))).toEqual([]);
    expect(await store.watchRepository.getRun(run!.id)).toMatchObject({ status: 'complete' });
    expect(await store.watchRepository.countAnswers(run!.id)).toBe(total);
    expect(await store.jobRepository.get('watch-run', run!.id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('records a run the budget cannot pay for as skipped, with the reason, and moves the schedule on', async () => {
    const store = stores.open();
    const resetAt = new Date('2026-12-01T00:00:00.000Z');
    const tracker = trackerOn(store, {
      budget: {
        hasBudgetLeft: async () => false,
        status: async () => ({ resetAt }) as never,
        prices: { costMicroUsd: () => 0 } as never,
      },
    });
    const watchId = await newWatch(tracker);
    simulator.clearRequests();
    const [run] = await tracker.runDue(START);
    expect(run).toMatchObject({ status: 'skipped' });
    expect(run?.reason).toContain('budget');
    expect(run?.reason).toContain(resetAt.toISOString());
    expect(simulator.requests()).toEqual([]);
    const history = await getWatchHistory(tracker, OWNER, watchId);
    expect(history.points).toEqual([]);
    expect(history.skipped).toEqual([{ runId: run?.id, at: START.toISOString(), status: 'skipped', reason: run?.reason }]);
    expect(history.watch.nextRunAt).toBe(new Date(START.getTime() + DAY).toISOString());
    // Run now is recorded the same way, and spends no credit.
    await store.accountRepository.grantCredits(OWNER, 1);
    const now = await runWatchNow(tracker, OWNER, watchId);
    expect(now.run).toMatchObject({ status: 'skipped', trigger: 'manual', reason: run?.reason });
    expect((await store.accountRepository.getAccount(OWNER))?.credits).toBe(1);
    expect(simulator.requests()).toEqual([]);
  });

  it('runs now for one credit, joins a running run for nothing, and refuses without credit', async () => {
    const store = stores.open();
    const tracker = trackerOn(store);
    const watchId = await newWatch(tracker, { samples: 1 });
    await expect(runWatchNow(tracker, OWNER, watchId)).rejects.toMatchObject({ isFieldError: false, code: 'no_credits' });
    await store.accountRepository.grantCredits(OWNER, 1);
    const first = await runWatchNow(tracker, OWNER, watchId);
    const again = await runWatchNow(tracker, OWNER, watchId);
    expect(again).toMatchObject({ joined: true, run: { id: first.run.id } });
    expect((await store.accountRepository.getAccount(OWNER))?.credits).toBe(0);
    await tracker.idle();
    await expect(runWatchNow(tracker, 'someone@else.test', watchId)).rejects.toMatchObject({ isFieldError: false, code: 'watch_not_found' });
  });
});
