import { timeoutFailure } from './failures.js';
import type { ProviderFailure, ProviderId } from './types.js';

/** One vendor call, bounded by a deadline and the caller's signal. */
export interface AttemptOptions<T> {
  provider: ProviderId;
  timeoutMs: number;
  /** The caller's signal: aborting it rejects with its reason, never with a ProviderFailure. */
  signal: AbortSignal | undefined;
  /** Makes the SDK call; it must pass `signal` on to the SDK. */
  call: (signal: AbortSignal) => Promise<T>;
  /** Turns whatever the SDK threw into a typed failure. */
  classify: (error: unknown) => ProviderFailure;
}

export interface AttemptResult<T> {
  value: T;
  latencyMs: number;
}

/** Runs one SDK call under a per-attempt deadline, timing it and classifying what it throws. */
export async function runAttempt<T>(options: AttemptOptions<T>): Promise<AttemptResult<T>> {
  const { provider, timeoutMs, signal: callerSignal } = options;
  callerSignal?.throwIfAborted();
  // A hand-made controller rather than AbortSignal.any(AbortSignal.timeout(...)): the timer and the
  // listener on a long-lived caller signal are released as soon as the attempt settles, instead of
  // lingering until garbage collection across thousands of calls.
  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  const onCallerAbort = (): void => deadline.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const started = performance.now();
  try {
    const pending = options.call(deadline.signal);
    // Racing the abort as well guarantees a hang becomes a timeout even if an SDK ignored the signal.
    const value = await Promise.race([pending, rejectOnAbort(deadline.signal, pending)]);
    return { value, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (timedOut) throw timeoutFailure(provider, timeoutMs, error);
    throw options.classify(error);
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

function rejectOnAbort(signal: AbortSignal, pending: Promise<unknown>): Promise<never> {
  return new Promise<never>((_, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    // Drop the listener once the call settles so the race does not pin the signal.
    pending.then(
      () => signal.removeEventListener('abort', onAbort),
      () => signal.removeEventListener('abort', onAbort),
    );
  });
}
