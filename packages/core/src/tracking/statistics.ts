// The statistics of tracking (docs/tracking.md says them in plain words): a 95% Wilson interval per rate, and
// a change only when a two-proportion z-test between the latest run and the runs before it is significant at
// 95% after a Bonferroni correction over every test of DETECTION_WINDOW_RUNS runs (so a month of daily runs
// of an unchanged world raises no alert at all with about 95% probability), and the rate moved by at least
// MIN_EFFECT. Noise alone then almost never alerts (scripts/tracking/noise.ts measures it).

import { wilsonInterval } from '../audit/statistics.js';
import { normalizeBrandKey } from '../extraction/index.js';
import type { ProviderId } from '../providers/types.js';
import type { StoredPoint, WatchChange } from './types.js';

/** The family-wise error level: 95% confidence. */
export const CHANGE_LEVEL = 0.05;
/**
 * The family covers the tests of this many consecutive runs (a month of daily runs). Per-run 95% would still
 * alert about once in twenty runs of an unchanged world (measured with the simulator: 2 false alerts in 30
 * daily runs at a 50% rate), which for a daily watch is a false alarm every few weeks.
 */
export const DETECTION_WINDOW_RUNS = 30;
/** The smallest move (in proportion points) reported as a change, however significant: 10 points. */
export const MIN_EFFECT = 0.1;
/** At most this many earlier runs form the baseline (a rolling window, so an old level fades out). */
export const BASELINE_MAX_RUNS = 8;
/**
 * After a change, a series is tested again only once its new level has this many runs: one run is too
 * thin a baseline, and a false alarm would otherwise be followed by a second one when the next run is back
 * at the old level.
 */
export const MIN_RUNS_AFTER_CHANGE = 3;

/** Standard normal cumulative distribution (Cody-style erfc via a rational approximation, |error| < 1.2e-7). */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

function erfc(x: number): number {
  // Numerical Recipes' erfcc: fractional error below 1.2e-7 everywhere.
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/**
 * Two-sided two-proportion z-test with the pooled variance: is x1/n1 different from x0/n0? With no answers
 * on a side, or both rates 0 or both 1, there is nothing to tell them apart: p = 1.
 */
export function twoProportionTest(x0: number, n0: number, x1: number, n1: number): { z: number; pValue: number } {
  if (n0 <= 0 || n1 <= 0) return { z: 0, pValue: 1 };
  const pooled = (x0 + x1) / (n0 + n1);
  const variance = pooled * (1 - pooled) * (1 / n0 + 1 / n1);
  if (variance <= 0) return { z: 0, pValue: 1 };
  const z = (x1 / n1 - x0 / n0) / Math.sqrt(variance);
  return { z, pValue: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))) };
}

/** An earlier run as change detection reads it (newest first). */
export interface EarlierRun {
  runId: string;
  point: StoredPoint;
  changes: readonly WatchChange[];
}

interface Tally {
  named: number;
  answers: number;
}

/**
 * The changes of the latest run against the earlier ones. Per provider and overall, the baseline is the
 * earlier runs since the last change of that series (so one real change alerts once, then becomes the new
 * level), at most {@link BASELINE_MAX_RUNS}. Competitors (all providers pooled): one never named in the
 * baseline and now named is `new_competitor`; one named in the run just before and not at all now is
 * `dropped_out`. Every test of the run shares one 95% level (Bonferroni), and a change must move its rate by
 * at least {@link MIN_EFFECT}.
 */
