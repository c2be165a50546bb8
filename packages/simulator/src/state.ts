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

  /** Back to a fresh simulator with the same seed: same answers replay from the first call. */
  reset(): void {
    this.log = [];
    this.faults.clear();
    this.counters.clear();
    this.brandRates.clear();
    this.latencyMs = this.initialLatencyMs;
  }
}
