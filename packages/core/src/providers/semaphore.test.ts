import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('Semaphore', () => {
  it('grants up to its permits at once, then queues', async () => {
    const semaphore = new Semaphore(2);
    await semaphore.acquire();
    await semaphore.acquire();
    let third = false;
    void semaphore.acquire().then(() => {
      third = true;
    });
    await tick();
    expect(third).toBe(false);
    expect(semaphore.inUse).toBe(2);
    expect(semaphore.waiting).toBe(1);
  });

  it('serves waiters first come, first served', async () => {
    const semaphore = new Semaphore(1);
    const release = await semaphore.acquire();
    const order: string[] = [];
    const waiters = ['a', 'b', 'c'].map((name) =>
      semaphore.acquire().then((releaseNext) => {
        order.push(name);
        releaseNext();
      }),
    );
    release();
    await Promise.all(waiters);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(semaphore.inUse).toBe(0);
  });

  it('a release cannot be spent twice', async () => {
    const semaphore = new Semaphore(1);
    const release = await semaphore.acquire();
    release();
    release();
    await semaphore.acquire();
    let second = false;
    void semaphore.acquire().then(() => {
      second = true;
    });
    await tick();
    expect(second).toBe(false);
  });

  it('drops an aborted waiter from the queue and rejects it with the reason', async () => {
    const semaphore = new Semaphore(1);
    const release = await semaphore.acquire();
    const controller = new AbortController();
    const abandoned = semaphore.acquire(controller.signal);
    const next = semaphore.acquire();
    controller.abort(new Error('gave up'));
    await expect(abandoned).rejects.toThrow('gave up');
    expect(semaphore.waiting).toBe(1);
    release();
    await expect(next).resolves.toBeTypeOf('function');
    expect(semaphore.inUse).toBe(1);
  });

  it('rejects at once on an already aborted signal', async () => {
    await expect(new Semaphore(3).acquire(AbortSignal.abort(new Error('no')))).rejects.toThrow('no');
  });

  it('refuses a non-positive permit count', () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
    expect(() => new Semaphore(1.5)).toThrow(RangeError);
  });
});
