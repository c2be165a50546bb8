import type { RateLimitStore } from '../store/ports.js';
import type { CounterWindow } from '../store/rate-limit-repository.js';
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
  consume(operation: Operation, callerKey: string): Promise<RateLimitDecision>;
  /**
   * consume for an operation whose counters live in this process's memory (`inMemoryOperations`),
   * synchronously, for read paths answered without awaiting; throws for any other operation.
   */
  consumeLocal(operation: Operation, callerKey: string): RateLimitDecision;
  /** What consume would answer now, without counting anything. */
  peek(operation: Operation, callerKey: string): Promise<RateLimitDecision>;
  /** Deletes counters of ended windows (consume also does this about once a minute); returns how many. */
  prune(): Promise<number>;
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

/**
 * Fixed-window counters in a Map: one entry per limit and caller, holding only the current window
 * (a call in a later window starts it again from zero), deleted once its window has ended.
 */
export class MemoryCounters {
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

  /** The same all-or-none count as RateLimitStore.consume; one process, synchronous: nothing interleaves. */
  consume(windows: readonly CounterWindow[], maxes: readonly number[]): { usedBefore: number[]; counted: boolean } {
    const usedBefore = this.usedCounts(windows);
    const counted = usedBefore.every((used, index) => used < (maxes[index] ?? 0));
    if (counted) this.incrementAll(windows);
    return { usedBefore, counted };
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
 * Creates a rate limiter whose fixed-window counters live in the store (the RateLimitStore port: exact
 * across processes, instances and restarts), except those of `inMemoryOperations`, which live in this
 * process (exact within it).
 */
export function createRateLimiter<Operation extends string = LimitedOperation>(
  repository: RateLimitStore,
  options: RateLimiterOptions<Operation> = {},
): RateLimiter<Operation> {
  const policies = (options.policies ?? LIMIT_POLICIES) as LimitPolicies<Operation>;
  validateLimitPolicies(policies);
  const inMemory = new Set<Operation>(options.inMemoryOperations ?? []);
  for (const operation of inMemory) {
    if (!Object.hasOwn(policies, operation)) throw new TypeError(`in-memory rate limit "${operation}" has no policy`);
  }
  const memoryCounters = new MemoryCounters();
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

  async function prune(): Promise<number> {
    const nowMs = now().getTime();
    lastPruneMs = nowMs;
    return (await repository.pruneEndedBefore(nowMs)) + memoryCounters.pruneEndedBefore(nowMs);
  }

  function pruneOccasionally(nowMs: number): Promise<unknown> | undefined {
    if (nowMs - lastPruneMs < pruneIntervalMs) return undefined;
    return prune();
  }

  function consumeLocal(operation: Operation, callerKey: string): RateLimitDecision {
    if (!inMemory.has(operation)) throw new Error(`rate limit "${operation}" is not counted in memory; use consume()`);
    const nowMs = now().getTime();
    // The stored counters' prune runs in the background; the memory counters' at once.
    if (nowMs - lastPruneMs >= pruneIntervalMs) void prune().catch(() => undefined);
    const windows = windowsFor(operation, callerKey, nowMs);
    const { usedBefore } = memoryCounters.consume(
      windows.map((window) => window.counter),
      windows.map((window) => window.rule.max),
    );
    return decide(windows, usedBefore, nowMs, true);
  }

  return {
    async consume(operation, callerKey) {
      if (inMemory.has(operation)) return consumeLocal(operation, callerKey);
      const nowMs = now().getTime();
      await pruneOccasionally(nowMs);
      const windows = windowsFor(operation, callerKey, nowMs);
      // All limits pass and count together, or none counts: one atomic store operation.
      const { usedBefore } = await repository.consume(
        windows.map((window) => window.counter),
        windows.map((window) => window.rule.max),
      );
      return decide(windows, usedBefore, nowMs, true);
    },
    consumeLocal,
    async peek(operation, callerKey) {
      const nowMs = now().getTime();
      const windows = windowsFor(operation, callerKey, nowMs);
      const counters = windows.map((window) => window.counter);
      const used = inMemory.has(operation) ? memoryCounters.usedCounts(counters) : await repository.usedCounts(counters);
      return decide(windows, used, nowMs, false);
    },
    prune,
  };
}

function describe(rule: LimitRule): LimitDescription {
  return { name: rule.name, max: rule.max, windowSeconds: rule.windowSeconds, scope: rule.scope };
}
