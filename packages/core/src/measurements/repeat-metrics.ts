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
  let jaccardSum = 0;
  for (let left = 0; left < okKeySets.length; left += 1) {
    for (let right = left + 1; right < okKeySets.length; right += 1) {
      const a = okKeySets[left] as Set<string>;
      const b = okKeySets[right] as Set<string>;
      let shared = 0;
      for (const key of a) if (b.has(key)) shared += 1;
      const unionSize = a.size + b.size - shared;
      pairs += 1;
      if (shared === a.size && shared === b.size) sameSetPairs += 1;
      jaccardSum += unionSize === 0 ? 1 : shared / unionSize;
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
    jaccardMean: pairs === 0 ? null : Math.round((jaccardSum / pairs) * 1000) / 1000,
    union: runsNaming.size,
    inAll,
    once,
    perRun,
  };
}
