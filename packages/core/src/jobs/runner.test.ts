// The job runner on leases in SQLite, under fake timers: two runners on two connections to one database
// stand for two processes. A "dead" process is one whose every store call fails (it renews nothing and
// gives nothing back), exactly what a kill -9 leaves behind.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTempStores } from '../store/test-support/temp-stores.js';
import { createJobRunner, type JobContext, type JobOutcome, type JobRunner } from './runner.js';
import type { JobOwner, JobStore } from './types.js';

const stores = useTempStores('job-runner');
const A: JobOwner = { id: 'host/101/a', host: 'host', pid: 101 };
const B: JobOwner = { id: 'host/102/b', host: 'host', pid: 102 };

/** The store as a process sees it: once `dead` says so, every call fails (a killed process does nothing). */
function mortal(store: JobStore): { store: JobStore; kill(): void; revive(): void } {
  let dead = false;
  const proxy = new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => (dead ? Promise.reject(new Error('the process is gone')) : (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
  return { store: proxy, kill: () => (dead = true), revive: () => (dead = false) };
}

/** Work that runs until halted or cut and records who ran it. */
function recorder() {
  const runs: Array<{ owner: string; key: string; context: JobContext }> = [];
  const work = (owner: string) => async (context: JobContext): Promise<JobOutcome> => {
    runs.push({ owner, key: context.key, context });
    await new Promise<void>((resolve) => {
      if (context.halt.aborted) resolve();
      context.halt.addEventListener('abort', () => resolve(), { once: true });
      context.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return 'paused';
  };
  return { runs, work };
}

let runners: JobRunner[] = [];
beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
  runners = [];
});
afterEach(async () => {
  const stopping = Promise.all(runners.map((runner) => runner.stop(0)));
  await vi.advanceTimersByTimeAsync(5_000);
  await stopping;
  vi.useRealTimers();
});

function runner(store: JobStore, owner: JobOwner, options: { reclaimDeadLocalOwners?: boolean; isProcessAlive?: (pid: number) => boolean } = {}): JobRunner {
  const created = createJobRunner({ store, owner, ...options });
  runners.push(created);
  return created;
}

describe('JobRunner', () => {
  it('takes over a job whose owner died within 60 s, and never while the owner renews its lease', async () => {
    const first = mortal(stores.open().jobRepository);
    const { runs, work } = recorder();
    const a = runner(first.store, A);
    const b = runner(stores.open().jobRepository, B);
    a.register('work', { run: (_key, context) => work(A.id)(context) });
    b.register('work', { run: (_key, context) => work(B.id)(context) });
    expect(await a.submit('work', 'job-1')).toBe(true);
    expect(await b.submit('work', 'job-1')).toBe(false);
    await b.start();

    // Five minutes with A alive and heartbeating: B never runs the job.
    await vi.advanceTimersByTimeAsync(300_000);
    expect(runs.map((run) => run.owner)).toEqual([A.id]);

    // A dies right after a heartbeat: its lease lasts 30 s more, then B's next scan (every 5 s) takes over.
    await vi.advanceTimersByTimeAsync(10_000 - (Date.now() % 10_000));
    first.kill();
    const diedAt = Date.now();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(runs.map((run) => run.owner)).toEqual([A.id]);
    await vi.advanceTimersByTimeAsync(31_000);
    expect(runs.map((run) => run.owner)).toEqual([A.id, B.id]);
    const record = await b.describe('work', 'job-1');
    expect(record).toMatchObject({ owner: B.id, attempts: 2 });
    expect((record?.updatedAt ?? Infinity) - diedAt).toBeLessThanOrEqual(60_000);
    expect(b.isActive('work', 'job-1')).toBe(true);
  });

  it('cuts its own copy at the next heartbeat when another process took the job over (a long pause)', async () => {
    const first = mortal(stores.open().jobRepository);
    const { runs, work } = recorder();
    const a = runner(first.store, A);
    const b = runner(stores.open().jobRepository, B);
    b.register('work', { run: (_key, context) => work(B.id)(context) });
    await a.submit('work', 'job-2', work(A.id));
    first.kill(); // a pause: A's store calls fail for a while
    await b.start();
    await vi.advanceTimersByTimeAsync(40_000);
    expect(runs.map((run) => run.owner)).toEqual([A.id, B.id]);
    expect(runs[0]?.context.signal.aborted).toBe(false);
    first.revive();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs[0]?.context.signal.aborted).toBe(true);
    expect(a.isActive('work', 'job-2')).toBe(false);
    expect(await b.describe('work', 'job-2')).toMatchObject({ owner: B.id });
  });

  it('on stop, gives the leases of paused work back so another process resumes it at its next scan', async () => {
    const { runs, work } = recorder();
    const a = runner(stores.open().jobRepository, A);
    const b = runner(stores.open().jobRepository, B);
    b.register('work', { run: (_key, context) => work(B.id)(context) });
    await a.submit('work', 'job-3', work(A.id));
    await b.start();
    const stopped = a.stop(1_000);
    await vi.advanceTimersByTimeAsync(0);
    await stopped;
    expect(runs[0]?.context.halt.aborted).toBe(true);
    expect(await a.submit('work', 'job-4', work(A.id))).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs.map((run) => run.owner)).toEqual([A.id, B.id]);
  });

  it('finishes a job whose work is done: nobody takes it over', async () => {
    const a = runner(stores.open().jobRepository, A);
    const b = runner(stores.open().jobRepository, B);
    const taken = vi.fn(async (): Promise<JobOutcome> => 'done');
    b.register('work', { run: taken });
    await a.submit('work', 'job-5', async () => 'done');
    await vi.advanceTimersByTimeAsync(0);
    await b.start();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(taken).not.toHaveBeenCalled();
    expect(await b.describe('work', 'job-5')).toMatchObject({ status: 'done' });
  });

  it('on one host, takes over at once the jobs of an owner process that is gone; a live one keeps its jobs', async () => {
    const dead: JobOwner = { id: 'host/999/dead', host: 'host', pid: 999 };
    const alive: JobOwner = { id: 'host/998/alive', host: 'host', pid: 998 };
    const store = stores.open().jobRepository;
    await store.claim('work', 'left-by-dead', dead, 30_000, Date.now());
    await store.claim('work', 'held-by-alive', alive, 30_000, Date.now());
    const { runs, work } = recorder();
    const b = runner(stores.open().jobRepository, B, { reclaimDeadLocalOwners: true, isProcessAlive: (pid) => pid !== 999 });
    b.register('work', { run: (_key, context) => work(B.id)(context) });
    expect(await b.start()).toBe(1);
    expect(runs.map((run) => run.key)).toEqual(['left-by-dead']);
  });

  it('runs scheduled work on whichever process scans first once its time has come', async () => {
    const { runs, work } = recorder();
    const a = runner(stores.open().jobRepository, A);
    const b = runner(stores.open().jobRepository, B);
    for (const [owner, created] of [[A, a], [B, b]] as const) created.register('tick', { run: (_key, context) => work(owner.id)(context) });
    expect(await a.schedule('tick', 'watch-1@day-1', Date.now() + 60_000)).toBe(true);
    expect(await b.schedule('tick', 'watch-1@day-1', Date.now())).toBe(false);
    await Promise.all([a.start(), b.start()]);
    await vi.advanceTimersByTimeAsync(55_000);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs.map((run) => run.key)).toEqual(['watch-1@day-1']);
  });

  it('gives orphaned work (no lease row) a lease and runs it', async () => {
    const { runs, work } = recorder();
    const b = runner(stores.open().jobRepository, B);
    b.register('work', { run: (_key, context) => work(B.id)(context), orphans: async () => ['legacy-1', 'legacy-2'] });
    expect(await b.start()).toBe(2);
    expect(runs.map((run) => run.key).sort()).toEqual(['legacy-1', 'legacy-2']);
  });
});
