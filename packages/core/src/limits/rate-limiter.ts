import type { CounterWindow, RateLimitRepository } from '../store/rate-limit-repository.js';
import {
  LIMIT_POLICIES,
  validateLimitPolicies,
  type LimitCode,
  type LimitedOperation,
  type LimitPolicies,
  type LimitRule,
  type LimitScope,
} from './policies.js';

/** The limit a decision is about, for headers and messages. */
export interface LimitDescription {
  name: string;
  max: number;
  windowSeconds: number;
  scope: LimitScope;
}

/** The call may go ahead; numbers are those of the tightest limit (they feed the X-RateLimit-* headers). */
export interface RateLimitAllowed {
  allowed: true;
  /** Calls left in the tightest limit's window after this one (for `peek`: before any call). */
  remaining: number;
  /** When the tightest limit's window ends. */
  resetAt: Date;
  limit: LimitDescription;
}

/** The call must not go ahead; nothing was counted. */
export interface RateLimitRefused {
  allowed: false;
  code: LimitCode;
  /** Whole seconds until every exhausted limit has reset, at least 1 (the Retry-After value). */
  retryAfterSeconds: number;
  resetAt: Date;
  /** The exhausted limit that resets last: waiting for it is enough for all of them. */
  limit: LimitDescription;
}

export type RateLimitDecision = RateLimitAllowed | RateLimitRefused;

export interface RateLimiter<Operation extends string = LimitedOperation> {
  /** Counts one call against every limit of the operation, or none of them when any is exhausted. */
  consume(operation: Operation, callerKey: string): RateLimitDecision;
  /** What consume would answer now, without counting anything. */
  peek(operation: Operation, callerKey: string): RateLimitDecision;
  /** Deletes counters of ended windows (consume also does this about once a minute); returns how many. */
  prune(): number;
}

export interface RateLimiterOptions<Operation extends string> {
  /** Limits per operation (default {@link LIMIT_POLICIES}). */
  policies?: LimitPolicies<Operation>;
  /** The clock; tests pass a fake one. */
  now?: () => Date;
  /** Minimum time between automatic prunes, in ms (default one minute). */
  pruneIntervalMs?: number;
  /**
   * Operations whose counters live in this process's memory instead of SQLite: no write per call,
   * but they start from zero when the process restarts and are not shared with other processes on
   * the same DATA_DIR. Only for operations that spend no money (the service: getBuyerQuestionMap).
   */
  inMemoryOperations?: readonly NoInfer<Operation>[];
}

/** What the limiter needs from a counter store: SQLite ({@link RateLimitRepository}) or {@link MemoryCounters}. */
interface CounterStore {
  usedCounts(windows: readonly CounterWindow[]): number[];
  incrementAll(windows: readonly CounterWindow[]): void;
  pruneEndedBefore(nowMs: number): number;
  transaction<T>(work: () => T): T;
}

/**
 * Fixed-window counters in a Map: one entry per limit and caller, holding only the current window
 * (a call in a later window starts it again from zero), deleted once its window has ended.
 */
export class MemoryCounters implements CounterStore {
  private readonly counters = new Map<string, { windowStartMs: number; windowEndMs: number; used: number }>();

  /** How many counters are held (each a caller of one limit whose window has not been pruned). */
  get size(): number {
    return this.counters.size;
  }

  usedCounts(windows: readonly CounterWindow[]): number[] {
    return windows.map((window) => {
      const counter = this.counters.get(counterKey(window));
      return counter !== undefined && counter.windowStartMs === window.windowStartMs ? counter.used : 0;
    });
  }

  incrementAll(windows: readonly CounterWindow[]): void {
    for (const window of windows) {
      const key = counterKey(window);
      const counter = this.counters.get(key);
      if (counter !== undefined && counter.windowStartMs === window.windowStartMs) counter.used += 1;
      else this.counters.set(key, { windowStartMs: window.windowStartMs, windowEndMs: window.windowEndMs, used: 1 });
    }
  }

  pruneEndedBefore(nowMs: number): number {
    let removed = 0;
    for (const [key, counter] of this.counters) {
      if (counter.windowEndMs <= nowMs) {
        this.counters.delete(key);
        removed += 1;
      }
    }
    return removed;
  }

  /** One process, synchronous work: nothing can interleave, so the work is its own transaction. */
  transaction<T>(work: () => T): T {
    return work();
  }
}

function counterKey(window: CounterWindow): string {
  return `${window.bucket}\u0000${window.callerKey}`;
}

/** The counter key of shared limits; caller keys get a prefix, so no caller can collide with it. */
const SHARED_KEY = 'shared';

interface RuleWindow {
  rule: LimitRule;
  counter: CounterWindow;
}

