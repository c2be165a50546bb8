// The composite score of checkBrandRecognition and its verdict buckets. Pure; the numbers and their
// rationale are published in docs/methodology.md, which must change with this file.

import type { RecommendVerdict } from './parse-answers.js';

export type CheckVerdict = 'ai_approved' | 'barely_visible' | 'invisible';

/** The points each part of the check is worth; they add up to 100 when the blind list was asked. */
export const CHECK_SCORE_POINTS = {
  /** The model says it knows the brand. */
  recognition: 30,
  /** Named first in the blind list. */
  listFirst: 40,
  /** Named last (8th) in the blind list; positions in between fall linearly. */
  listLast: 12,
  recommendYes: 30,
  recommendUnsure: 10,
  recommendNo: 0,
  /** Recognition alone, when no category was given: below `ai_approved`, since the list was not measured. */
  recognitionOnly: 60,
} as const;

/** The lowest score of each verdict bucket, as the spec sets them. */
export const VERDICT_THRESHOLDS = { aiApproved: 75, barelyVisible: 40 } as const;

const LIST_POSITIONS = 8;

export interface CheckScoreInput {
  knows: boolean;
  /** 1-based position in the blind list, or null when the brand was not named. */
  listPosition: number | null;
  recommendVerdict: RecommendVerdict;
  /** False when there was no category, so no blind list was asked: the score reflects recognition only. */
  blindListAsked: boolean;
}

/** The composite score, an integer 0..100 (formula in docs/methodology.md). */
export function computeCheckScore(input: CheckScoreInput): number {
  if (!input.blindListAsked) return input.knows ? CHECK_SCORE_POINTS.recognitionOnly : 0;
  const score = (input.knows ? CHECK_SCORE_POINTS.recognition : 0) + listPoints(input.listPosition) + recommendPoints(input);
  return Math.min(100, Math.max(0, Math.round(score)));
}

/** Points for the blind-list position: 40 for 1st down to 12 for 8th, 0 when absent. */
export function listPoints(listPosition: number | null): number {
  if (listPosition === null || !Number.isInteger(listPosition) || listPosition < 1 || listPosition > LIST_POSITIONS) return 0;
  const step = (CHECK_SCORE_POINTS.listFirst - CHECK_SCORE_POINTS.listLast) / (LIST_POSITIONS - 1);
  return CHECK_SCORE_POINTS.listFirst - (listPosition - 1) * step;
}

function recommendPoints(input: CheckScoreInput): number {
  // A "yes" about a brand the model says it does not know is not an informed recommendation (models hedge
  // "could be worth trying if reviews look good"), so it counts as unsure.
  const verdict = input.recommendVerdict === 'yes' && !input.knows ? 'unsure' : input.recommendVerdict;
  if (verdict === 'yes') return CHECK_SCORE_POINTS.recommendYes;
  if (verdict === 'unsure') return CHECK_SCORE_POINTS.recommendUnsure;
  return CHECK_SCORE_POINTS.recommendNo;
}

/** The spec's bucket for a score: ai_approved (75+), barely_visible (40–74), invisible (below 40). */
export function checkVerdict(score: number): CheckVerdict {
  if (score >= VERDICT_THRESHOLDS.aiApproved) return 'ai_approved';
  if (score >= VERDICT_THRESHOLDS.barelyVisible) return 'barely_visible';
  return 'invisible';
}
