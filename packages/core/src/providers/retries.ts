import { sleep as abortableSleep } from './sleep.js';
import { ProviderFailure, type Answer, type AskRequest, type Provider } from './types.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 2, so at most 3 attempts). */
  maxRetries?: number;
  /** Backoff ceiling for the first retry; it doubles each retry (default 500 ms). */
  baseDelayMs?: number;
  /** Cap on the backoff ceiling (default 8 s). */
  maxDelayMs?: number;
  /** The longest `retry-after` we will wait; a provider asking for more fails at once (default 30 s). */
  maxRetryAfterMs?: number;
  /** Source of jitter in [0, 1); injectable for deterministic tests. */
  random?: () => number;
  /** Waits between attempts; must reject when the signal aborts. Injectable for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_BASE_DELAY_MS = 500;
export const DEFAULT_MAX_DELAY_MS = 8_000;
export const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;

/** The delay before retry number `retry` (1-based): full jitter, at least what the provider asked for. */
export function retryDelayMs(
  retry: number,
  retryAfterMs: number | undefined,
  options: { baseDelayMs: number; maxDelayMs: number; random: () => number },
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  // Full jitter (a uniform pick below the ceiling) spreads out callers that failed together.
  const jittered = Math.floor(options.random() * ceiling);
  return retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered);
}

/**
 * Wraps a provider with bounded retries of retryable failures, honouring `retry-after` and the caller's
 * signal; the Answer's `attempts` (or the final failure's) says how many calls it took.
 */
export function withRetries(provider: Provider, options: RetryOptions = {}): Provider {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const backoff = {
    baseDelayMs: options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
    random: options.random ?? Math.random,
  };
  const sleep = options.sleep ?? abortableSleep;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new RangeError(`maxRetries must be a non-negative integer, got ${maxRetries}`);

  return {
    id: provider.id,
    model: provider.model,
    async ask(request: AskRequest): Promise<Answer> {
      for (let attempt = 1; ; attempt += 1) {
        request.signal?.throwIfAborted();
        try {
          const answer = await provider.ask(request);
          return { ...answer, attempts: attempt };
        } catch (error) {
          // Cancellations and programming errors are not the provider's failures: never retried.
          if (!(error instanceof ProviderFailure) || request.signal?.aborted) throw error;
          error.attempts = attempt;
          if (!error.retryable || attempt > maxRetries) throw error;
          // Waiting longer than we are willing to would stall the whole measurement; fail the run instead.
          if (error.retryAfterMs !== undefined && error.retryAfterMs > maxRetryAfterMs) throw error;
          await sleep(retryDelayMs(attempt, error.retryAfterMs, backoff), request.signal);
        }
      }
    },
  };
}
