// Runs map jobs in this process. The job and its cells live in SQLite, so this only holds what cannot be
// stored: which jobs are being worked on here, who is waiting for them, and the stop switch.
//
// Each provider column is worked by at most `concurrencyPerProvider` workers (the lineup's own cap), so a
// call that has started is really at the provider and not queued behind other calls: when the service
// stops, workers take no new cell, the calls in flight get `graceMs` to finish and be stored, and only
// then are the rest cut. A cut cell is not stored, so the next start asks it (and only it) again.
//
// An answer the store refuses to write is not lost with the write: the runner holds it and writes it again
// (after the pass, with backoff, and first thing whenever the job runs again in this process), so a store
// that fails for a moment never makes a cell be asked, and paid for, twice.

import { setMaxListeners } from 'node:events';
import { rulesBrandExtractor } from '../extraction/second-opinion.js';
import type { MapCellRecord, MapJobRecord } from '../store/map-repository.js';
import { jobBrandMatcher, measureCell, unaskableCell } from './cell.js';
import { buildBuyerQuestionMap, cellKey } from './grid.js';
import type { BuyerQuestionMapDependencies } from './types.js';

/** Calls in flight per provider column when the service does not say (the lineup's default cap). */
export const DEFAULT_MAP_CONCURRENCY_PER_PROVIDER = 4;
/** How long stopping waits for calls in flight before cutting them. */
export const DEFAULT_MAP_STOP_GRACE_MS = 10_000;
/** How long stopping waits for cut calls to settle. */
const CUT_SETTLE_MS = 1_000;
/**
 * After a pass in which the store refused writes: the waits before each new try at writing the held answers
 * (and completing the job). About 4 s in all; then the job stalls until it runs again (a POST or a restart).
 */
export const MAP_STORE_RETRY_DELAYS_MS: readonly number[] = [100, 250, 500, 1_000, 2_000];

export interface BuyerQuestionMapRunnerOptions {
  /** Calls in flight per provider column; match the lineup's PROVIDER_CONCURRENCY. */
  concurrencyPerProvider?: number | undefined;
}

/** The jobs one process is running; create one per service with {@link createBuyerQuestionMapRunner}. */
export class BuyerQuestionMapRunner {
  private readonly active = new Map<string, Promise<void>>();
  private readonly stopListeners = new Set<() => void>();
  private readonly cut = new AbortController();
  /** Aborted as soon as stop() begins: ends the waits between store retries at once. */
  private readonly halt = new AbortController();
  /** Answers the store refused, by job then cell, written again before anything is asked. */
  private readonly held = new Map<string, Map<string, MapCellRecord>>();
  private stopping: Promise<void> | undefined;
  readonly concurrencyPerProvider: number;

