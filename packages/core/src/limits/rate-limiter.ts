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
}

/** The counter key of shared limits; caller keys get a prefix, so no caller can collide with it. */
const SHARED_KEY = 'shared';

interface RuleWindow {
  rule: LimitRule;
  counter: CounterWindow;
}

/** Creates a rate limiter whose fixed-window counters live in SQLite (exact across processes and restarts). */
export function createRateLimiter<Operation extends string = LimitedOperation>(
  repository: RateLimitRepository,
  options: RateLimiterOptions<Operation> = {},
): RateLimiter<Operation> {
  const policies = (options.policies ?? LIMIT_POLICIES) as LimitPolicies<Operation>;
  validateLimitPolicies(policies);
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
    return repository.pruneEndedBefore(nowMs);
  }

  return {
    consume(operation, callerKey) {
      const nowMs = now().getTime();
      if (nowMs - lastPruneMs >= pruneIntervalMs) prune();
      const windows = windowsFor(operation, callerKey, nowMs);
      const counters = windows.map((window) => window.counter);
      // Read and increment in one IMMEDIATE transaction: all limits pass and count together, or none counts.
      return repository.transaction(() => {
        const used = repository.usedCounts(counters);
        const decision = decide(windows, used, nowMs, true);
        if (decision.allowed) repository.incrementAll(counters);
        return decision;
      });
    },
    peek(operation, callerKey) {
      const nowMs = now().getTime();
      const windows = windowsFor(operation, callerKey, nowMs);
      return decide(windows, repository.usedCounts(windows.map((window) => window.counter)), nowMs, false);
    },
    prune,
  };
}

function describe(rule: LimitRule): LimitDescription {
  return { name: rule.name, max: rule.max, windowSeconds: rule.windowSeconds, scope: rule.scope };
}
