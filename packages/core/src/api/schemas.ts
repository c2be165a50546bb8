import { z } from 'zod';
import { PROVIDER_IDS } from '../providers/types.js';

// The public interface's bodies, field by field as the service spec writes them. The REST handlers
// validate with these and /openapi.json is generated from them: one source of truth.

export const ProviderIdSchema = z.enum(PROVIDER_IDS).meta({ description: 'Provider id.' });

export const ApiErrorSchema = z
  .object({
    error: z.string().meta({ description: 'One sentence safe to show to a person. Wording may change.' }),
    code: z.string().meta({ description: 'Stable identifier to branch on.' }),
    hint: z.string().meta({ description: 'What to do next: wait, fix a field, or use another endpoint.' }),
    docs: z.url().meta({ description: 'URL of the human-readable reference for the API.' }),
  })
  .meta({ id: 'ApiError', description: 'Every error body.' });

export const RepeatRequestSchema = z
  .object({
    question: z.string().min(1).max(200).meta({ description: '1 to 200 characters. Asked verbatim, with no system prompt.' }),
    provider: ProviderIdSchema.default('openai').meta({
      description: 'Default `openai`. Not every provider is enabled at all times.',
    }),
  })
  .meta({ id: 'RepeatRequest' });

export const RepeatRunSchema = z
  .object({
    ok: z.boolean().meta({ description: 'False when that run failed; its `brands` are then empty.' }),
    brands: z.array(z.string()).meta({ description: 'Brands named in the run, deduplicated.' }),
    answer: z.string().nullable().optional().meta({ description: 'Raw answer text; null when the run failed.' }),
    error: z.string().optional().meta({ description: 'Present only on a failed run.' }),
  })
  .meta({ id: 'RepeatRun' });

export const RepeatMetricsSchema = z
  .object({
    okRuns: z.int().min(0).meta({ description: 'Runs that returned an answer.' }),
    comparable: z.boolean().meta({ description: 'True when at least two runs can be compared.' }),
    pairs: z.int().min(0).meta({ description: 'Run pairs compared.' }),
    sameSetPairs: z.int().min(0).meta({ description: 'Pairs that named exactly the same set of brands.' }),
    jaccardMean: z.number().min(0).max(1).nullable().optional().meta({
      description: 'Mean Jaccard overlap across pairs, 0 to 1; null when there are no pairs.',
    }),
    union: z.int().min(0).meta({ description: 'Distinct brands named across all runs.' }),
    inAll: z.array(z.string()).meta({ description: 'Brands named in every successful run.' }),
    once: z.array(z.string()).meta({ description: 'Brands named in exactly one run.' }),
    perRun: z.array(z.array(z.string())).meta({ description: 'Brands per run, aligned with `runs`.' }),
  })
  .meta({ id: 'RepeatMetrics' });

export const RepeatResponseSchema = z
  .object({
    question: z.string().meta({ description: 'The question as asked, whitespace normalised.' }),
    provider: ProviderIdSchema,
    model: z.string().meta({ description: 'Exact model id that answered.' }),
    runsRequested: z.int().meta({ description: 'Runs attempted (5).' }),
    runs: z.array(RepeatRunSchema).meta({ description: 'One entry per run, in order.' }),
    metrics: RepeatMetricsSchema,
  })
  .meta({ id: 'RepeatResponse' });

export const CheckRequestSchema = z
  .object({
    brand: z.string().min(1).max(80).meta({ description: 'Max 80 characters. Missing or empty gives `missing_brand`.' }),
    category: z.string().max(120).optional().meta({
      description: 'Max 120 characters. Without it the blind-list half of the check is skipped and the score reflects recognition only.',
    }),
  })
  .meta({ id: 'CheckRequest' });

export const CHECK_VERDICTS = ['ai_approved', 'barely_visible', 'invisible'] as const;
export const RECOMMEND_VERDICTS = ['yes', 'no', 'unsure'] as const;

export const CheckResponseSchema = z
  .object({
    score: z.int().min(0).max(100).meta({ description: 'Composite visibility score.' }),
    verdict: z.enum(CHECK_VERDICTS).meta({
      description: '`ai_approved` (score 75 or more), `barely_visible` (40 to 74), `invisible` (below 40).',
    }),
    brand: z.string().meta({ description: 'The brand.' }),
    category: z.string().meta({ description: 'The category.' }),
    knows: z.boolean().meta({ description: 'Whether the model says it recognises the brand.' }),
    description: z.string().meta({ description: 'How the model describes the brand, verbatim; empty when it does not know it.' }),
    recommendations: z.array(z.string()).max(8).meta({
      description: 'The blind list: what the model recommends for the category when the prompt never mentions the brand.',
    }),
    listPosition: z.int().min(1).nullable().meta({ description: '1-based position of the brand in the blind list; null when not named.' }),
    recommendVerdict: z.enum(RECOMMEND_VERDICTS).meta({ description: '`yes`, `no` or `unsure`.' }),
    recommendReason: z.string().meta({ description: "The model's stated reason, verbatim." }),
    model: z.string().meta({ description: 'Exact model id that answered.' }),
  })
  .meta({ id: 'CheckResponse' });

