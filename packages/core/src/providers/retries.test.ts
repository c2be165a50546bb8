import { describe, expect, it } from 'vitest';
import { retryDelayMs, withRetries } from './retries.js';
import { FakeProvider, fakeFailure } from './test-support/fake-provider.js';
import { ProviderFailure } from './types.js';

/** A sleep that records the requested delays and returns at once (still honouring aborts). */
function recordingSleep(): { delays: number[]; sleep: (ms: number, signal?: AbortSignal) => Promise<void> } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      delays.push(ms);
    },
  };
}

describe('retryDelayMs', () => {
  const backoff = { baseDelayMs: 500, maxDelayMs: 8000 };

  it('draws full jitter below an exponentially growing, capped ceiling', () => {
    const top = { ...backoff, random: () => 0.999_999 };
    expect([1, 2, 3, 4, 5, 6].map((retry) => retryDelayMs(retry, undefined, top))).toEqual([499, 999, 1999, 3999, 7999, 7999]);
    expect(retryDelayMs(3, undefined, { ...backoff, random: () => 0.5 })).toBe(1000);
    expect(retryDelayMs(3, undefined, { ...backoff, random: () => 0 })).toBe(0);
  });

  it('waits at least as long as retry-after', () => {
    expect(retryDelayMs(1, 2000, { ...backoff, random: () => 0.5 })).toBe(2000);
    expect(retryDelayMs(5, 100, { ...backoff, random: () => 0.5 })).toBe(4000);
  });
});

describe('withRetries', () => {
  it('returns the first success with attempts = 1', async () => {
    const fake = new FakeProvider(['fine']);
    const answer = await withRetries(fake).ask({ prompt: 'q' });
    expect(answer).toMatchObject({ text: 'fine', attempts: 1 });
    expect(fake.calls).toHaveLength(1);
  });

  it('retries retryable failures and reports the attempts it took', async () => {
    const fake = new FakeProvider([fakeFailure('overloaded'), fakeFailure('timeout'), 'third time']);
    const { delays, sleep } = recordingSleep();
    const answer = await withRetries(fake, { maxRetries: 2, random: () => 0.5, sleep }).ask({ prompt: 'q' });
    expect(answer).toMatchObject({ text: 'third time', attempts: 3 });
    expect(delays).toEqual([250, 500]);
  });

  it('gives up after maxRetries + 1 attempts with the last failure', async () => {
    const fake = new FakeProvider([fakeFailure('overloaded')]);
    const { sleep } = recordingSleep();
    const failure = await withRetries(fake, { maxRetries: 2, sleep }).ask({ prompt: 'q' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect(failure).toMatchObject({ kind: 'overloaded', attempts: 3 });
    expect(fake.calls).toHaveLength(3);
  });

  it('never retries a non-retryable failure', async () => {
    const fake = new FakeProvider([fakeFailure('unavailable', { retryable: false }), 'unreached']);
    const { delays, sleep } = recordingSleep();
    await expect(withRetries(fake, { sleep }).ask({ prompt: 'q' })).rejects.toMatchObject({ kind: 'unavailable', attempts: 1 });
    expect(fake.calls).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('honours retry-after', async () => {
    const fake = new FakeProvider([fakeFailure('rate_limited', { retryAfterMs: 1500 }), 'ok']);
    const { delays, sleep } = recordingSleep();
    const answer = await withRetries(fake, { random: () => 0.1, sleep }).ask({ prompt: 'q' });
    expect(answer.attempts).toBe(2);
    expect(delays).toEqual([1500]);
  });

  it('fails at once when retry-after exceeds the cap', async () => {
    const fake = new FakeProvider([fakeFailure('rate_limited', { retryAfterMs: 60_000 }), 'unreached']);
    const { delays, sleep } = recordingSleep();
    await expect(withRetries(fake, { maxRetryAfterMs: 30_000, sleep }).ask({ prompt: 'q' })).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 60_000,
    });
    expect(fake.calls).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('does not retry errors that are not ProviderFailures', async () => {
    const bug = new TypeError('undefined is not a function');
    const fake = new FakeProvider([() => Promise.reject(bug), 'unreached']);
    await expect(withRetries(fake).ask({ prompt: 'q' })).rejects.toBe(bug);
    expect(fake.calls).toHaveLength(1);
  });

  it('stops waiting and rejects with the reason when the caller aborts during backoff', async () => {
    const fake = new FakeProvider([fakeFailure('overloaded'), 'unreached']);
    const controller = new AbortController();
    const asking = withRetries(fake, { baseDelayMs: 10_000, maxDelayMs: 10_000, random: () => 0.99 }).ask({ prompt: 'q', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled')), 20);
    const started = performance.now();
    await expect(asking).rejects.toThrow('cancelled');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(fake.calls).toHaveLength(1);
  });

  it('does not retry a failure that arrives after the caller aborted', async () => {
    const controller = new AbortController();
    const fake = new FakeProvider([
      async () => {
        controller.abort(new Error('cancelled'));
        throw fakeFailure('overloaded');
      },
      'unreached',
    ]);
    const { sleep } = recordingSleep();
    await expect(withRetries(fake, { sleep }).ask({ prompt: 'q', signal: controller.signal })).rejects.toMatchObject({ kind: 'overloaded' });
    expect(fake.calls).toHaveLength(1);
  });

  it('passes the request (prompt and signal) through unchanged', async () => {
    const fake = new FakeProvider(['ok']);
    const signal = new AbortController().signal;
    await withRetries(fake).ask({ prompt: 'exact words', maxOutputTokens: 12, signal });
    expect(fake.calls[0]).toEqual({ prompt: 'exact words', maxOutputTokens: 12, signal });
  });

  it('rejects a negative maxRetries', () => {
    expect(() => withRetries(new FakeProvider(['ok']), { maxRetries: -1 })).toThrow(RangeError);
  });
});
