import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '../store/test-support/fake-clock.js';
import { runWorker } from '../store/test-support/run-worker.js';
import { useTempStores } from '../store/test-support/temp-stores.js';
import { buildLimitPolicies, IN_MEMORY_LIMITED_OPERATIONS, LIMIT_POLICIES, type LimitPolicies, type LimitRule } from './policies.js';
import { createRateLimiter, MemoryCounters, type RateLimitDecision } from './rate-limiter.js';

const { open, dataDir } = useTempStores('limits');

const HOUR = 3600;
const DAY = 86_400;
const perCallerHour = (max: number): LimitRule => ({ name: 'hour', max, windowSeconds: HOUR, scope: 'caller', code: 'rate_limited' });
const sharedDay = (max: number): LimitRule => ({ name: 'shared-day', max, windowSeconds: DAY, scope: 'shared', code: 'daily_cap' });

function allowedCount(decisions: readonly RateLimitDecision[]): number {
  return decisions.filter((decision) => decision.allowed).length;
}

function refusal(decision: RateLimitDecision) {
  if (decision.allowed) throw new Error('expected a refusal');
  return decision;
}

function allowance(decision: RateLimitDecision) {
  if (!decision.allowed) throw new Error(`expected the call to be allowed, got ${decision.code}`);
  return decision;
}

describe('createRateLimiter: exactness', () => {
  it('lets exactly the limit through out of 200 parallel attempts', async () => {
    const store = open();
    const limiter = createRateLimiter(store.rateLimitRepository, { policies: { op: [perCallerHour(7)] } });
    const decisions = await Promise.all(Array.from({ length: 200 }, async () => (await limiter.consume('op', '203.0.113.9'))));
    expect(allowedCount(decisions)).toBe(7);
    // Every refusal is a proper 429 answer.
    for (const decision of decisions.filter((entry) => !entry.allowed)) {
      expect(refusal(decision).code).toBe('rate_limited');
    }
  });

  it('stays exact with two stores open on the same DATA_DIR file', async () => {
    const first = open();
    const second = open();
    const policies = { op: [sharedDay(13)] };
    const limiters = [createRateLimiter(first.rateLimitRepository, { policies }), createRateLimiter(second.rateLimitRepository, { policies })];
    const decisions = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => limiters[index % 2]?.consume('op', `caller-${index}`)),
    );
    expect(allowedCount(decisions.filter((decision): decision is RateLimitDecision => decision !== undefined))).toBe(13);
  });

  it('stays exact across separate OS processes sharing the file', async () => {
    open(); // migrate once so the workers do not race on the schema
    const worker = fileURLToPath(new URL('./test-support/consume-worker.ts', import.meta.url));
    // 6,000 attempts at a limit of 5,000: the processes contend for the whole run, and any
    // check-then-increment that is not one locked transaction lets a few extra through.
    const startAt = Date.now() + 1500;
    const runs = Array.from({ length: 4 }, () => runWorker<{ allowed: number }>(worker, [dataDir(), '1500', '5000', String(startAt)]));
    const results = await Promise.all(runs);
    expect(results.reduce((sum, result) => sum + result.allowed, 0)).toBe(5000);
  }, 120_000);
});