export const AuditRequestSchema = z
  .object({
    brand: z.string().min(1).max(80).meta({ description: 'Max 80. The brand as buyers write it.' }),
    website: z.string().min(1).max(160).meta({
      description:
        'Max 160. A bare domain is accepted and normalised to https. Must be a public host: localhost and private ranges are rejected (`invalid_website`).',
    }),
    category: z.string().min(1).max(120).meta({
      description: 'Max 120. The category buyers would search, in their words. Merged with `location` when both are set.',
    }),
    competitors: z.string().max(220).optional().meta({
      description: 'Max 220. Comma-separated competitors to watch for. The audit finds its own when omitted.',
    }),
    location: z.string().max(80).optional().meta({ description: 'Max 80. Market to measure for, when the category is local.' }),
    promptLanguage: z.enum(['en', 'es']).optional().meta({
      description: "`en` or `es`. Default: the language the site crawl says the brand's market speaks.",
    }),
    email: z.email().max(120).optional().meta({
      description: 'Max 120. Attaches the audit to that address so it can be claimed later, and sends the result there. Invalid value gives `invalid_email`.',
    }),
  })
  .meta({ id: 'AuditRequest' });

export const AuditSummarySchema = z
  .looseObject({
    score: z.number().min(0).max(100).meta({ description: 'Visibility score, 0 to 100.' }),
    risk: z.string().meta({ description: 'Risk band derived from the score.' }),
    brand: z.string(),
    website: z.string(),
    category: z.string(),
  })
  .meta({ id: 'AuditSummary', description: 'Headline of the snapshot. Extra fields allowed.' });

export const ProviderFindingSchema = z
  .looseObject({
    provider: z.string().meta({ description: 'Provider id (for example `openai`, `anthropic`, `gemini`).' }),
    score: z.number().meta({ description: "That provider's score for the brand." }),
    summary: z.string().meta({ description: 'What the provider said, condensed.' }),
  })
  .meta({ id: 'ProviderFinding', description: 'Extra fields allowed.' });

export const RateLimitInfoSchema = z
  .object({ remaining: z.int().min(0), resetAt: z.iso.datetime() })
  .meta({ id: 'RateLimitInfo', description: 'Same numbers as the `X-RateLimit-*` headers.' });

export const AuditResponseSchema = z
  .looseObject({
    id: z.uuid().meta({ description: 'Audit id; used in the buyer-question map operations.' }),
    createdAt: z.iso.datetime().meta({ description: 'Creation time.' }),
    mode: z.string().optional().meta({ description: 'Which lineup measured this audit.' }),
    measurementLocale: z.enum(['en', 'es']).optional().meta({ description: 'Language the prompts were asked in.' }),
    categoryLocalized: z.string().optional().meta({ description: 'The category as said to the models.' }),
    audit: AuditSummarySchema,
    providerFindings: z.array(ProviderFindingSchema).meta({ description: 'One entry per provider that answered.' }),
    providerErrors: z.array(z.looseObject({})).optional().meta({ description: 'Providers asked that failed, with the reason.' }),
    personalizedNextSteps: z.array(z.looseObject({})).optional().meta({ description: 'Actions derived from the site crawl.' }),
    productFanout: z.looseObject({}).nullable().optional().meta({ description: 'Buyer questions generated for this brand, if any.' }),
    fanoutMissingReason: z.string().optional().meta({ description: 'Present only when there are no buyer questions; explains why.' }),
    categoryBenchmark: z.looseObject({}).nullable().optional().meta({
      description: 'How the category scores on average, excluding this brand.',
    }),
    reportUrl: z.url().optional().meta({
      description:
        "The report's own page (`{BASE_URL}/report/{id}?key=…`): a private link that opens the full report without signing in. Its `key` also opens GET /api/audit/{auditId}.",
    }),
    rateLimit: RateLimitInfoSchema.optional(),
  })
  .meta({ id: 'AuditResponse', description: 'Additional fields may be added over time; the fields listed are the contract.' });

export const FanoutMapRequestSchema = z
  .object({
    rerun: z.boolean().default(false).meta({
      description:
        'Re-measure an existing map. Costs one credit and requires the signed-in owner. Ignored when no map exists yet, because that run is the free one.',
    }),
  })
  .meta({ id: 'FanoutMapRequest' });

export const FanoutMapResponseSchema = z
  .looseObject({
    ok: z.boolean().meta({ description: 'Success flag.' }),
    cached: z.boolean().meta({ description: 'True when the stored map was returned without re-measuring.' }),
    status: z.string().optional().meta({ description: 'Present while the map is being measured.' }),
    map: z.looseObject({}).optional().meta({
      description: 'The grid of buyer questions by provider, with the answers as measured. Absent means the measurement is still running.',
    }),
  })
  .meta({ id: 'FanoutMapResponse' });

export type ApiErrorShape = z.infer<typeof ApiErrorSchema>;
export type RepeatRequest = z.infer<typeof RepeatRequestSchema>;
export type RepeatResponse = z.infer<typeof RepeatResponseSchema>;
export type CheckRequest = z.infer<typeof CheckRequestSchema>;
export type CheckResponse = z.infer<typeof CheckResponseSchema>;
export type AuditRequest = z.infer<typeof AuditRequestSchema>;
export type FanoutMapRequest = z.infer<typeof FanoutMapRequestSchema>;
export type FanoutMapResponse = z.infer<typeof FanoutMapResponseSchema>;

/** Every schema that appears under components.schemas of /openapi.json. */
export const PUBLIC_SCHEMAS = [
  ApiErrorSchema,
  RepeatRequestSchema,
  RepeatRunSchema,
  RepeatMetricsSchema,
  RepeatResponseSchema,
  CheckRequestSchema,
  CheckResponseSchema,
  AuditRequestSchema,
  AuditSummarySchema,
  ProviderFindingSchema,
  RateLimitInfoSchema,
  AuditResponseSchema,
  FanoutMapRequestSchema,
  FanoutMapResponseSchema,
] as const;
