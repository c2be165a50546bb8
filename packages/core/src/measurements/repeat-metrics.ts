import { normalizeBrandKey } from '../extraction/index.js';

/** One run of a repeated question, as the spec's RepeatRun. */
export interface RepeatRun {
  ok: boolean;
  brands: string[];
  answer: string | null;
  error?: string;
}

/** The spec's RepeatMetrics. */
export interface RepeatMetrics {
  okRuns: number;
  comparable: boolean;
  pairs: number;
  sameSetPairs: number;
  jaccardMean: number | null;
  union: number;
  inAll: string[];
  once: string[];
  perRun: string[][];
}

/**
 * Repeatability of a set of runs. Brands are compared by their normalised key (case, diacritics,
 * marks), and reported in the form first seen. Pairs are over successful runs only; two runs that
 * both named nothing count as the same set with overlap 1. Only `ok` and `brands` are read, so runs as
 * parsed from a RepeatResponse (where `answer` is optional) are accepted too.
 */
export function computeRepeatMetrics(runs: readonly Pick<RepeatRun, 'ok' | 'brands'>[]): RepeatMetrics {
  const displayName = new Map<string, string>();
  const okKeySets: Array<Set<string>> = [];
  const perRun = runs.map((run) => (run.ok ? [...run.brands] : []));
  for (const run of runs) {
    if (!run.ok) continue;
    const keys = new Set<string>();
    for (const brand of run.brands) {
      const key = normalizeBrandKey(brand);
      if (key === '') continue;
      if (!displayName.has(key)) displayName.set(key, brand);
      keys.add(key);
    }
    okKeySets.push(keys);
  }

  let pairs = 0;
  let sameSetPairs = 0;
  const jaccardSum = new ExactSum();
  for (let left = 0; left < okKeySets.length; left += 1) {
    for (let right = left + 1; right < okKeySets.length; right += 1) {
      const a = okKeySets[left] as Set<string>;
      const b = okKeySets[right] as Set<string>;
      let shared = 0;
      for (const key of a) if (b.has(key)) shared += 1;
      const unionSize = a.size + b.size - shared;
      pairs += 1;
      if (shared === a.size && shared === b.size) sameSetPairs += 1;
      if (unionSize === 0) jaccardSum.add(1, 1);
      else jaccardSum.add(shared, unionSize);
    }
  }

  const runsNaming = new Map<string, number>();
  for (const keys of okKeySets) for (const key of keys) runsNaming.set(key, (runsNaming.get(key) ?? 0) + 1);
  const inAll: string[] = [];
  const once: string[] = [];
  for (const [key, count] of runsNaming) {
    const name = displayName.get(key) ?? key;
    if (okKeySets.length > 0 && count === okKeySets.length) inAll.push(name);
    if (count === 1) once.push(name);
  }

  return {
    okRuns: okKeySets.length,
    comparable: okKeySets.length >= 2,
    pairs,
    sameSetPairs,
    jaccardMean: pairs === 0 ? null : jaccardSum.meanRounded(pairs, 1000),
    union: runsNaming.size,
    inAll,
    once,
    perRun,
  };
}

/**
 * A sum of fractions kept exact (BigInt numerator and denominator). A floating-point sum of the pair
 * overlaps depends on the order of the runs, and its mean rounded to 3 decimals then did too: a true mean
 * of 0.1875 came out 0.187 or 0.188 depending on which run was first.
 */
class ExactSum {
  private numerator = 0n;
  private denominator = 1n;

  add(numerator: number, denominator: number): void {
    const n = BigInt(numerator);
    const d = BigInt(denominator);
    this.numerator = this.numerator * d + n * this.denominator;
    this.denominator *= d;
    const divisor = gcd(this.numerator, this.denominator);
    if (divisor > 1n) {
      this.numerator /= divisor;
      this.denominator /= divisor;
    }
  }

  /** The sum divided by `count`, rounded half up to 1/`scale` (as Math.round would round the exact value). */
  meanRounded(count: number, scale: number): number {
    const denominator = this.denominator * BigInt(count);
    const scaled = (2n * BigInt(scale) * this.numerator + denominator) / (2n * denominator);
    return Number(scaled) / scale;
  }
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}