describe('createRateLimiter: several limits on one operation', () => {
  it('does not consume the hourly allowance when the shared daily cap refuses', async () => {
    const clock = fakeClock('2026-03-10T09:15:00Z');
    const store = open();
    const policies = { op: [perCallerHour(3), sharedDay(4)] };
    const limiter = createRateLimiter(store.rateLimitRepository, { policies, now: clock.now });
    // Other callers use up the shared cap.
    for (const caller of ['b', 'c', 'd', 'e']) expect((await limiter.consume('op', caller)).allowed).toBe(true);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const refused = refusal((await limiter.consume('op', 'a')));
      expect(refused.code).toBe('daily_cap');
      expect(refused.resetAt.toISOString()).toBe('2026-03-11T00:00:00.000Z');
    }
    // A limiter with only the hourly rule reads the same counter: caller a still has all of it.
    const hourOnly = createRateLimiter(store.rateLimitRepository, { policies: { op: [perCallerHour(3)] }, now: clock.now });
    expect(allowance((await hourOnly.peek('op', 'a'))).remaining).toBe(3);
  });

  it('does not consume the shared daily cap when the hourly limit refuses', async () => {
    const clock = fakeClock('2026-03-10T09:15:00Z');
    const store = open();
    const limiter = createRateLimiter(store.rateLimitRepository, { policies: { op: [perCallerHour(3), sharedDay(10)] }, now: clock.now });
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await limiter.consume('op', 'a')).allowed).toBe(true);
    for (let attempt = 0; attempt < 6; attempt += 1) expect(refusal((await limiter.consume('op', 'a'))).code).toBe('rate_limited');
    const dayOnly = createRateLimiter(store.rateLimitRepository, { policies: { op: [sharedDay(10)] }, now: clock.now });
    expect(allowance((await dayOnly.peek('op', 'someone-else'))).remaining).toBe(7);
  });

  it('reports the tightest limit when allowed, and the limit that resets last when refused', async () => {
    const clock = fakeClock('2026-03-10T09:15:00Z');
    const store = open();
    const policies = { op: [perCallerHour(3), { ...perCallerHour(4), name: 'day', windowSeconds: DAY }] };
    const limiter = createRateLimiter(store.rateLimitRepository, { policies, now: clock.now });
    const first = allowance((await limiter.consume('op', 'a')));
    expect(first.remaining).toBe(2);
    expect(first.limit.name).toBe('hour');
    expect(first.resetAt.toISOString()).toBe('2026-03-10T10:00:00.000Z');
    await limiter.consume('op', 'a');
    await limiter.consume('op', 'a');
    clock.set('2026-03-10T10:30:00Z');
    // Hour 2: hourly has 3 left, daily 1 left -> the daily limit is the tightest.
    const fourth = allowance((await limiter.consume('op', 'a')));
    expect(fourth.remaining).toBe(0);
    expect(fourth.limit.name).toBe('day');
    expect(fourth.resetAt.toISOString()).toBe('2026-03-11T00:00:00.000Z');
    // Only the daily limit is exhausted now, so it alone sets the wait.
    const refused = refusal((await limiter.consume('op', 'a')));
    expect(refused.limit.name).toBe('day');
    expect(refused.retryAfterSeconds).toBe(13.5 * 3600);
  });

  it('names the limit that resets last when several are exhausted at once', async () => {
    const clock = fakeClock('2026-03-10T09:15:00Z');
    const store = open();
    const limiter = createRateLimiter(store.rateLimitRepository, { policies: { op: [perCallerHour(1), sharedDay(1)] }, now: clock.now });
    expect((await limiter.consume('op', 'a')).allowed).toBe(true);
    const refused = refusal((await limiter.consume('op', 'a')));
    expect(refused.code).toBe('daily_cap');
    expect(refused.resetAt.toISOString()).toBe('2026-03-11T00:00:00.000Z');
  });

  it('keeps callers apart for per-caller limits and together for shared ones', async () => {
    const store = open();
    const limiter = createRateLimiter(store.rateLimitRepository, { policies: { mine: [perCallerHour(1)], ours: [sharedDay(1)] } });
    expect((await limiter.consume('mine', '198.51.100.1')).allowed).toBe(true);
    expect((await limiter.consume('mine', '198.51.100.2')).allowed).toBe(true);
    expect((await limiter.consume('mine', '198.51.100.1')).allowed).toBe(false);
    expect((await limiter.consume('ours', '198.51.100.1')).allowed).toBe(true);
    expect((await limiter.consume('ours', '198.51.100.2')).allowed).toBe(false);
  });
});