/**
 * Creates a rate limiter whose fixed-window counters live in SQLite (exact across processes and
 * restarts), except those of `inMemoryOperations`, which live in this process (exact within it).
 */
export function createRateLimiter<Operation extends string = LimitedOperation>(
  repository: RateLimitRepository,
  options: RateLimiterOptions<Operation> = {},
): RateLimiter<Operation> {
  const policies = (options.policies ?? LIMIT_POLICIES) as LimitPolicies<Operation>;
  validateLimitPolicies(policies);
  const inMemory = new Set<Operation>(options.inMemoryOperations ?? []);
  for (const operation of inMemory) {
    if (!Object.hasOwn(policies, operation)) throw new TypeError(`in-memory rate limit "${operation}" has no policy`);
  }
  const memoryCounters = new MemoryCounters();
  const storeFor = (operation: Operation): CounterStore => (inMemory.has(operation) ? memoryCounters : repository);
  const now = options.now ?? (() => new Date());
  const pruneIntervalMs = options.pruneIntervalMs ?? 60_000;
  let lastPruneMs = Number.NEGATIVE_INFINITY;

  function windowsFor(operation: Operation, callerKey: string, nowMs: number): RuleWindow[] {
    const rules = Object.hasOwn(policies, operation) ? policies[operation] : undefined;
    if (rules === undefined) throw new Error(`no rate limit policy for operation "${operation}"`);
    // An unknown address still gets limited: all such callers share one counter rather than none.
    const key = callerKey.trim() === '' ? 'unknown' : callerKey.trim();
    return rules.map((rule) => {
      const windowMs = rule.windowSeconds * 1000;
      // Windows are aligned to the epoch, so days start at 00:00 UTC and hours on the hour.
      const windowStartMs = Math.floor(nowMs / windowMs) * windowMs;
      return {
        rule,
        counter: {
          bucket: `${operation}:${rule.name}`,
          callerKey: rule.scope === 'shared' ? SHARED_KEY : `caller:${key}`,
          windowStartMs,
          windowEndMs: windowStartMs + windowMs,
        },
      };
    });
  }

  function decide(windows: readonly RuleWindow[], usedBefore: readonly number[], nowMs: number, counted: boolean): RateLimitDecision {
    const exhausted = windows.filter((window, index) => (usedBefore[index] ?? 0) >= window.rule.max);
    if (exhausted.length > 0) {
      const governing = exhausted.reduce((latest, window) => (window.counter.windowEndMs > latest.counter.windowEndMs ? window : latest));
      return {
        allowed: false,
        code: governing.rule.code,
        retryAfterSeconds: Math.max(1, Math.ceil((governing.counter.windowEndMs - nowMs) / 1000)),
        resetAt: new Date(governing.counter.windowEndMs),
        limit: describe(governing.rule),
      };
    }
    let tightest: { window: RuleWindow; remaining: number } | undefined;
    windows.forEach((window, index) => {
      const remaining = window.rule.max - (usedBefore[index] ?? 0) - (counted ? 1 : 0);
      // On a tie the later reset wins: it is the honest answer to "when do I get calls back".
      if (
        tightest === undefined ||
        remaining < tightest.remaining ||
        (remaining === tightest.remaining && window.counter.windowEndMs > tightest.window.counter.windowEndMs)
      ) {
        tightest = { window, remaining };
      }
    });
    if (tightest === undefined) throw new Error('a rate limit policy without limits');
    return {
      allowed: true,
      remaining: tightest.remaining,
      resetAt: new Date(tightest.window.counter.windowEndMs),
      limit: describe(tightest.window.rule),
    };
  }

  function prune(): number {
    const nowMs = now().getTime();
    lastPruneMs = nowMs;
    return repository.pruneEndedBefore(nowMs) + memoryCounters.pruneEndedBefore(nowMs);
  }

  return {
    consume(operation, callerKey) {
      const nowMs = now().getTime();
      if (nowMs - lastPruneMs >= pruneIntervalMs) prune();
      const windows = windowsFor(operation, callerKey, nowMs);
      const counters = windows.map((window) => window.counter);
      const store = storeFor(operation);
      // Read and increment in one IMMEDIATE transaction: all limits pass and count together, or none counts.
      return store.transaction(() => {
        const used = store.usedCounts(counters);
        const decision = decide(windows, used, nowMs, true);
        if (decision.allowed) store.incrementAll(counters);
        return decision;
      });
    },
    peek(operation, callerKey) {
      const nowMs = now().getTime();
      const windows = windowsFor(operation, callerKey, nowMs);
      return decide(windows, storeFor(operation).usedCounts(windows.map((window) => window.counter)), nowMs, false);
    },
    prune,
  };
}

function describe(rule: LimitRule): LimitDescription {
  return { name: rule.name, max: rule.max, windowSeconds: rule.windowSeconds, scope: rule.scope };
}
