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
  measuredAt: z.string().optional().describe('When the measurement finished (status done).'),
  caveats: z
    .array(z.string())
    .describe('Plain sentences to tell the user with the figures: demo answers, a website that could not be read, providers that did not answer, questions nobody answered.'),
  auditId: z.string().optional(),
  reportUrl: z.string().optional().describe("The report's own page: a private link that opens the full report, charts included, without signing in."),
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
  siteNotReadReason: z.string().optional().describe('Why the website could not be read; the questions were still asked.'),
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

/** How the links of a run are made: BASE_URL and the report's signed link. */
export interface RunLinks {
  baseUrl: string;
  reportUrl(auditId: string): string;
}

/** The structured output of a run; links point at BASE_URL. */
export function runOutput(view: VisibilityRunView, links: RunLinks): RunOutput {
  const { result, ...run } = view;
  const baseUrl = links.baseUrl;
  return {
    ...run,
    pollAfterSeconds: pollAfterSeconds(view),
    ...(view.status === 'done' && view.finishedAt !== undefined ? { measuredAt: view.finishedAt } : {}),
    caveats: runCaveats(view),
    ...(view.auditId === undefined || view.status !== 'done' ? {} : { reportUrl: links.reportUrl(view.auditId) }),
    ...(view.auditId === undefined || (result?.buyerQuestionsAsked ?? 0) === 0
      ? {}
      : { buyerQuestionMapUrl: `${baseUrl}/api/audit/${view.auditId}/fanout-map` }),
    ...(result === undefined ? {} : result),
  };
}

/** The demo caveat, word for word in every answer about a demo run. */
export const DEMO_CAVEAT =
  'These are demo answers from the built-in simulator, not from real AI models: do not present them as what a real AI assistant said.';

/**
 * What the user must hear with the figures, as sentences an assistant can repeat: demo answers, a
 * website that could not be read, providers that did not answer, questions nobody answered, a budget cut.
 */
export function runCaveats(view: VisibilityRunView): string[] {
  const caveats: string[] = [];
  if (view.mode === 'demo') caveats.push(DEMO_CAVEAT);
  if (view.status === 'failed' && view.error?.code === 'site_unreachable') {
    caveats.push(`The website ${view.website} could not be reached, so nothing was measured and no AI provider was asked.`);
  }
  const result = view.result;
  if (view.status !== 'done' || result === undefined) return caveats;
  if (result.siteNotReadReason !== undefined) {
    caveats.push(
      `The website could not be read (${result.siteNotReadReason}), so the checks of the site itself are missing; the buyer questions were still asked and the figures stand.`,
    );
  }
  const asked = result.providersAnswered.length + result.providersFailed.length;
  if (result.providersFailed.length > 0) {
    const failed = result.providersFailed.map((provider) => `${provider.provider} (${provider.reason})`).join(', ');
    caveats.push(
      result.providersAnswered.length === 0
        ? `No AI provider answered: ${failed}. Nothing was measured.`
        : `Only ${result.providersAnswered.length} of ${asked} AI providers answered; ${failed} did not, so the figures count the others only and a provider that did not answer is never counted as leaving the brand out.`,
    );
  }
  const gaps = result.providersAnswered.filter((provider) => provider.questionsFailed > 0);
  if (gaps.length > 0) {
    caveats.push(
      `Some answers are missing: ${gaps
        .map((provider) => `${provider.provider} did not answer ${provider.questionsFailed} of ${provider.questionsAnswered + provider.questionsFailed} buyer questions`)
        .join('; ')}; those are not counted as leaving the brand out.`,
    );
  }
  const unanswered = result.buyerQuestionsAsked - result.buyerQuestionsTotal;
  if (unanswered > 0) {
    caveats.push(`${unanswered} of ${result.buyerQuestionsAsked} buyer questions got no answer from any provider and are not counted as won or lost.`);
  }
  if (result.verdict.degraded) caveats.push('The monthly budget allowed one sample per question only, so the score is less certain than usual.');
  if (!result.verdict.measured) caveats.push(`The visibility score was not measured${result.verdict.notMeasuredReason === undefined ? '' : ` (${result.verdict.notMeasuredReason})`}; it is not a score of 0.`);
  return caveats;
}
