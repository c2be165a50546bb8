// Runs map jobs in this process. The job and its cells live in SQLite, so this only holds what cannot be
// stored: which jobs are being worked on here, who is waiting for them, and the stop switch.
//
// Each provider column is worked by at most `concurrencyPerProvider` workers (the lineup's own cap), so a
// call that has started is really at the provider and not queued behind other calls: when the service
// stops, workers take no new cell, the calls in flight get `graceMs` to finish and be stored, and only
// then are the rest cut. A cut cell is not stored, so the next start asks it (and only it) again.

import { setMaxListeners } from 'node:events';
import type { MapJobRecord } from '../store/map-repository.js';
import { jobBrandMatcher, measureCell, unaskableCell } from './cell.js';
import { buildBuyerQuestionMap, cellKey } from './grid.js';
import type { BuyerQuestionMapDependencies } from './types.js';

/** Calls in flight per provider column when the service does not say (the lineup's default cap). */
export const DEFAULT_MAP_CONCURRENCY_PER_PROVIDER = 4;
/** How long stopping waits for calls in flight before cutting them. */
export const DEFAULT_MAP_STOP_GRACE_MS = 10_000;
/** How long stopping waits for cut calls to settle. */
const CUT_SETTLE_MS = 1_000;

export interface BuyerQuestionMapRunnerOptions {
  /** Calls in flight per provider column; match the lineup's PROVIDER_CONCURRENCY. */
  concurrencyPerProvider?: number | undefined;
}

/** The jobs one process is running; create one per service with {@link createBuyerQuestionMapRunner}. */
export class BuyerQuestionMapRunner {
  private readonly active = new Map<string, Promise<void>>();
  private readonly stopListeners = new Set<() => void>();
  private readonly cut = new AbortController();
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
    try {
      const stored = new Set(mapRepository.listCells(job.auditId, job.generation).map((cell) => cellKey(cell.questionIndex, cell.provider)));
      const total = job.questions.length * job.providers.length;
      log.info('buyer-question map job running', { cells: total, alreadyStored: stored.size });
      const matcher = jobBrandMatcher(job);
      await Promise.all(
        job.providers.map(async ({ provider: providerId }) => {
          const pending = job.questions.map((_question, index) => index).filter((index) => !stored.has(cellKey(index, providerId)));
          const provider = dependencies.lineup.get(providerId);
          if (provider === undefined || job.mode !== dependencies.mode) {
            // Asking another lineup would mix demo and live answers (or another vendor) into one map.
            const reason =
              provider === undefined
                ? `${providerId} is no longer configured, so this cell could not be asked`
                : `the service now runs the ${dependencies.mode} lineup, so this ${job.mode} cell could not be asked`;
            for (const questionIndex of pending) this.store(dependencies, unaskableCell(job, questionIndex, providerId, reason, now));
            return;
          }
          let next = 0;
          const worker = async (): Promise<void> => {
            while (this.stopping === undefined && next < pending.length) {
              const questionIndex = pending[next] as number;
              next += 1;
              const cell = await measureCell(provider, job, questionIndex, matcher, this.cut.signal, now);
              if (cell !== undefined) this.store(dependencies, cell);
            }
          };
          await Promise.all(Array.from({ length: Math.min(this.concurrencyPerProvider, pending.length) }, worker));
        }),
      );
      const cells = mapRepository.listCells(job.auditId, job.generation);
      if (cells.length < total) {
        log.info('buyer-question map job paused; it resumes on the next start', { stored: cells.length, cells: total });
        return;
      }
      const measuredAt = now().toISOString();
      if (mapRepository.completeJob(job.auditId, job.generation, buildBuyerQuestionMap(job, cells, measuredAt) as unknown as Record<string, unknown>, measuredAt)) {
        log.info('buyer-question map complete', { cells: total });
      }
    } catch (error) {
      // A job never crashes the process; it stays running in the store and resumes on the next start.
      log.error('buyer-question map job failed', { error });
    }
  }

  private store(dependencies: BuyerQuestionMapDependencies, cell: Parameters<BuyerQuestionMapDependencies['mapRepository']['insertCell']>[0]): void {
    try {
      dependencies.mapRepository.insertCell(cell);
    } catch (error) {
      // The answer is lost (the store refused it); the cell stays unstored and is asked again on resume.
      dependencies.logger.error('storing a buyer-question map cell failed', { auditId: cell.auditId, generation: cell.generation, error });
    }
  }
}

/** One runner per service: resume and stop go through it. */
export function createBuyerQuestionMapRunner(options: BuyerQuestionMapRunnerOptions = {}): BuyerQuestionMapRunner {
  return new BuyerQuestionMapRunner(options);
}

function jobKey(auditId: string, generation: number): string {
  return `${auditId}#${generation}`;
}
