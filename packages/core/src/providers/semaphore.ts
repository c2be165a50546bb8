/** Gives a permit back; calling it more than once is harmless. */
export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/** A counting semaphore whose waiters are served first come, first served, and can give up on abort. */
export class Semaphore {
  private available: number;
  private readonly waiters: Waiter[] = [];
  private held = 0;

  constructor(readonly permits: number) {
    if (!Number.isInteger(permits) || permits < 1) throw new RangeError(`permits must be a positive integer, got ${permits}`);
    this.available = permits;
  }

  /** Permits currently held. */
  get inUse(): number {
    return this.held;
  }

  /** Callers waiting for a permit. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Resolves with a release function once a permit is free; rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.available > 0) {
      this.available -= 1;
      return Promise.resolve(this.newRelease());
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        signal,
        onAbort: () => {
          const index = this.waiters.indexOf(waiter);
          if (index !== -1) this.waiters.splice(index, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private newRelease(): Release {
    this.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
      const next = this.waiters.shift();
      if (next === undefined) {
        this.available += 1;
        return;
      }
      // Hand the permit straight to the oldest waiter so a newcomer cannot overtake it.
      next.signal?.removeEventListener('abort', next.onAbort);
      next.grant(this.newRelease());
    };
  }
}
