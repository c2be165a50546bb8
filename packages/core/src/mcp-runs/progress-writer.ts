// The store's copy of each run's progress, so every instance shows what the one working on the run
// publishes. A busy run publishes many times a second (every answer, every map poll): the writer keeps
// the store within about a second of it without hammering the database.

import type { Logger } from '../logging/logger.js';
import type { RunStore } from '../store/ports.js';
import type { VisibilityRunProgress } from './types.js';

/** At most one progress write per run in this long, apart from stage changes and the final flush. */
export const PROGRESS_WRITE_INTERVAL_MS = 1_000;

export interface ProgressWriterOptions {
  /** Defaults to {@link PROGRESS_WRITE_INTERVAL_MS}. */
  intervalMs?: number | undefined;
  /** A write the store refused is logged here and dropped: the next one carries the run further anyway. */
  logger?: Logger | undefined;
}

interface RunWrites {
  /** When the last write started (Date.now()); the throttle counts from it. */
  lastWriteAt: number;
  lastStage: string;
  /** The newest progress not written yet, waiting for the interval to pass. */
  pending: VisibilityRunProgress | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The run's writes, one after the other, so they land in the order published. */
  chain: Promise<void>;
}

/**
 * Throttled writes of runs' progress to the runs port: the first progress of a run and every stage change
 * at once, otherwise at most one write per interval, the newest progress of the interval written when it
 * ends (so the store never stays behind a run that went quiet). The store refuses a percent that goes back.
 */
export class ProgressWriter {
  private readonly runs = new Map<string, RunWrites>();
  private readonly intervalMs: number;

  constructor(
    private readonly store: Pick<RunStore, 'recordProgress'>,
    private readonly options: ProgressWriterOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? PROGRESS_WRITE_INTERVAL_MS;
  }

  /** Takes the run's newest progress: written now, or when the run's interval ends. */
  offer(runId: string, progress: VisibilityRunProgress): void {
    const now = Date.now();
    const writes = this.runs.get(runId);
    if (writes === undefined) {
      const started: RunWrites = { lastWriteAt: now, lastStage: progress.stage, pending: undefined, timer: undefined, chain: Promise.resolve() };
      this.runs.set(runId, started);
      this.write(runId, started, progress, now);
      return;
    }
    if (progress.stage !== writes.lastStage || now - writes.lastWriteAt >= this.intervalMs) {
      this.cancelTimer(writes);
      writes.pending = undefined;
      this.write(runId, writes, progress, now);
      return;
    }
    writes.pending = progress;
    if (writes.timer !== undefined) return;
    writes.timer = setTimeout(() => {
      writes.timer = undefined;
      const pending = writes.pending;
      writes.pending = undefined;
      if (pending !== undefined) this.write(runId, writes, pending, Date.now());
    }, writes.lastWriteAt + this.intervalMs - now);
    writes.timer.unref?.();
  }

  /** Writes the run's pending progress at once and forgets the run; resolves when its writes have landed. */
  async flush(runId: string): Promise<void> {
    const writes = this.runs.get(runId);
    if (writes === undefined) return;
    this.runs.delete(runId);
    this.cancelTimer(writes);
    if (writes.pending !== undefined) this.write(runId, writes, writes.pending, Date.now());
    writes.pending = undefined;
    await writes.chain;
  }

  /** Runs with a write pending or in flight (tests). */
  get trackedRuns(): number {
    return this.runs.size;
  }

  private write(runId: string, writes: RunWrites, progress: VisibilityRunProgress, at: number): void {
    writes.lastWriteAt = at;
    writes.lastStage = progress.stage;
    writes.chain = writes.chain
      .then(() => this.store.recordProgress(runId, progress))
      .then(
        () => undefined,
        (error: unknown) => this.options.logger?.warn('visibility run: could not store its progress', { runId, error }),
      );
  }

  private cancelTimer(writes: RunWrites): void {
    if (writes.timer === undefined) return;
    clearTimeout(writes.timer);
    writes.timer = undefined;
  }
}
