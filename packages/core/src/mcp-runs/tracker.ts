// What of a run lives only in this process: the background work, its stop switch and the latest progress
// (the store has the state, not the per-answer progress). A poll from another session subscribes here
// to hear the progress the moment it moves.

import { setMaxListeners } from 'node:events';
import type { VisibilityRunProgress } from './types.js';

/** How long stopping waits for cut work to settle before giving up on it. */
const CUT_SETTLE_MS = 2_000;

type ProgressListener = (progress: VisibilityRunProgress) => void;

/** The runs one process works on; create one per service with {@link createVisibilityRunTracker}. */
export class VisibilityRunTracker {
  private readonly work = new Map<string, Promise<void>>();
  private readonly progress = new Map<string, VisibilityRunProgress>();
  private readonly listeners = new Map<string, Set<ProgressListener>>();
  private readonly cut = new AbortController();
  private stopping: Promise<void> | undefined;

  constructor() {
    // Every audit in flight listens on the one stop switch; that many listeners is the design, not a leak.
    setMaxListeners(0, this.cut.signal);
  }

  /** True once stop() was called: no run starts. */
  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /** How many runs this process is working on. */
  get activeRuns(): number {
    return this.work.size;
  }

  /** Runs the background work of a run unless the tracker stopped; the signal aborts when the service stops. */
  run(runId: string, work: (signal: AbortSignal) => Promise<void>): boolean {
    if (this.stopping !== undefined || this.work.has(runId)) return false;
    const running = work(this.cut.signal)
      .catch(() => undefined)
      .finally(() => {
        this.work.delete(runId);
        this.progress.delete(runId);
      });
    this.work.set(runId, running);
    return true;
  }

  /** Records a run's progress and tells whoever is waiting on it. */
  publish(runId: string, progress: VisibilityRunProgress): void {
    const previous = this.progress.get(runId);
    // Progress only moves forward; a late event from a finished stage must not pull it back.
    const percent = Math.max(previous?.percent ?? 0, progress.percent);
    const current = { ...progress, percent };
    this.progress.set(runId, current);
    for (const listener of this.listeners.get(runId) ?? []) listener(current);
  }

  /** The latest progress of a run this process works on. */
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
   * Takes no new run, lets the work in flight finish for up to `graceMs`, then cuts it (its run is then
   * failed as interrupted, or, while mapping, left to the map's own resume) and waits briefly for it to settle.
   */
  stop(graceMs: number): Promise<void> {
    this.stopping ??= (async () => {
      const all = Promise.all(this.work.values());
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      this.cut.abort(new Error('the service is stopping'));
      await Promise.race([all, new Promise<void>((resolve) => setTimeout(resolve, CUT_SETTLE_MS).unref())]);
    })();
    return this.stopping;
  }
}

/** One tracker per service: the MCP tools and the shutdown go through it. */
export function createVisibilityRunTracker(): VisibilityRunTracker {
  return new VisibilityRunTracker();
}