  constructor(options: BuyerQuestionMapRunnerOptions = {}) {
    const concurrency = options.concurrencyPerProvider ?? DEFAULT_MAP_CONCURRENCY_PER_PROVIDER;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrencyPerProvider must be a whole number of at least 1, got ${concurrency}`);
    this.concurrencyPerProvider = concurrency;
    // Every call in flight listens on the one stop switch; that many listeners is the design, not a leak.
    setMaxListeners(0, this.cut.signal);
  }

  /** True once stop() was called: no job starts or takes a new cell. */
  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /** How many jobs this process is working on. */
  get activeJobs(): number {
    return this.active.size;
  }

  /** Whether this process is working on the job now (measuring it, or retrying writes the store refused). */
  isActive(auditId: string, generation: number): boolean {
    return this.active.has(jobKey(auditId, generation));
  }

  /** Works on a stored running job unless it already runs here or the runner stopped; true when it runs. */
  run(dependencies: BuyerQuestionMapDependencies, job: MapJobRecord): boolean {
    if (this.stopping !== undefined) return false;
    const key = jobKey(job.auditId, job.generation);
    if (this.active.has(key)) return true;
    const running = this.execute(dependencies, job).finally(() => this.active.delete(key));
    this.active.set(key, running);
    return true;
  }

  /** Resolves when the job finishes here, after `waitMs`, when the signal aborts or the runner stops, whichever is first. */
  waitFor(auditId: string, generation: number, waitMs: number, signal?: AbortSignal): Promise<void> {
    const running = this.active.get(jobKey(auditId, generation));
    if (running === undefined || this.stopping !== undefined || waitMs <= 0 || signal?.aborted === true) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.stopListeners.delete(done);
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      timer.unref();
      signal?.addEventListener('abort', done, { once: true });
      this.stopListeners.add(done);
      void running.then(done);
    });
  }

  /**
   * Stops taking cells, releases every waiting caller (they answer the running state), lets calls in flight
   * finish and be stored for up to `graceMs`, then cuts the rest. Jobs stay `running` in the store and
   * resume on the next start.
   */
  stop(graceMs: number = DEFAULT_MAP_STOP_GRACE_MS): Promise<void> {
    this.stopping ??= (async () => {
      this.halt.abort();
      for (const release of [...this.stopListeners]) release();
      const all = Promise.all(this.active.values());
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      this.cut.abort(new Error('the service is stopping'));
      // Adapters settle promptly once cut; a call that ignores the cut must not hold the shutdown forever.
      await Promise.race([all, new Promise<void>((resolve) => setTimeout(resolve, CUT_SETTLE_MS).unref())]);
    })();
    return this.stopping;
  }

  private async execute(dependencies: BuyerQuestionMapDependencies, job: MapJobRecord): Promise<void> {
    const { mapRepository, logger } = dependencies;
    const now = dependencies.now ?? (() => new Date());
    const log = logger.child({ auditId: job.auditId, generation: job.generation });
    const key = jobKey(job.auditId, job.generation);
    const held = this.held.get(key) ?? new Map<string, MapCellRecord>();
    this.held.set(key, held);
    try {
      // Answers a previous pass could not store are written first: they are never asked again.
      this.flush(dependencies, held);
      const stored = new Set(mapRepository.listCells(job.auditId, job.generation).map((cell) => cellKey(cell.questionIndex, cell.provider)));
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
            for (const questionIndex of pending) this.store(dependencies, held, unaskableCell(job, questionIndex, providerId, reason, now));
            return;
          }
          let next = 0;
          const worker = async (): Promise<void> => {
            while (this.stopping === undefined && next < pending.length) {
              const questionIndex = pending[next] as number;
              next += 1;
              const cell = await measureCell(provider, extractor, job, questionIndex, matcher, this.cut.signal, now);
              if (cell !== undefined) this.store(dependencies, held, cell);
            }
          };
          await Promise.all(Array.from({ length: Math.min(this.concurrencyPerProvider, pending.length) }, worker));
        }),
      );
      // Writes the store refused are tried again with the answers in hand, with backoff, until it takes them.
      for (let attempt = 0; ; attempt += 1) {
        if (this.finish(dependencies, job, held, log)) return;
        const delay = MAP_STORE_RETRY_DELAYS_MS[attempt];
        if (this.stopping !== undefined || delay === undefined) break;
        await pause(delay, this.halt.signal);
      }
      if (this.stopping !== undefined) {
        log.warn('buyer-question map job paused with answers the store refused; those cells are asked again on the next start', { held: held.size });
      } else {
        log.error('buyer-question map job stalled: the store keeps refusing its writes; they are written when the job next runs', { held: held.size });
      }
    } catch (error) {
      // A job never crashes the process; it stays running in the store and resumes on the next start.
      log.error('buyer-question map job failed', { error });
    } finally {
      if (held.size === 0) this.held.delete(key);
    }
  }

  /**
   * Writes the held answers, then completes the job once every cell is stored. True when this pass needs
   * nothing more (complete, or paused by a stop); false when the store refused a write and it is worth trying again.
   */
  private finish(
    dependencies: BuyerQuestionMapDependencies,
    job: MapJobRecord,
    held: Map<string, MapCellRecord>,
    log: BuyerQuestionMapDependencies['logger'],
  ): boolean {
    const { mapRepository } = dependencies;
    try {
      this.flush(dependencies, held);
      if (held.size > 0) return false;
      const cells = mapRepository.listCells(job.auditId, job.generation);
      const total = job.questions.length * job.providers.length;
      if (cells.length < total) {
        log.info('buyer-question map job paused; it resumes on the next start', { stored: cells.length, cells: total });
        return true;
      }
      const measuredAt = (dependencies.now ?? (() => new Date()))().toISOString();
      // The same competitor rules as the audit's, with its category (platforms and stores of other kinds left out).
      const category = dependencies.auditRepository.getAudit(job.auditId)?.category;
      if (mapRepository.completeJob(job.auditId, job.generation, buildBuyerQuestionMap(job, cells, measuredAt, category) as unknown as Record<string, unknown>, measuredAt)) {
        log.info('buyer-question map complete', { cells: total });
      }
      return true;
    } catch (error) {
      log.warn('buyer-question map: the store refused a write; trying again', { error });
      return false;
    }
  }

  /** Stores one finished cell; when the store refuses, the answer is held and written again later, never asked again. */
  private store(dependencies: BuyerQuestionMapDependencies, held: Map<string, MapCellRecord>, cell: MapCellRecord): void {
    try {
      dependencies.mapRepository.insertCell(cell);
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
    if (held.size > 0) this.flush(dependencies, held);
  }

  /** Writes held answers; those the store still refuses stay held. */
  private flush(dependencies: BuyerQuestionMapDependencies, held: Map<string, MapCellRecord>): void {
    for (const [key, cell] of held) {
      try {
        // False means it was stored meanwhile (another runner, another pass): either way it is in the store.
        dependencies.mapRepository.insertCell(cell);
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

function jobKey(auditId: string, generation: number): string {
  return `${auditId}#${generation}`;
}
