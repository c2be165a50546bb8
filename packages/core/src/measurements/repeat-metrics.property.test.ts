// Property tests of computeRepeatMetrics (the RepeatMetrics of runRepeatedBuyerQuestion): the numbers must
// follow from the runs whatever they hold, in whatever order they come.
// Reproduce a failure with the seed fast-check prints: FUZZ_SEED=<seed> npx vitest run <this file>.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RepeatMetricsSchema } from '../api/schemas.js';
import { normalizeBrandKey } from '../extraction/index.js';
import { computeRepeatMetrics, type RepeatMetrics } from './repeat-metrics.js';

const SEED = process.env.FUZZ_SEED === undefined ? 20_260_808 : Number(process.env.FUZZ_SEED);
const RUNS_FACTOR = process.env.FUZZ_RUNS === undefined ? 1 : Number(process.env.FUZZ_RUNS);
const parameters = <T>(numRuns = 500): fc.Parameters<T> => ({ seed: SEED, numRuns: Math.round(numRuns * RUNS_FACTOR) });

type Run = { ok: boolean; brands: string[] };

// A small pool so runs overlap often, with spellings that share a key (case, accents, "The", "Inc.",
// curly apostrophes) and names whose key is empty (punctuation only), plus arbitrary text now and then.
const POOL = [
  'HubSpot', 'hubspot', 'HUBSPOT', 'Pipedrive', 'Pipedrive Inc.', 'Zoho CRM', 'zoho crm', 'Salesforce', 'The Salesforce',
  'Mercado Pago', 'mercado pago', 'Mércado Pago', 'Clip', "Kiehl's", 'Kiehl’s', 'Monday.com', 'monday com', 'Notion', 'A&B', '---', '!!!', '',
];
const brand = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...POOL) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
const brands = fc.array(brand, { maxLength: 6 });
const run: fc.Arbitrary<Run> = fc.record({ ok: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }), brands }).map((value) => ({
  ok: value.ok,
  // A failed run names nothing (RepeatRun: "its brands are then empty").
  brands: value.ok ? value.brands : [],
}));
const runs = fc.array(run, { maxLength: 8 });

/** The brand keys of a run, as the metrics compare them (empty keys are no brand). */
const keysOf = (names: readonly string[]): Set<string> => new Set(names.map(normalizeBrandKey).filter((key) => key !== ''));
const okKeySets = (input: readonly Run[]): Array<Set<string>> => input.filter((entry) => entry.ok).map((entry) => keysOf(entry.brands));
const sameSet = (a: Set<string>, b: Set<string>): boolean => a.size === b.size && [...a].every((key) => b.has(key));
const sortedKeys = (names: readonly string[]): string[] => names.map(normalizeBrandKey).sort();

/** Every pair of successful runs, each once. */
function pairsOf(sets: Array<Set<string>>): Array<[Set<string>, Set<string>]> {
  const pairs: Array<[Set<string>, Set<string>]> = [];
  for (let left = 0; left < sets.length; left += 1) for (let right = left + 1; right < sets.length; right += 1) pairs.push([sets[left]!, sets[right]!]);
  return pairs;
}

/** Jaccard overlap of two key sets as an exact fraction [shared, union]; two empty sets overlap fully. */
function jaccardFraction(a: Set<string>, b: Set<string>): [number, number] {
  const shared = [...a].filter((key) => b.has(key)).length;
  const union = a.size + b.size - shared;
  return union === 0 ? [1, 1] : [shared, union];
}

/** The exact mean Jaccard, rounded half-up to 3 decimals, computed without floating-point sums (BigInt fractions). */
function exactRoundedMean(sets: Array<Set<string>>): number | null {
  const pairs = pairsOf(sets);
  if (pairs.length === 0) return null;
  let numerator = 0n;
  let denominator = 1n;
  for (const [a, b] of pairs) {
    const [shared, union] = jaccardFraction(a, b);
    numerator = numerator * BigInt(union) + BigInt(shared) * denominator;
    denominator *= BigInt(union);
  }
  denominator *= BigInt(pairs.length);
  // round(1000 * n / d), half up
  const thousandths = (2n * 1000n * numerator + denominator) / (2n * denominator);
  return Number(thousandths) / 1000;
}

