import { afterEach, describe, expect, it, vi } from 'vitest';
import { sleep } from './sleep.js';

describe('sleep', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits about the requested time', async () => {
    const started = performance.now();
    await sleep(40);
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
  });

  it("rejects with the signal's reason as soon as it aborts", async () => {
    const controller = new AbortController();
    const started = performance.now();
    const waiting = sleep(10_000, controller.signal);
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await expect(waiting).rejects.toThrow('stop');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('rejects at once on an already aborted signal', async () => {
    await expect(sleep(10_000, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });

  it('cancels its timer on abort, leaving nothing scheduled', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waiting = sleep(10_000, controller.signal);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(vi.getTimerCount()).toBe(0);
  });
});
