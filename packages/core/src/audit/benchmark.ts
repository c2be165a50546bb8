// categoryBenchmark: how other brands' audits in the same category scored. The REST layer passes the
// scores of the stored audits in the category, this brand's excluded.

import { median } from './statistics.js';
import type { CategoryBenchmark } from './types.js';

/** Count, mean and median of the other audits' scores; null when there are none. */
export function computeCategoryBenchmark(otherAuditScores: readonly number[]): CategoryBenchmark | null {
  // Unmeasured audits are stored with no score; anything outside 0..100 is not a score either.
  const scores = otherAuditScores.filter((score) => Number.isFinite(score) && score >= 0 && score <= 100);
  const middle = median(scores);
  if (middle === null) return null;
  const average = scores.reduce((sum, score) => sum + score, 0) / scores.length;
  // One decimal: averages of whole-point scores need no more.
  return { audits: scores.length, averageScore: Math.round(average * 10) / 10, medianScore: Math.round(middle * 10) / 10 };
}
