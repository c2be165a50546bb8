// Runs map jobs on the service's job runner (jobs/runner.ts): a job is worked on only by the process that
// holds its lease, and a job whose owner died is taken over by another process from the cells already
// stored. The job and its cells live in the store, so this only holds what cannot be stored: answers the
// store refused to write.
//
// Each provider column is worked by at most `concurrencyPerProvider` workers (the lineup's own cap), so a
// call that has started is really at the provider and not queued behind other calls: when the service
// stops, workers take no new cell, the calls in flight get `graceMs` to finish and be stored, and only
// then are the rest cut. A cut cell is not stored, so the next start asks it (and only it) again.
//
// An answer the store refuses to write is not lost with the write: the runner holds it and writes it again
// (after the pass, with backoff, and first thing whenever the job runs again in this process), so a store
// that fails for a moment never makes a cell be asked, and paid for, twice.

import { rulesBrandExtractor } from '../extraction/second-opinion.js';
import { createJobRunner, type JobContext, type JobOutcome, type JobRunner } from '../jobs/runner.js';
import type { MapCellRecord, MapJobRecord } from '../store/map-repository.js';
import { jobBrandMatcher, measureCell, unaskableCell } from './cell.js';
import { buildBuyerQuestionMap, cellKey } from './grid.js';
import type { BuyerQuestionMapDependencies } from './types.js';

/** The job kind of a buyer-question map in the job runner; its key is `auditId#generation`. */
export const MAP_JOB_KIND = 'map';
/** Calls in flight per provider column when the service does not say (the lineup's default cap). */
export const DEFAULT_MAP_CONCURRENCY_PER_PROVIDER = 4;
/** How long stopping waits for calls in flight before cutting them. */
export const DEFAULT_MAP_STOP_GRACE_MS = 10_000;
/**
 * After a pass in which the store refused writes: the waits before each new try at writing the held answers
 * (and completing the job). About 4 s in all; then the job stalls until it runs again (a POST, a restart, or
 * the job runner's next takeover scan once its lease is given back).
 */
export const MAP_STORE_RETRY_DELAYS_MS: readonly number[] = [100, 250, 500, 1_000, 2_000];
/** How long a stalled job waits before any process may claim it again. */
export const MAP_STALL_RETRY_MS = 30_000;
/** How often a wait for a job another process works on reads the store. */
export const MAP_REMOTE_POLL_MS = 500;

export interface BuyerQuestionMapRunnerOptions {
  /** Calls in flight per provider column; match the lineup's PROVIDER_CONCURRENCY. */
  concurrencyPerProvider?: number | undefined;
  /**
   * The service's one job runner (leases in the store, shared with the MCP runs); a runner of its own
   * over leases in memory when absent (one process, nothing shared: unit tests).
   */
  jobs?: JobRunner | undefined;
}

/** The map jobs on the service's job runner; create one per service with {@link createBuyerQuestionMapRunner}. */
export class BuyerQuestionMapRunner {
  /** Answers the store refused, by job then cell, written again before anything is asked. */
  private readonly held = new Map<string, Map<string, MapCellRecord>>();
  /** Jobs whose last pass here ended with writes the store kept refusing. */
  private readonly stalled = new Set<string>();
  private registered: BuyerQuestionMapDependencies | undefined;
  readonly concurrencyPerProvider: number;
  readonly jobs: JobRunner;