export function detectChanges(latest: { runId: string; at: string; point: StoredPoint }, earlier: readonly EarlierRun[]): WatchChange[] {
  if (earlier.length === 0) return [];
  interface Candidate {
    provider: ProviderId | 'overall';
    kind: WatchChange['kind'];
    competitor?: string;
    baseline: Tally;
    now: Tally;
    baselineRuns: number;
    test: { pValue: number };
  }
  const candidates: Candidate[] = [];

  // The brand's own rate: each provider of the latest run, and overall.
  const series: Array<{ key: ProviderId | 'overall'; read: (point: StoredPoint) => Tally | undefined }> = [
    ...(Object.keys(latest.point.providers) as ProviderId[]).map((provider) => ({
      key: provider,
      read: (point: StoredPoint): Tally | undefined => {
        const entry = point.providers[provider];
        return entry === undefined ? undefined : { named: entry.named, answers: entry.answers };
      },
    })),
    { key: 'overall' as const, read: (point: StoredPoint): Tally | undefined => ({ named: point.overall.named, answers: point.overall.answers }) },
  ];
  for (const { key, read } of series) {
    const now = read(latest.point);
    if (now === undefined || now.answers === 0) continue;
    const baseline: Tally = { named: 0, answers: 0 };
    let runs = 0;
    let sinceChange = false;
    for (const run of earlier) {
      if (runs >= BASELINE_MAX_RUNS) break;
      const tally = read(run.point);
      if (tally !== undefined && tally.answers > 0) {
        baseline.named += tally.named;
        baseline.answers += tally.answers;
        runs += 1;
      }
      // The run that changed this series starts its new level: it belongs to the baseline, the runs before it do not.
      if (run.changes.some((change) => change.provider === key && change.competitor === undefined)) {
        sinceChange = true;
        break;
      }
    }
    if (baseline.answers === 0 || (sinceChange && runs < MIN_RUNS_AFTER_CHANGE)) continue;
    const kind = now.named === 0 && baseline.named > 0 ? 'dropped_out' : 'mention_rate';
    candidates.push({ provider: key, kind, baseline, now, baselineRuns: runs, test: twoProportionTest(baseline.named, baseline.answers, now.named, now.answers) });
  }

  // Competitors, all providers pooled: entering and leaving the answers.
  const window = earlier.slice(0, BASELINE_MAX_RUNS);
  const baselineAnswers = window.reduce((sum, run) => sum + run.point.overall.answers, 0);
  const latestAnswers = latest.point.overall.answers;
  if (baselineAnswers > 0 && latestAnswers > 0) {
    const countsIn = (point: StoredPoint): Map<string, { name: string; mentions: number }> =>
      new Map(point.competitors.map((entry) => [normalizeBrandKey(entry.name), entry]));
    const latestCounts = countsIn(latest.point);
    const baselineCounts = new Map<string, number>();
    for (const run of window) for (const [key, entry] of countsIn(run.point)) baselineCounts.set(key, (baselineCounts.get(key) ?? 0) + entry.mentions);
    for (const [key, entry] of latestCounts) {
      if ((baselineCounts.get(key) ?? 0) > 0) continue;
      const baseline = { named: 0, answers: baselineAnswers };
      const now = { named: entry.mentions, answers: latestAnswers };
      candidates.push({ provider: 'overall', kind: 'new_competitor', competitor: entry.name, baseline, now, baselineRuns: window.length, test: twoProportionTest(0, baselineAnswers, entry.mentions, latestAnswers) });
    }
    const previous = earlier[0];
    if (previous !== undefined && previous.point.overall.answers > 0) {
      for (const [key, entry] of countsIn(previous.point)) {
        if (latestCounts.has(key)) continue;
        const named = baselineCounts.get(key) ?? entry.mentions;
        const baseline = { named, answers: baselineAnswers };
        const now = { named: 0, answers: latestAnswers };
        candidates.push({ provider: 'overall', kind: 'dropped_out', competitor: entry.name, baseline, now, baselineRuns: window.length, test: twoProportionTest(named, baselineAnswers, 0, latestAnswers) });
      }
    }
  }

  const threshold = CHANGE_LEVEL / (Math.max(1, candidates.length) * DETECTION_WINDOW_RUNS);
  const changes: WatchChange[] = [];
  for (const candidate of candidates) {
    const from = candidate.baseline.named / candidate.baseline.answers;
    const to = candidate.now.named / candidate.now.answers;
    const effect = to - from;
    if (candidate.test.pValue >= threshold || Math.abs(effect) < MIN_EFFECT) continue;
    changes.push({
      at: latest.at,
      runId: latest.runId,
      provider: candidate.provider,
      kind: candidate.kind,
      ...(candidate.competitor === undefined ? {} : { competitor: candidate.competitor }),
      from: round(from),
      to: round(to),
      effect: round(effect),
      fromInterval: roundPair(wilsonInterval(candidate.baseline.named, candidate.baseline.answers)),
      toInterval: roundPair(wilsonInterval(candidate.now.named, candidate.now.answers)),
      pValue: Number(candidate.test.pValue.toPrecision(3)),
      threshold: Number(threshold.toPrecision(3)),
      direction: effect > 0 ? 'up' : 'down',
      baselineAnswers: candidate.baseline.answers,
      latestAnswers: candidate.now.answers,
      baselineRuns: candidate.baselineRuns,
    });
  }
  return changes;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function roundPair([low, high]: readonly [number, number]): [number, number] {
  return [round(low), round(high)];
}
