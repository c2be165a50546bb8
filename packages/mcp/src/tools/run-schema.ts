// The output schemas the two tools share. Public API: tools/list publishes them and a test snapshots them.
// Intervals are arrays of two numbers (minItems/maxItems) rather than tuples, so the schema stays plain
// JSON Schema every client's validator reads.

import { z } from 'zod';

export const RUN_STATUSES = ['queued', 'auditing', 'mapping', 'done', 'failed'] as const;
export const RUN_STAGES = ['queued', 'crawl', 'questions', 'answers', 'findings', 'map', 'done', 'failed'] as const;
const PROVIDERS = ['openai', 'anthropic', 'gemini'] as const;

export const RunStatusSchema = z
  .enum(RUN_STATUSES)
  .describe('queued -> auditing (crawl, questions, answers) -> mapping (buyer-question map) -> done; or failed.');

export const RunProgressSchema = z.object({
  stage: z.enum(RUN_STAGES),
  completed: z.number().int().min(0).describe('Steps of this stage done.'),
  total: z.number().int().min(0),
  percent: z.number().min(0).max(100).describe('The whole check, 0 to 100.'),
  message: z.string().describe('e.g. "answers 12/45", "buyer-question map 10/24".'),
});

const IntervalSchema = z.array(z.number()).min(2).max(2).describe('[low, high], 95% interval.');

export const VerdictSchema = z.object({
  risk: z.enum(['low', 'medium', 'high', 'critical', 'unknown']).describe('Risk band derived from the score: how likely AI assistants leave the brand out.'),
  score: z.number().min(0).max(100).nullable().describe('Visibility score 0 to 100; null when nothing was measured (not a score of 0).'),
  scoreInterval: IntervalSchema.nullable(),
  measured: z.boolean(),
  confidence: z.enum(['high', 'medium', 'low']),
  degraded: z.boolean().describe('True when the monthly budget allowed one sample per question only.'),
  notMeasuredReason: z.string().optional(),
});

export const BuyerQuestionSchema = z.object({
  question: z.string(),
  won: z.boolean().describe('At least one AI assistant that answered named the brand.'),
  namedBy: z.array(z.enum(PROVIDERS)),
  failedProviders: z.array(z.enum(PROVIDERS)).describe('Providers whose call failed for this question: not measured, not "not named".'),
});

export const CompetitorSchema = z.object({
  name: z.string(),
  namedInstead: z.number().int().min(0).describe('Answers that named it and not the brand.'),
  mentions: z.number().int().min(0),
});

export const ProviderAnsweredSchema = z.object({
  provider: z.enum(PROVIDERS),
  model: z.string().describe('The exact model id that answered ("demo-" prefixed on the demo lineup).'),
  questionsAnswered: z.number().int().min(0),
  questionsWon: z.number().int().min(0),
  questionsFailed: z.number().int().min(0),
});

export const ProviderFailedSchema = z.object({
  provider: z.enum(PROVIDERS),
  reason: z.string(),
});

/** Fields every answer about a run carries. */
export const RunIdentityShape = {
  runId: z.string().describe('Pass it to get_visibility_check.'),
  status: RunStatusSchema,
  mode: z.enum(['demo', 'live']).describe('demo: answers came from the built-in simulator, not real AI models.'),
  domain: z.string().describe('The quota key: the website host without "www.".'),
  brand: z.string(),
  website: z.string(),
  category: z.string(),
  createdAt: z.string(),
  quotaRenewsAt: z.string().describe('When this domain can be measured for free again.'),
  pollAfterSeconds: z.number().int().min(0).describe('When to call get_visibility_check again; 0 when the check is finished.'),
};
