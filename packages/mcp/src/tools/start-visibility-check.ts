import { parseAuditRequest, startVisibilityRun, type VisibilityRunView } from '@visibility/core';
import { z } from 'zod';
import { progressForwarder, RUN_PROGRESS_TOTAL } from './progress.js';
import { DEFAULT_WAIT_SECONDS } from './limits.js';
import { DEMO_CAVEAT, pollAfterSeconds } from './run-output.js';
import { RunIdentityShape } from './run-schema.js';
import type { VisibilityTool } from './types.js';

// The AuditRequest fields with the spec's bounds; `language` is the request's `promptLanguage`.
const StartInputSchema = z.object({
  brand: z.string().trim().min(1).max(80).describe('The brand as buyers write it, e.g. "Pipedrive". At most 80 characters.'),
  website: z
    .string()
    .trim()
    .min(1)
    .max(160)
    .describe('The brand\'s own website; a bare domain such as "pipedrive.com" is fine. Must be a public site. At most 160 characters.'),
  category: z
    .string()
    .trim()
    .min(1)
    .max(120)
    .describe('The category a buyer would search, in their words, e.g. "CRM for small sales teams". At most 120 characters.'),
  competitors: z
    .string()
    .trim()
    .max(220)
    .optional()
    .describe('Optional comma-separated competitors to watch for, e.g. "HubSpot, Salesforce". The check finds its own when omitted. At most 220 characters.'),
  location: z.string().trim().max(80).optional().describe('Optional market, for local categories, e.g. "Austin, TX". At most 80 characters.'),
  language: z.enum(['en', 'es']).optional().describe('Optional language of the buyer questions: "en" or "es". Default: the language of the site.'),
  email: z
    .email()
    .max(120)
    .optional()
    .describe('Optional address that receives the report; signing in with it later shows the full report. Only pass an address the user gave you.'),
});

const StartOutputSchema = z.object({
  ...RunIdentityShape,
  reused: z
    .boolean()
    .describe('True when this domain, brand and category were already measured in the last 30 days: this is that earlier measurement, nothing new was measured.'),
  measuredAt: z
    .string()
    .optional()
    .describe('For a reused measurement: when it finished (or, while it still runs, when it started).'),
  caveats: z.array(z.string()).describe('Plain sentences to tell the user: demo answers, a reused earlier measurement, an email that was not used.'),
  message: z.string(),
});

/** start_visibility_check: starts (or finds) the domain's measurement and answers its runId at once. */
export const startVisibilityCheckTool: VisibilityTool<typeof StartInputSchema, typeof StartOutputSchema> = {
  name: 'start_visibility_check',
  title: 'Start an AI visibility check',
  description: [
    'Measures whether AI assistants (OpenAI, Anthropic and Gemini models) recommend a brand when buyers ask for its category.',
    "Needs the brand name, its website and the category in a buyer's words; competitors, location, language and an email for the report are optional.",
    'The check crawls the site, writes buyer questions and asks them live to each AI provider, so it takes about a minute; a website that cannot be reached is reported before any provider is asked.',
    `This tool answers at once with a runId: then call get_visibility_check with that runId (it waits up to ${DEFAULT_WAIT_SECONDS} seconds for the result by default).`,
    'Quota: one free check per website domain every 30 days. Starting again for the same domain, brand and category returns the earlier measurement (reused: true, with measuredAt) and measures nothing new; another brand or category for the same domain is refused (domain_quota_used) until the quota renews. A failed check does not count.',
    'Results are measured answers, never what a model says about itself.',
  ].join(' '),
  inputSchema: StartInputSchema,
  outputSchema: StartOutputSchema,
  // Not read-only (it starts a measurement and spends the quota); idempotent (the same start again returns
  // the same run); open world (it crawls the brand's website and asks outside AI providers).
  annotations: { title: 'Start an AI visibility check', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async handler(dependencies, input, context) {
    const { runs, callerKey } = dependencies;
    // The same validation as POST /api/audit: public hosts only, the website normalised to https.
    const request = parseAuditRequest(
      {
        brand: input.brand,
        website: input.website,
        category: input.category,
        competitors: input.competitors,
        location: input.location,
        promptLanguage: input.language,
        email: input.email,
      },
      { hostMap: runs.crawlHostMap },
    );
    const started = await startVisibilityRun(runs, request, { callerKey });
    const run = started.run;
    const reused = started.reusedExistingRun;
    // The call answers at once; a client that asked for progress hears where the run stands first.
    const forward = progressForwarder(context);
    forward(run.progress ?? { stage: 'done', completed: 1, total: 1, percent: RUN_PROGRESS_TOTAL, message: run.status });
    const measuredAt = run.finishedAt ?? run.createdAt;
    const caveats = [
      ...(reused
        ? [
            `This is an earlier measurement of ${run.domain} for ${run.brand} in "${run.category}", ${run.status === 'done' ? `made on ${measuredAt}` : `started on ${run.createdAt} and still running`}, reused under the one-free-check-per-domain-every-30-days quota: nothing new was measured.`,
          ]
        : []),
      ...(reused && input.email !== undefined
        ? ['The email given was not used: this measurement was started earlier, so no report is mailed for it; its report link comes with the result.']
        : []),
      ...(run.mode === 'demo' ? [DEMO_CAVEAT] : []),
    ];
    const structuredContent = {
      runId: run.runId,
      status: run.status,
      mode: run.mode,
      domain: run.domain,
      brand: run.brand,
      website: run.website,
      category: run.category,
      createdAt: run.createdAt,
      quotaRenewsAt: run.quotaRenewsAt,
      pollAfterSeconds: reused ? pollAfterSeconds(run) : 20,
      reused,
      ...(reused ? { measuredAt } : {}),
      caveats,
      message: startMessage(run, reused, caveats),
    };
    return { structuredContent, text: structuredContent.message };
  },
};

function startMessage(run: VisibilityRunView, reused: boolean, caveats: readonly string[]): string {
  const next = `Call get_visibility_check with runId "${run.runId}"`;
  const notes = caveats.map((caveat) => ` Note: ${caveat}`).join('');
  if (!reused) {
    return `Started visibility check ${run.runId} for ${run.brand} (${run.domain}). It takes about a minute: buyer questions are asked live to each AI provider. ${next}: it waits up to ${DEFAULT_WAIT_SECONDS} seconds for the result.${notes}`;
  }
  const state =
    run.status === 'done' || run.status === 'failed'
      ? `It is ${run.status}; ${next} to read it.`
      : `It is still running (${run.status}); ${next}: it waits up to ${DEFAULT_WAIT_SECONDS} seconds for the result.`;
  return `Reused: ${run.domain} was already checked for ${run.brand} in "${run.category}" (one free check per domain every 30 days, next on ${run.quotaRenewsAt}). ${state}${notes}`;
}