describe('createRateLimiter: windows', () => {
  it('resets at the window boundary and gives an integer Retry-After of at least 1', async () => {
    const clock = fakeClock('2026-03-10T09:00:00Z');
    const store = open();
    const limiter = createRateLimiter(store.rateLimitRepository, { policies: { op: [perCallerHour(2)] }, now: clock.now });
    expect((await limiter.consume('op', 'a')).allowed).toBe(true);
    clock.set('2026-03-10T09:40:00.250Z');
    expect((await limiter.consume('op', 'a')).allowed).toBe(true);
    const refused = refusal((await limiter.consume('op', 'a')));
    expect(refused.retryAfterSeconds).toBe(1200); // 19 min 59.75 s, rounded up
    expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
    clock.set('2026-03-10T09:59:59.800Z');
    expect(refusal((await limiter.consume('op', 'a'))).retryAfterSeconds).toBe(1);
    clock.set('2026-03-10T10:00:00.000Z');
    const fresh = allowance((await limiter.consume('op', 'a')));
    expect(fresh.remaining).toBe(1);
    expect(fresh.resetAt.toISOString()).toBe('2026-03-10T11:00:00.000Z');
  });

  it('aligns 10-minute windows to the clock', async () => {
    const clock = fakeClock('2026-03-10T09:07:00Z');
    const store = open();
    const limiter = createRateLimiter(store.rateLimitRepository, {
      policies: { op: [{ name: '10-minutes', max: 1, windowSeconds: 600, scope: 'caller', code: 'rate_limited' }] },
      now: clock.now,
    });
    expect(allowance((await limiter.consume('op', 'a'))).resetAt.toISOString()).toBe('2026-03-10T09:10:00.000Z');
    expect(refusal((await limiter.consume('op', 'a'))).retryAfterSeconds).toBe(180);
  });

  it('survives closing and reopening the store', async () => {
    const clock = fakeClock('2026-03-10T09:00:00Z');
    const policies = { op: [perCallerHour(3)] };
    const before = open();
    const first = createRateLimiter(before.rateLimitRepository, { policies, now: clock.now });
    await first.consume('op', 'a');
    await first.consume('op', 'a');
    before.close();
    const after = open();
    const second = createRateLimiter(after.rateLimitRepository, { policies, now: clock.now });
    expect(allowance((await second.consume('op', 'a'))).remaining).toBe(0);
    expect((await second.consume('op', 'a')).allowed).toBe(false);
  });

  it('peeks without counting', async () => {
    const store = open();
    const limiter = createRateLimiter(store.rateLimitRepository, { policies: { op: [perCallerHour(1)] } });
    for (let attempt = 0; attempt < 5; attempt += 1) expect(allowance((await limiter.peek('op', 'a'))).remaining).toBe(1);
    expect((await limiter.consume('op', 'a')).allowed).toBe(true);
    expect((await limiter.peek('op', 'a')).allowed).toBe(false);
  });

  it('prunes counters of ended windows', async () => {
    const clock = fakeClock('2026-03-10T09:00:00Z');
    const store = open();
    const limiter = createRateLimiter(store.rateLimitRepository, { policies: { op: [perCallerHour(5)] }, now: clock.now });
    for (const caller of ['a', 'b', 'c']) (await limiter.consume('op', caller));
    expect((await limiter.prune())).toBe(0);
    clock.set('2026-03-10T10:00:00Z');
    (await limiter.consume('op', 'a')); // the automatic prune runs here (over a minute since the last one)
    expect((await limiter.prune())).toBe(0);
    clock.set('2026-03-10T11:00:00Z');
    expect((await limiter.prune())).toBe(1);
  });
});

describe('policies', () => {
  it('carries the spec numbers by default', async () => {
    const summary = (policies: LimitPolicies) =>
      Object.fromEntries(
        Object.entries(policies).map(([operation, rules]) => [
          operation,
          rules.map((rule) => `${rule.max}/${rule.windowSeconds}s ${rule.scope} ${rule.code}`),
        ]),
      );
    expect(summary(LIMIT_POLICIES)).toEqual({
      runRepeatedBuyerQuestion: ['3/3600s caller rate_limited', '200/86400s shared daily_cap'],
      checkBrandRecognition: ['6/3600s caller rate_limited', '20/86400s caller rate_limited'],
      startVisibilityAudit: ['6/3600s caller rate_limited', '40/86400s caller rate_limited'],
      startBuyerQuestionMap: ['6/600s caller rate_limited'],
      getBuyerQuestionMap: ['120/60s caller rate_limited'],
    });
    expect(buildLimitPolicies({ repeatDailyCap: 50 }).runRepeatedBuyerQuestion[1]?.max).toBe(50);
  });

  it('refuses policies it could not enforce, and unknown operations', async () => {
    const store = open();
    expect(() => createRateLimiter(store.rateLimitRepository, { policies: { op: [perCallerHour(1.5)] } })).toThrow(/whole number/);
    expect(() => createRateLimiter(store.rateLimitRepository, { policies: { op: [perCallerHour(1), perCallerHour(2)] } })).toThrow(/unique/);
    expect(() => createRateLimiter(store.rateLimitRepository, { policies: { op: [] } })).toThrow(/no limits/);
    const limiter = createRateLimiter(store.rateLimitRepository, { policies: { op: [perCallerHour(1)] } });
    await expect(limiter.consume('other' as 'op', 'a')).rejects.toThrow(/no rate limit policy/);
  });

  it('counts blank caller keys together instead of not at all', async () => {
    const store = open();
    const limiter = createRateLimiter(store.rateLimitRepository, { policies: { op: [perCallerHour(1)] } });
    expect((await limiter.consume('op', '')).allowed).toBe(true);
    expect((await limiter.consume('op', '   ')).allowed).toBe(false);
  });
});

