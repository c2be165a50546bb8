import { FaultQueue } from './faults.js';
import type { RecordedRequest, WireProvider } from './types.js';

/** How many requests the log keeps; the oldest go first, so a long-running demo cannot grow without bound. */
export const MAX_RECORDED_REQUESTS = 10_000;

/** The simulator's mutable state: request log, fault queue, latency and per-prompt call counters. */
export class SimulatorState {
  readonly faults = new FaultQueue();
  latencyMs: number;
  private log: RecordedRequest[] = [];
  private readonly counters = new Map<string, number>();
  /** Brands whose mention rate was set (lower-cased name -> probability per answer): shifts the world for tests. */
  readonly brandRates = new Map<string, number>();
  /** While set, answers wait until this many provider requests have arrived (a test's proof of concurrency). */
  private barrier: { count: number; arrived: number; release: () => void; released: Promise<void> } | undefined;

  constructor(
    readonly seed: number,
    private readonly initialLatencyMs: number,
  ) {
    this.latencyMs = initialLatencyMs;
  }

  /** Adds a request to the log and returns the live entry, so its status can be filled in later. */
  record(entry: RecordedRequest): RecordedRequest {
    this.log.push(entry);
    if (this.log.length > MAX_RECORDED_REQUESTS) this.log.splice(0, this.log.length - MAX_RECORDED_REQUESTS);
    return entry;
  }

  /** Copies of the logged requests, oldest first. */
  requests(): RecordedRequest[] {
    return this.log.map((entry) => ({ ...entry, headers: { ...entry.headers } }));
  }

  clearRequests(): number {
    const count = this.log.length;
    this.log = [];
    return count;
  }

  /** The call number for this (provider, model, prompt), counting from 0; each answered call takes the next one. */
  nextCounter(provider: WireProvider, model: string, prompt: string): number {
    const key = `${provider}\u241f${model}\u241f${prompt}`;
    const counter = this.counters.get(key) ?? 0;
    this.counters.set(key, counter + 1);
    return counter;
  }

  /** Sets (or, with undefined, clears) the probability that an answer names the brand. */
  setBrandRate(brand: string, rate: number | undefined): void {
    const key = brand.trim().toLowerCase();
    if (rate === undefined) {
      this.brandRates.delete(key);
      return;
    }
    if (!(rate >= 0 && rate <= 1)) throw new RangeError(`a brand rate is a probability from 0 to 1, got ${rate}`);
    this.brandRates.set(key, rate);
  }

  /**
   * Holds every answer until `count` provider requests have arrived, then lets them all go; resolves then.
   * A client that waits for one answer before asking the next never gets there (its test times out).
   */
  holdAnswersUntil(count: number): Promise<void> {
    this.barrier?.release();
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.barrier = { count: Math.max(1, count), arrived: 0, release, released };
    return released;
  }

  /** A provider request arrives: it waits at the barrier, if one is up, until the barrier falls. */
  arrive(): Promise<void> {
    const barrier = this.barrier;
    if (barrier === undefined) return Promise.resolve();
    barrier.arrived += 1;
    if (barrier.arrived >= barrier.count) {
      this.barrier = undefined;
      barrier.release();
    }
    return barrier.released;
  }

  /** Back to a fresh simulator with the same seed: same answers replay from the first call. */
  reset(): void {
    this.barrier?.release();
    this.barrier = undefined;
    this.log = [];
    this.faults.clear();
    this.counters.clear();
    this.brandRates.clear();
    this.latencyMs = this.initialLatencyMs;
  }
}
