// A map job whose process died is taken over by another process within 60 s and asks only the cells
// that were not stored. Two connections to one SQLite file, each with its own job runner, stand for two
// processes; the dead one's store calls all fail (it renews no lease). Fake timers: no real waiting.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createJobRunner, type JobRunner } from '../jobs/runner.js';
import type { JobOwner, JobStore } from '../jobs/types.js';
import { fakeAnswer } from '../providers/test-support/fake-provider.js';
import type { Answer } from '../providers/types.js';
import { useTempStores } from '../store/test-support/temp-stores.js';
import { getBuyerQuestionMap, startBuyerQuestionMap } from './operations.js';
import { createBuyerQuestionMapRunner } from './runner.js';
import { insertAudit, mapDependencies, QUESTIONS, ScriptedProvider } from './test-support/map-fixtures.js';

const stores = useTempStores('map-takeover');
const A: JobOwner = { id: 'host-a/1/a', host: 'host-a', pid: 1 };
const B: JobOwner = { id: 'host-b/2/b', host: 'host-b', pid: 2 };

function mortal(store: JobStore): { store: JobStore; kill(): void } {
  let dead = false;
  const proxy = new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => (dead ? Promise.reject(new Error('the process is gone')) : (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
  return { store: proxy, kill: () => (dead = true) };
}

let runners: JobRunner[] = [];
beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-03-10T12:00:00.000Z') });
  runners = [];
});
afterEach(async () => {
  const stopping = Promise.all(runners.map((runner) => runner.stop(0)));
  await vi.advanceTimersByTimeAsync(5_000);
  await stopping;
  vi.useRealTimers();
});

describe('buyer-question map: takeover by another process', () => {
  it('finishes on the survivor within 60 s of the owner dying, asking only the cells that were not stored', async () => {
    const storeA = stores.open();
    const storeB = stores.open();
    const auditId = await insertAudit(storeA);
    // Process A: the first openai answer is stored, then every call hangs (A dies with them in flight).
    let askedA = 0;
    const hang = new Promise<Answer>(() => {});
    const openaiA = new ScriptedProvider('openai', 'demo-gpt', async (_request, provider) => (++askedA === 1 ? fakeAnswer('Pipedrive first.', provider.id) : hang));
    const geminiA = new ScriptedProvider('gemini', 'demo-gemini', () => hang);
    const a = mortal(storeA.jobRepository);
    const jobsA = createJobRunner({ store: a.store, owner: A });
    const jobsB = createJobRunner({ store: storeB.jobRepository, owner: B });
    runners.push(jobsA, jobsB);
    const processA = { ...mapDependencies(storeA, [openaiA, geminiA], { concurrency: 1 }), runner: createBuyerQuestionMapRunner({ concurrencyPerProvider: 1, jobs: jobsA }) };
    await startBuyerQuestionMap(processA, { auditId }, { waitMs: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(storeA.mapRepository.countCells(auditId, 1)).toBe(1);

    // Process B runs beside it with a healthy lineup and its job runner started.
    const openaiB = new ScriptedProvider('openai', 'demo-gpt');
    const geminiB = new ScriptedProvider('gemini', 'demo-gemini');
    const processB = { ...mapDependencies(storeB, [openaiB, geminiB]), runner: createBuyerQuestionMapRunner({ concurrencyPerProvider: 2, jobs: jobsB }) };
    processB.runner.register(processB);
    await jobsB.start();
    // While A lives, B leaves the job alone, and a POST on B joins it: it waits on the stored state
    // (up to its wait) and answers the running state without asking anything.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await getBuyerQuestionMap(processB, auditId)).toMatchObject({ status: 'running', progress: { completed: 1, total: 6 } });
    let joined: unknown;
    void startBuyerQuestionMap(processB, { auditId }, { waitMs: 3_000 }).then((answer) => (joined = answer));
    await vi.advanceTimersByTimeAsync(2_900);
    expect(joined).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    expect(joined).toMatchObject({ status: 'running', progress: { completed: 1, total: 6 } });
    expect(openaiB.calls.length + geminiB.calls.length).toBe(0);

    a.kill();
    const diedAt = Date.now();
    let finishedAt: number | undefined;
    while (finishedAt === undefined && Date.now() - diedAt <= 60_000) {
      await vi.advanceTimersByTimeAsync(1_000);
      if (storeB.mapRepository.latestCompleteJob(auditId) !== undefined) finishedAt = Date.now();
    }
    expect(finishedAt).toBeDefined();
    // Only the cells A had not stored were asked again: openai's first answer is A's.
    expect(openaiB.calls.map((call) => call.prompt)).toEqual(QUESTIONS.slice(1));
    expect(geminiB.calls.map((call) => call.prompt)).toEqual(QUESTIONS);
    const map = await getBuyerQuestionMap(processB, auditId);
    expect('map' in map && map.map.rows[0]?.cells[0]?.answer).toBe('Pipedrive first.');
    expect(await jobsB.describe('map', `${auditId}#1`)).toMatchObject({ status: 'done', attempts: 2 });
  });
});
