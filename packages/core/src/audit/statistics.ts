// The audit's numbers: the Wilson score interval for a mention rate, the position weight behind the
// scores, the risk bands and the confidence label. Formulas and reasons: docs/methodology.md, "The audit".

import type { Confidence, Interval, RiskBand } from './types.js';

/** The two-sided 95% normal quantile. */
export const Z_95 = 1.959963984540054;

/**
 * 95% Wilson score interval of a proportion of `successes` in `trials`. Unlike the textbook p ± z·SE it
 * stays inside [0, 1] and does not collapse to a point at 0 or n successes, which matters with few samples.
 * With no trials nothing is known: [0, 1].
 */
export function wilsonInterval(successes: number, trials: number, z: number = Z_95): Interval {
  if (!Number.isInteger(trials) || trials < 0) throw new RangeError(`trials must be a non-negative integer, got ${trials}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > trials) {
    throw new RangeError(`successes must be an integer from 0 to ${trials}, got ${successes}`);
  }
  if (trials === 0) return [0, 1];
  const proportion = successes / trials;
  const zSquared = z * z;
  const denominator = 1 + zSquared / trials;
  const center = (proportion + zSquared / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((proportion * (1 - proportion)) / trials + zSquared / (4 * trials * trials))) / denominator;
  // Exactly 0 or n successes put one bound at 0 or 1; floating point would leave 1e-17 crumbs there.
  return [successes === 0 ? 0 : Math.max(0, center - half), successes === trials ? 1 : Math.min(1, center + half)];
}

/** The lowest weight a named position earns: being named at all is worth at least half of being named first. */
export const MIN_POSITION_WEIGHT = 0.5;
/** What each place after the first costs. */
export const POSITION_WEIGHT_STEP = 0.1;

/**
 * How much an answer naming the brand at this 1-based position counts: 1 at position 1, 0.1 less per place,
 * never below 0.5 (6th and later). A mention whose position is unknown counts as the lowest weight.
 */
export function positionWeight(position: number | null): number {
  if (position === null || !Number.isFinite(position) || position < 1) return MIN_POSITION_WEIGHT;
  return Math.max(MIN_POSITION_WEIGHT, 1 - POSITION_WEIGHT_STEP * (Math.floor(position) - 1));
}

/**
 * 95% Wilson interval for the mean of outcomes bounded in [0, 1] (here: each answer's position weight, 0 when
 * the brand is not named). The Wilson formula with p̂ = the mean is conservative for such outcomes (their
 * variance is at most p(1 − p)), stays inside [0, 1] and always contains the mean itself.
 */
export function wilsonIntervalForMean(mean: number, trials: number, z: number = Z_95): Interval {
  if (!Number.isInteger(trials) || trials < 0) throw new RangeError(`trials must be a non-negative integer, got ${trials}`);
  if (!(mean >= 0 && mean <= 1)) throw new RangeError(`mean must be within [0, 1], got ${mean}`);
  if (trials === 0) return [0, 1];
  const zSquared = z * z;
  const denominator = 1 + zSquared / trials;
  const center = (mean + zSquared / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((mean * (1 - mean)) / trials + zSquared / (4 * trials * trials))) / denominator;
  return [mean === 0 ? 0 : Math.max(0, Math.min(mean, center - half)), mean === 1 ? 1 : Math.min(1, Math.max(mean, center + half))];
}

/**
 * A 0..100 score and its 95% interval from named answers out of successful ones, with their position weights.
 * The score is the mean over successful answers of 100 × weight (0 for an answer that does not name the
 * brand); its interval is the Wilson interval of that mean ({@link wilsonIntervalForMean}), so the score
 * always lies inside its interval, strictly so unless it is 0 or 100. Both are rounded the same way.
 */
export function scoreFromMentions(positionWeights: readonly number[], successfulSamples: number): { score: number; interval: Interval } {
  const named = positionWeights.length;
  if (named > successfulSamples) throw new RangeError(`named answers (${named}) exceed successful ones (${successfulSamples})`);
  const total = positionWeights.reduce((sum, weight) => sum + Math.min(1, Math.max(0, weight)), 0);
  const mean = successfulSamples === 0 ? 0 : total / successfulSamples;
  const [low, high] = wilsonIntervalForMean(mean, successfulSamples);
  const score = roundScore(100 * mean);
  // Rounded separately, a bound could cross the rounded score by a point; keep the score inside.
  return { score, interval: [Math.min(score, roundScore(100 * low)), Math.max(score, roundScore(100 * high))] };
}

/** Risk bands by score: the lower the score, the more business assistants send elsewhere. */
export const RISK_THRESHOLDS = { low: 70, medium: 40, high: 15 } as const;

/** The risk band of a score: low ≥ 70, medium 40–69, high 15–39, critical < 15; unknown when not measured. */
export function riskBand(score: number, measured = true): RiskBand {
  if (!measured) return 'unknown';
  if (score >= RISK_THRESHOLDS.low) return 'low';
  if (score >= RISK_THRESHOLDS.medium) return 'medium';
  if (score >= RISK_THRESHOLDS.high) return 'high';
  return 'critical';
}

/** Sample counts and interval widths behind the confidence label. */
export const CONFIDENCE_RULES = {
  high: { minSamples: 36, maxWidth: 0.3 },
  medium: { minSamples: 12, maxWidth: 0.45 },
} as const;

/**
 * How far the overall mention rate can be trusted: high with at least 36 successful answers and a 95%
 * interval at most 30 points wide (never in degraded mode, where run-to-run variation is unseen), medium
 * with at least 12 and at most 45 points, low otherwise.
 */
export function confidenceLevel(successfulSamples: number, mentionRateInterval: Interval | null, degraded: boolean): Confidence {
  if (mentionRateInterval === null) return 'low';
  const width = mentionRateInterval[1] - mentionRateInterval[0];
  if (!degraded && successfulSamples >= CONFIDENCE_RULES.high.minSamples && width <= CONFIDENCE_RULES.high.maxWidth) return 'high';
  if (successfulSamples >= CONFIDENCE_RULES.medium.minSamples && width <= CONFIDENCE_RULES.medium.maxWidth) return 'medium';
  return 'low';
}

/** Scores are reported as whole points: finer digits would suggest a precision the samples do not have. */
export function roundScore(value: number): number {
  return Math.min(100, Math.max(0, Math.round(value)));
}

/** Rates and positions keep 3 decimals: enough to recompute percentages, short enough to read. */
export function roundRate(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The middle value (mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}