describe('createRateLimiter: operations counted in memory', () => {
  const policies: LimitPolicies<'read' | 'spend'> = {
    read: [{ name: 'minute', max: 3, windowSeconds: 60, scope: 'caller', code: 'rate_limited' }],
    spend: [perCallerHour(2)],
  };

  it('enforces the same limit and windows without writing a counter row', async () => {
    const store = open();
    const clock = fakeClock('2026-03-10T09:00:10Z');
    const limiter = createRateLimiter(store.rateLimitRepository, { policies, now: clock.now, inMemoryOperations: ['read'] });
    const decisions: RateLimitDecision[] = [];
    for (let call = 0; call < 5; call += 1) decisions.push(await limiter.consume('read', '203.0.113.9'));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false, false]);
    expect(allowance(decisions[2] as RateLimitDecision)).toMatchObject({ remaining: 0, resetAt: new Date('2026-03-10T09:01:00Z') });
    expect(refusal(decisions[3] as RateLimitDecision)).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 50 });
    expect((await limiter.peek('read', '203.0.113.9')).allowed).toBe(false);
    // Another caller has its own counter; the next window starts from zero.
    expect((await limiter.consume('read', '203.0.113.10')).allowed).toBe(true);
    clock.set('2026-03-10T09:01:00Z');
    expect(allowance((await limiter.consume('read', '203.0.113.9'))).remaining).toBe(2);
    // consumeLocal answers the same counters without awaiting; it refuses an operation the store counts.
    expect(allowance(limiter.consumeLocal('read', '203.0.113.9')).remaining).toBe(1);
    expect(() => limiter.consumeLocal('spend', '203.0.113.9')).toThrow(/not counted in memory/);
    // Nothing of the in-memory operation reached SQLite.
    expect(await store.rateLimitRepository.usedCounts([{ bucket: 'read:minute', callerKey: 'caller:203.0.113.9', windowStartMs: Date.parse('2026-03-10T09:01:00Z'), windowEndMs: 0 }])).toEqual([0]);
  });

  it('keeps every other operation durable: a second limiter on the same file sees its counts, not the in-memory ones', async () => {
    const store = open();
    const clock = fakeClock('2026-03-10T09:00:10Z');
    const first = createRateLimiter(store.rateLimitRepository, { policies, now: clock.now, inMemoryOperations: ['read'] });
    const second = createRateLimiter(open().rateLimitRepository, { policies, now: clock.now, inMemoryOperations: ['read'] });
    expect((await first.consume('spend', 'c')).allowed).toBe(true);
    expect((await first.consume('spend', 'c')).allowed).toBe(true);
    expect((await second.consume('spend', 'c')).allowed).toBe(false);
    for (let index = 0; index < 3; index += 1) expect((await first.consume('read', 'c')).allowed).toBe(true);
    // The trade-off of in-memory counters: another process (or a restart) starts them from zero.
    expect((await second.consume('read', 'c')).allowed).toBe(true);
  });

  it('prunes ended windows so counters of past callers do not pile up', async () => {
    const counters = new MemoryCounters();
    const window = (callerKey: string, windowStartMs: number) => ({ bucket: 'read:minute', callerKey, windowStartMs, windowEndMs: windowStartMs + 60_000 });
    counters.incrementAll([window('a', 0)]);
    counters.incrementAll([window('b', 60_000)]);
    counters.incrementAll([window('a', 60_000)]);
    expect(counters.usedCounts([window('a', 60_000), window('a', 0)])).toEqual([1, 0]);
    expect(counters.size).toBe(2);
    expect(counters.pruneEndedBefore(120_000)).toBe(2);
    expect(counters.size).toBe(0);
  });

  it('refuses an in-memory operation that has no policy', async () => {
    expect(() => createRateLimiter(open().rateLimitRepository, { policies, inMemoryOperations: ['missing' as 'read'] })).toThrow(/no policy/);
  });

  it('the service keeps only getBuyerQuestionMap in memory', async () => {
    expect(IN_MEMORY_LIMITED_OPERATIONS).toEqual(['getBuyerQuestionMap']);
  });
});