function shuffled<T>(items: readonly T[], order: readonly number[]): T[] {
  // `order` are random keys: sorting indexes by them is a random permutation.
  return items.map((item, index) => ({ item, key: order[index] ?? 0, index })).sort((a, b) => a.key - b.key || a.index - b.index).map((entry) => entry.item);
}

/** The fields that do not depend on the order of the runs (names compared by key: the display form is the first one seen). */
function orderFree(metrics: RepeatMetrics) {
  return {
    okRuns: metrics.okRuns,
    comparable: metrics.comparable,
    pairs: metrics.pairs,
    sameSetPairs: metrics.sameSetPairs,
    jaccardMean: metrics.jaccardMean,
    union: metrics.union,
    inAll: sortedKeys(metrics.inAll),
    once: sortedKeys(metrics.once),
  };
}

describe('computeRepeatMetrics properties', () => {
  it('matches the RepeatMetrics schema: counts are integers, jaccardMean is in [0, 1] or null without pairs', () => {
    fc.assert(
      fc.property(runs, (input) => {
        const metrics = computeRepeatMetrics(input);
        expect(RepeatMetricsSchema.safeParse(metrics).success).toBe(true);
        expect(metrics.jaccardMean === null).toBe(metrics.pairs === 0);
        if (metrics.jaccardMean !== null) {
          expect(metrics.jaccardMean).toBeGreaterThanOrEqual(0);
          expect(metrics.jaccardMean).toBeLessThanOrEqual(1);
        }
      }),
      parameters(),
    );
  });

  it('counts successful runs and compares every pair of them once: pairs = n(n-1)/2', () => {
    fc.assert(
      fc.property(runs, (input) => {
        const metrics = computeRepeatMetrics(input);
        const n = input.filter((entry) => entry.ok).length;
        expect(metrics.okRuns).toBe(n);
        expect(metrics.comparable).toBe(n >= 2);
        expect(metrics.pairs).toBe((n * Math.max(0, n - 1)) / 2);
        expect(metrics.sameSetPairs).toBe(pairsOf(okKeySets(input)).filter(([a, b]) => sameSet(a, b)).length);
        expect(metrics.sameSetPairs).toBeLessThanOrEqual(metrics.pairs);
      }),
      parameters(),
    );
  });

  // Found by this property (FUZZ_SEED=2): a floating-point sum gave 0.187 for a true mean of 0.1875, and
  // 0.188 for the same runs in another order. Kept as an explicit example so the default seed checks it.
  const HALF_WAY_RUNS: Run[] = [
    { ok: true, brands: ['monday com', 'A&B', 'Zoho CRM', 'HubSpot'] },
    { ok: true, brands: ['HubSpot', 'Salesforce', 'Kiehl’s', 'A&B', 'Mercado Pago'] },
    { ok: true, brands: ['Mercado Pago', "Kiehl's", '0', 'HubSpot', 'Notion'] },
    { ok: true, brands: ['mercado pago', '1', 'Clip'] },
  ];

  it('reports the exact mean Jaccard overlap, rounded to 3 decimals', () => {
    expect(exactRoundedMean(okKeySets(HALF_WAY_RUNS))).toBe(0.188);
    fc.assert(
      fc.property(runs, (input) => {
        expect(computeRepeatMetrics(input).jaccardMean).toBe(exactRoundedMean(okKeySets(input)));
      }),
      { ...parameters<[Run[]]>(1_000), examples: [[HALF_WAY_RUNS], [[...HALF_WAY_RUNS].reverse()]] },
    );
  });

  it('is 1 with every pair the same set when all successful runs name the same brands (in any order or spelling)', () => {
    fc.assert(
      fc.property(brands, fc.integer({ min: 2, max: 6 }), fc.array(fc.nat(), { minLength: 6, maxLength: 6 }), (names, count, orders) => {
        const input: Run[] = Array.from({ length: count }, (_, index) => ({
          ok: true,
          brands: shuffled(index % 2 === 0 ? names : names.map((name) => name.toUpperCase()), orders.map((value) => value * (index + 1))),
        }));
        const metrics = computeRepeatMetrics(input);
        expect(metrics.jaccardMean).toBe(1);
        expect(metrics.sameSetPairs).toBe(metrics.pairs);
        expect(sortedKeys(metrics.inAll)).toEqual([...keysOf(names)].sort());
        expect(metrics.once).toEqual([]);
        expect(metrics.union).toBe(keysOf(names).size);
      }),
      parameters(),
    );
  });

  it('does not depend on the order of the runs', () => {
    fc.assert(
      fc.property(runs, fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), (input, order) => {
        const permuted = shuffled(input, order);
        expect(orderFree(computeRepeatMetrics(permuted))).toEqual(orderFree(computeRepeatMetrics(input)));
        // ...and the pair overlap is symmetric: reversing the runs swaps every pair's sides.
        expect(orderFree(computeRepeatMetrics([...input].reverse()))).toEqual(orderFree(computeRepeatMetrics(input)));
      }),
      { ...parameters<[Run[], number[]]>(), examples: [[HALF_WAY_RUNS, [3, 2, 1, 0, 0, 0, 0, 0]]] },
    );
  });

  it('names in inAll exactly the brands of every successful run, and in once exactly the brands of one run', () => {
    fc.assert(
      fc.property(runs, (input) => {
        const metrics = computeRepeatMetrics(input);
        const sets = okKeySets(input);
        const union = new Set(sets.flatMap((set) => [...set]));
        const inAll = sortedKeys(metrics.inAll);
        const once = sortedKeys(metrics.once);
        expect(metrics.union).toBe(union.size);
        expect(inAll).toEqual([...union].filter((key) => sets.every((set) => set.has(key))).sort());
        expect(once).toEqual([...union].filter((key) => sets.filter((set) => set.has(key)).length === 1).sort());
        for (const key of inAll) for (const set of sets) expect(set.has(key)).toBe(true);
        // One name per brand, each as some run spelled it.
        expect(new Set(inAll).size).toBe(inAll.length);
        expect(new Set(once).size).toBe(once.length);
        const named = new Set(input.filter((entry) => entry.ok).flatMap((entry) => entry.brands));
        for (const name of [...metrics.inAll, ...metrics.once]) expect(named.has(name)).toBe(true);
        if (sets.length >= 2) expect(inAll.filter((key) => once.includes(key))).toEqual([]);
      }),
      parameters(),
    );
  });

  it('keeps perRun aligned with the runs: the brands of a successful run, nothing for a failed one', () => {
    fc.assert(
      fc.property(runs, (input) => {
        const metrics = computeRepeatMetrics(input);
        expect(metrics.perRun).toHaveLength(input.length);
        input.forEach((entry, index) => expect(metrics.perRun[index]).toEqual(entry.ok ? entry.brands : []));
      }),
      parameters(),
    );
  });

  it('ignores failed runs and repeated spellings within a run, except in perRun', () => {
    fc.assert(
      fc.property(runs, fc.array(fc.nat({ max: 8 }), { maxLength: 4 }), (input, failedAt) => {
        const withFailures = [...input];
        for (const position of failedAt) withFailures.splice(Math.min(position, withFailures.length), 0, { ok: false, brands: [] });
        const doubled = input.map((entry) => ({ ok: entry.ok, brands: entry.ok ? [...entry.brands, ...entry.brands.map((name) => name.toLowerCase())] : [] }));
        const expected = orderFree(computeRepeatMetrics(input));
        expect(orderFree(computeRepeatMetrics(withFailures))).toEqual(expected);
        expect(orderFree(computeRepeatMetrics(doubled))).toEqual(expected);
      }),
      parameters(),
    );
  });
});
