import { afterEach, describe, expect, it, vi } from 'vitest';
import { runAttempt } from './attempt.js';
import { ProviderFailure } from './types.js';

const classifyAsBadRequest = (error: unknown): ProviderFailure =>
  new ProviderFailure({ kind: 'bad_request', provider: 'openai', message: String(error), cause: error });

/** A call that never settles on its own, like an SDK that ignores its signal. */
const hang = (): Promise<never> => new Promise<never>(() => {});

/** A call that settles only when its signal aborts, like a well-behaved SDK. */
const hangUntilAborted = (signal: AbortSignal): Promise<never> =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));

describe('runAttempt', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('clears its deadline timer as soon as the call settles', async () => {
    vi.useFakeTimers();
    await runAttempt({ provider: 'openai', timeoutMs: 30_000, signal: undefined, call: async () => 'value', classify: classifyAsBadRequest });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('returns the value and a latency', async () => {
    const result = await runAttempt({
      provider: 'openai',
      timeoutMs: 1000,
      signal: undefined,
      call: async () => 'value',
      classify: classifyAsBadRequest,
    });
    expect(result.value).toBe('value');
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('turns a hang into a timeout failure, even when the call ignores its signal', async () => {
    const started = Date.now();
    const attempt = runAttempt({ provider: 'gemini', timeoutMs: 50, signal: undefined, call: hang, classify: classifyAsBadRequest });
    await expect(attempt).rejects.toMatchObject({ name: 'ProviderFailure', kind: 'timeout', provider: 'gemini', retryable: true });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reports a timeout, not the abort error the SDK throws when its signal fires', async () => {
    const attempt = runAttempt({ provider: 'openai', timeoutMs: 30, signal: undefined, call: hangUntilAborted, classify: classifyAsBadRequest });
    await expect(attempt).rejects.toMatchObject({ kind: 'timeout' });
  });

  it("rejects with the caller's abort reason, not a ProviderFailure", async () => {
    const controller = new AbortController();
    const attempt = runAttempt({ provider: 'openai', timeoutMs: 5000, signal: controller.signal, call: hangUntilAborted, classify: classifyAsBadRequest });
    const reason = new Error('measurement cancelled');
    controller.abort(reason);
    await expect(attempt).rejects.toBe(reason);
  });

  it('does not call at all when the signal is already aborted', async () => {
    let called = false;
    const attempt = runAttempt({
      provider: 'openai',
      timeoutMs: 5000,
      signal: AbortSignal.abort(new Error('already')),
      call: async () => {
        called = true;
        return 1;
      },
      classify: classifyAsBadRequest,
    });
    await expect(attempt).rejects.toThrow('already');
    expect(called).toBe(false);
  });

  it('classifies other errors with the vendor classifier', async () => {
    const attempt = runAttempt({
      provider: 'anthropic',
      timeoutMs: 5000,
      signal: undefined,
      call: async () => {
        throw new Error('HTTP 400');
      },
      classify: classifyAsBadRequest,
    });
    await expect(attempt).rejects.toMatchObject({ kind: 'bad_request', message: 'Error: HTTP 400' });
  });
});
