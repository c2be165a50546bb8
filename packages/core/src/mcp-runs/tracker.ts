// The MCP runs on the service's job runner (jobs/runner.ts): each run's background work holds the run's
// lease ('mcp-run', run id), so only one process works on a run and a run whose process died is taken
// over by another (an audit cannot resume: it fails as interrupted; a map is followed to its end). The
// latest progress of the runs this process works on is kept here, where a poll from another session on
// this process subscribes to hear it the moment it moves, and written to the store (throttled: see
// progress-writer.ts), where every other process reads it.

import { createJobRunner, type JobOutcome, type JobRunner } from '../jobs/runner.js';
import type { Logger } from '../logging/logger.js';
import type { RunStore } from '../store/ports.js';
import { ProgressWriter } from './progress-writer.js';
import type { VisibilityRunProgress } from './types.js';

/** The job kind of an MCP run; its key is the run id. */
export const MCP_RUN_JOB_KIND = 'mcp-run';

type ProgressListener = (progress: VisibilityRunProgress) => void;

export interface VisibilityRunTrackerOptions {
  /**
   * The service's one job runner (leases in the store, shared with the map jobs); a runner of its own
   * over leases in memory when absent (one process, nothing shared: unit tests).
   */
  jobs?: JobRunner | undefined;
  /**
   * Where each run's progress is stored for the other processes (the runs port); without it progress
   * stays in this process (unit tests of one process).
   */
  progressStore?: Pick<RunStore, 'recordProgress'> | undefined;
  /** At most one progress write per run in this long, apart from stage changes (default 1 s). */
  progressWriteIntervalMs?: number | undefined;
  /** Where a refused progress write is logged. */
  logger?: Logger | undefined;
}

/** The runs this process works on; create one per service with {@link createVisibilityRunTracker}. */
export class VisibilityRunTracker {
  readonly jobs: JobRunner;
  private readonly progress = new Map<string, VisibilityRunProgress>();
  private readonly listeners = new Map<string, Set<ProgressListener>>();
  private readonly writer: ProgressWriter | undefined;

  constructor(options: VisibilityRunTrackerOptions = {}) {
    this.jobs = options.jobs ?? createJobRunner();
    this.writer =
      options.progressStore === undefined
        ? undefined
        : new ProgressWriter(options.progressStore, { intervalMs: options.progressWriteIntervalMs, logger: options.logger });
  }

  /** True once the job runner stopped: no run starts. */
  get isStopping(): boolean {
    return this.jobs.isStopping;
  }

  /** How many runs this process is working on. */
  get activeRuns(): number {
    return this.jobs.activeCount(MCP_RUN_JOB_KIND);
  }

  /**
   * Runs the background work of a run under its lease unless the runner stopped or another live process
   * holds it; the signal aborts when the service stops (after its grace) or the lease is lost. The work
   * says whether the run is finished (`done`) or paused (`paused`: any process may resume it).
   */
  async run(runId: string, work: (signal: AbortSignal) => Promise<JobOutcome>): Promise<boolean> {
    return this.jobs.submit(MCP_RUN_JOB_KIND, runId, async ({ signal }) => {
      try {
        return await work(signal);
      } finally {
        // The last progress reaches the store before the lease is let go (another process may go on).
        await this.writer?.flush(runId);
        this.progress.delete(runId);
      }
    });
  }

  /** Holds the run's lease before its row is written, so no other process can take over a run being created. */
  reserve(runId: string): Promise<boolean> {
    return this.jobs.acquire(MCP_RUN_JOB_KIND, runId);
  }

  /** Gives up a reserved run that was not created (another start won) or was settled without background work. */
  async settle(runId: string): Promise<void> {
    await this.jobs.finish(MCP_RUN_JOB_KIND, runId, 'done');
  }

  /** Records a run's progress, tells whoever is waiting on it here and stores it (throttled) for the others. */
  publish(runId: string, progress: VisibilityRunProgress): void {
    const previous = this.progress.get(runId);
    // Progress only moves forward; a late event from a finished stage must not pull it back.
    const percent = Math.max(previous?.percent ?? 0, progress.percent);
    const current = { ...progress, percent };
    this.progress.set(runId, current);
    this.writer?.offer(runId, current);
    for (const listener of this.listeners.get(runId) ?? []) listener(current);
  }

  /** The latest progress of a run this process works on (fresher than the stored one, which trails it by up to a second). */
  latest(runId: string): VisibilityRunProgress | undefined {
    return this.progress.get(runId);
  }

  /** Calls the listener on each progress of the run; returns the unsubscribe function. */
  subscribe(runId: string, listener: ProgressListener): () => void {
    let set = this.listeners.get(runId);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(runId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(runId);
    };
  }

  /**
   * Stops the job runner (every job: see JobRunner.stop): work in flight gets `graceMs`, then is cut (an
   * audit's run then fails as interrupted; a run following its map is given back, to resume anywhere).
   */
  stop(graceMs: number): Promise<void> {
    return this.jobs.stop(graceMs);
  }
}

/** One tracker per service: the MCP tools and the shutdown go through it. */
export function createVisibilityRunTracker(options: VisibilityRunTrackerOptions = {}): VisibilityRunTracker {
  return new VisibilityRunTracker(options);
}