  constructor(options: BuyerQuestionMapRunnerOptions = {}) {
    const concurrency = options.concurrencyPerProvider ?? DEFAULT_MAP_CONCURRENCY_PER_PROVIDER;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrencyPerProvider must be a whole number of at least 1, got ${concurrency}`);
    this.concurrencyPerProvider = concurrency;
    this.jobs = options.jobs ?? createJobRunner();
  }

  /**
   * Registers the map job kind with the job runner, so jobs other processes left (dead owners, given
   * back leases) are taken over with these dependencies. Every running map job without a lease is an orphan.
   */
  register(dependencies: BuyerQuestionMapDependencies): void {
    this.registered = dependencies;
    this.jobs.register(MAP_JOB_KIND, {
      run: (key, context) => this.resume(key, context),
      orphans: async () => (await dependencies.mapStore.runningJobs()).map((job) => jobKey(job.auditId, job.generation)),
    });
  }

  /** True once the job runner stopped: no job starts or takes a new cell. */
  get isStopping(): boolean {
    return this.jobs.isStopping;
  }

  /** How many map jobs this process is working on. */
  get activeJobs(): number {
    return this.jobs.activeCount(MAP_JOB_KIND);
  }

  /** Whether this process is working on the job now (measuring it, or retrying writes the store refused). */
  isActive(auditId: string, generation: number): boolean {
    return this.jobs.isActive(MAP_JOB_KIND, jobKey(auditId, generation));
  }

  /** Whether the job's last pass in this process ended with answers the store kept refusing. */
  hasStalled(auditId: string, generation: number): boolean {
    return this.stalled.has(jobKey(auditId, generation));
  }

  /**
   * Works on a stored running job unless it already runs here, another live process holds its lease,
   * or the runner stopped; true when it runs here.
   */
  run(dependencies: BuyerQuestionMapDependencies, job: MapJobRecord): Promise<boolean> {
    if (this.registered === undefined) this.register(dependencies);
    return this.jobs.submit(MAP_JOB_KIND, jobKey(job.auditId, job.generation), (context) => this.execute(dependencies, job, context));
  }

  /**
   * Resolves when the job finishes, after `waitMs`, when the signal aborts or the runner stops, whichever
   * is first. A job another process works on is followed in the store.
   */
  async waitFor(auditId: string, generation: number, waitMs: number, signal?: AbortSignal, mapStore?: BuyerQuestionMapDependencies['mapStore']): Promise<void> {
    if (this.jobs.isStopping || waitMs <= 0 || signal?.aborted === true) return;
    const key = jobKey(auditId, generation);
    const stopFollowing = new AbortController();
    let running = this.jobs.settled(MAP_JOB_KIND, key);
    if (running === undefined) {
      // Not here: wait only while another live process holds the job (it runs there), reading the store.
      if (mapStore === undefined) return;
      const lease = await this.jobs.describe(MAP_JOB_KIND, key);
      if (lease === undefined || lease.status !== 'open' || lease.owner === undefined) return;
      running = followInStore(mapStore, auditId, generation, stopFollowing.signal);
    }
    const follow = running;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        unsubscribe();
        stopFollowing.abort();
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      timer.unref();
      signal?.addEventListener('abort', done, { once: true });
      const unsubscribe = this.jobs.onStop(done);
      void follow.then(done);
    });
  }

  /**
   * Stops the job runner (every job: see JobRunner.stop). Jobs stay `running` in the store, their
   * leases given back, and resume on the next start or in another process.
   */
  stop(graceMs: number = DEFAULT_MAP_STOP_GRACE_MS): Promise<void> {
    return this.jobs.stop(graceMs);
  }

  /** A takeover: the job from its key, as the store holds it. */
  private async resume(key: string, context: JobContext): Promise<JobOutcome> {
    const dependencies = this.registered;
    if (dependencies === undefined) return 'paused';
    const [auditId, generation] = parseJobKey(key);
    const job = await dependencies.mapStore.job(auditId, generation);
    if (job === undefined || job.status === 'complete') return 'done';
    return this.execute(dependencies, job, context);
  }

  private async execute(dependencies: BuyerQuestionMapDependencies, job: MapJobRecord, context: JobContext): Promise<JobOutcome> {
    const { mapStore, logger } = dependencies;
    const now = dependencies.now ?? (() => new Date());
    const log = logger.child({ auditId: job.auditId, generation: job.generation });
    const key = jobKey(job.auditId, job.generation);
    const held = this.held.get(key) ?? new Map<string, MapCellRecord>();
    this.held.set(key, held);
    this.stalled.delete(key);
    const halted = (): boolean => context.halt.aborted;
    try {
      // Answers a previous pass could not store are written first: they are never asked again.
      await this.flush(dependencies, held);
      const stored = new Set((await mapStore.listCells(job.auditId, job.generation)).map((cell) => cellKey(cell.questionIndex, cell.provider)));
      const total = job.questions.length * job.providers.length;
      log.info('buyer-question map job running', { cells: total, alreadyStored: stored.size, held: held.size });
      const matcher = jobBrandMatcher(job);
      const extractor = dependencies.brandExtractor ?? rulesBrandExtractor;
      await Promise.all(
        job.providers.map(async ({ provider: providerId }) => {
          const pending = job.questions
            .map((_question, index) => index)
            .filter((index) => !stored.has(cellKey(index, providerId)) && !held.has(cellKey(index, providerId)));
          const provider = dependencies.lineup.get(providerId);
          if (provider === undefined || job.mode !== dependencies.mode) {
            // Asking another lineup would mix demo and live answers (or another vendor) into one map.
            const reason =
              provider === undefined
                ? `${providerId} is no longer configured, so this cell could not be asked`
                : `the service now runs the ${dependencies.mode} lineup, so this ${job.mode} cell could not be asked`;
            for (const questionIndex of pending) await this.store(dependencies, held, unaskableCell(job, questionIndex, providerId, reason, now));
            return;
          }
          let next = 0;
          const worker = async (): Promise<void> => {
            while (!halted() && next < pending.length) {
              const questionIndex = pending[next] as number;
              next += 1;
              const cell = await measureCell(provider, extractor, job, questionIndex, matcher, context.signal, now);
              if (cell !== undefined) await this.store(dependencies, held, cell);
            }
          };
          await Promise.all(Array.from({ length: Math.min(this.concurrencyPerProvider, pending.length) }, worker));
        }),
      );
      // Writes the store refused are tried again with the answers in hand, with backoff, until it takes them.
      for (let attempt = 0; ; attempt += 1) {
        const finished = await this.finish(dependencies, job, held, log);
        if (finished === 'complete') return 'done';
        if (finished === 'paused') return 'paused';
        const delay = MAP_STORE_RETRY_DELAYS_MS[attempt];
        if (halted() || delay === undefined) break;
        await pause(delay, context.halt);
      }
      if (halted()) {
        log.warn('buyer-question map job paused with answers the store refused; those cells are asked again on the next start', { held: held.size });
        return 'paused';
      }
      log.error('buyer-question map job stalled: the store keeps refusing its writes; they are written when the job next runs', { held: held.size });
      this.stalled.add(key);
      return { retryAfterMs: MAP_STALL_RETRY_MS };
    } catch (error) {
      // A job never crashes the process; it stays running in the store and resumes later (here or elsewhere).
      log.error('buyer-question map job failed', { error });
      return { retryAfterMs: MAP_STALL_RETRY_MS };
    } finally {
      if (held.size === 0) this.held.delete(key);
    }
  }

  /**
   * Writes the held answers, then completes the job once every cell is stored: `complete`, `paused` (a
   * stop left cells unasked), or `retry` when the store refused a write and it is worth trying again.
   */
  private async finish(
    dependencies: BuyerQuestionMapDependencies,
    job: MapJobRecord,
    held: Map<string, MapCellRecord>,
    log: BuyerQuestionMapDependencies['logger'],
  ): Promise<'complete' | 'paused' | 'retry'> {
    const { mapStore } = dependencies;
    try {
      await this.flush(dependencies, held);
      if (held.size > 0) return 'retry';
      const cells = await mapStore.listCells(job.auditId, job.generation);
      const total = job.questions.length * job.providers.length;
      if (cells.length < total) {
        log.info('buyer-question map job paused; it resumes on the next start', { stored: cells.length, cells: total });
        return 'paused';
      }
      const measuredAt = (dependencies.now ?? (() => new Date()))().toISOString();
      // The same competitor rules as the audit's, with its category (platforms and stores of other kinds left out).
      const category = (await dependencies.auditRepository.getAudit(job.auditId))?.category;
      if (await mapStore.completeJob(job.auditId, job.generation, buildBuyerQuestionMap(job, cells, measuredAt, category) as unknown as Record<string, unknown>, measuredAt)) {
        log.info('buyer-question map complete', { cells: total });
      }
      return 'complete';
    } catch (error) {
      log.warn('buyer-question map: the store refused a write; trying again', { error });
      return 'retry';
    }
  }

  /** Stores one finished cell; when the store refuses, the answer is held and written again later, never asked again. */
  private async store(dependencies: BuyerQuestionMapDependencies, held: Map<string, MapCellRecord>, cell: MapCellRecord): Promise<void> {
    try {
      await dependencies.mapStore.insertCell(cell);
    } catch (error) {
      held.set(cellKey(cell.questionIndex, cell.provider), cell);
      dependencies.logger.warn('storing a buyer-question map cell failed; its answer is held and written again', {
        auditId: cell.auditId,
        generation: cell.generation,
        error,
      });
      return;
    }
    // The store takes writes again: the answers it refused go in now.
    if (held.size > 0) await this.flush(dependencies, held);
  }

  /** Writes held answers; those the store still refuses stay held. */
  private async flush(dependencies: BuyerQuestionMapDependencies, held: Map<string, MapCellRecord>): Promise<void> {
    for (const [key, cell] of held) {
      try {
        // False means it was stored meanwhile (another runner, another pass): either way it is in the store.
        await dependencies.mapStore.insertCell(cell);
        held.delete(key);
      } catch {
        return;
      }
    }
  }
}

/** Waits, or stops waiting at once when the signal aborts. */
function pause(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, milliseconds);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** One runner per service: resume and stop go through it. */
export function createBuyerQuestionMapRunner(options: BuyerQuestionMapRunnerOptions = {}): BuyerQuestionMapRunner {
  return new BuyerQuestionMapRunner(options);
}

/** The job runner's key of one map job. */
export function jobKey(auditId: string, generation: number): string {
  return `${auditId}#${generation}`;
}

function parseJobKey(key: string): [string, number] {
  const at = key.lastIndexOf('#');
  return [key.slice(0, at), Number(key.slice(at + 1))];
}

/** Resolves once the job is no longer running in the store (read every MAP_REMOTE_POLL_MS). */
async function followInStore(
  mapStore: BuyerQuestionMapDependencies['mapStore'],
  auditId: string,
  generation: number,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    const job = await mapStore.job(auditId, generation);
    if (job === undefined || job.status !== 'running') return;
    await pause(MAP_REMOTE_POLL_MS, signal);
  }
}
