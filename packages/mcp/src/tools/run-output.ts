// A run view (core) as the tools' structured output: the result flattened to the top level, plus links.

import type { VisibilityRunView } from '@visibility/core';
import { z } from 'zod';
import {
  BuyerQuestionSchema,
  CompetitorSchema,
  ProviderAnsweredSchema,
  ProviderFailedSchema,
  RunIdentityShape,
  RunProgressSchema,
  VerdictSchema,
} from './run-schema.js';

/** get_visibility_check's structured output. */
export const RunOutputSchema = z.object({
  ...RunIdentityShape,
  finishedAt: z.string().optional(),
  progress: RunProgressSchema.optional().describe('While the check runs.'),
  error: z.object({ code: z.string(), message: z.string() }).optional().describe('When status is failed.'),
  auditId: z.string().optional(),
  reportUrl: z
    .string()
    .optional()
    .describe('Where the full report is: sign in there with the email given at start to see it and create a share link.'),
  buyerQuestionMapUrl: z.string().optional().describe('The measured answers to every buyer question, as public JSON.'),
  verdict: VerdictSchema.optional(),
  buyerQuestionsWon: z.number().int().min(0).optional().describe('Buyer questions where at least one AI assistant that answered named the brand.'),
  buyerQuestionsTotal: z.number().int().min(0).optional().describe('Buyer questions at least one AI assistant answered.'),
  buyerQuestionsAsked: z.number().int().min(0).optional(),
  buyerQuestions: z.array(BuyerQuestionSchema).optional(),
  competitorsNamedInstead: z.array(CompetitorSchema).optional(),
  providersAnswered: z.array(ProviderAnsweredSchema).optional(),
  providersFailed: z.array(ProviderFailedSchema).optional(),
  mapMissingReason: z.string().optional(),
});

export type RunOutput = z.output<typeof RunOutputSchema>;

/** When to poll again: soon while the map fills in, later while the audit asks its questions. */
export function pollAfterSeconds(view: Pick<VisibilityRunView, 'status'>): number {
  switch (view.status) {
    case 'done':
    case 'failed':
      return 0;
    case 'mapping':
      return 5;
    case 'queued':
    case 'auditing':
      return 15;
  }
}

/** The structured output of a run; links point at BASE_URL. */
export function runOutput(view: VisibilityRunView, baseUrl: string): RunOutput {
  const { result, ...run } = view;
  return {
    ...run,
    pollAfterSeconds: pollAfterSeconds(view),
    ...(view.auditId === undefined || view.status !== 'done' ? {} : { reportUrl: `${baseUrl}/account` }),
    ...(view.auditId === undefined || (result?.buyerQuestionsAsked ?? 0) === 0
      ? {}
      : { buyerQuestionMapUrl: `${baseUrl}/api/audit/${view.auditId}/fanout-map` }),
    ...(result === undefined ? {} : result),
  };
}
