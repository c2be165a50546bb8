import { getVisibilityRun } from '@visibility/core';
import { z } from 'zod';
import { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS } from './limits.js';
import { progressForwarder } from './progress.js';
import { runOutput, RunOutputSchema } from './run-output.js';
import { runText } from './run-text.js';
import type { VisibilityTool } from './types.js';


const GetInputSchema = z.object({
  runId: z.uuid().describe('The runId that start_visibility_check returned.'),
  waitSeconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_WAIT_SECONDS)
    .optional()
    .describe(
      `Optional: wait up to this many seconds (0 to ${MAX_WAIT_SECONDS}) for the check to finish before answering; progress is reported while waiting. Default ${DEFAULT_WAIT_SECONDS}, so one call after a start usually gets the result. 0 answers the current state at once.`,
    ),
});

/** get_visibility_check: the run's state and, once done, what was measured. */
export const getVisibilityCheckTool: VisibilityTool<typeof GetInputSchema, typeof RunOutputSchema> = {
  name: 'get_visibility_check',
  title: 'Get an AI visibility check',
  description: [
    'Reads a visibility check started with start_visibility_check.',
    `Needs the runId. It waits up to ${DEFAULT_WAIT_SECONDS} seconds for the check to finish (waitSeconds, 0 to ${MAX_WAIT_SECONDS}) and reports progress meanwhile; if it is still running, call it again.`,
    'While it runs: status (queued, auditing, mapping), progress and pollAfterSeconds.',
    "When done: the verdict (risk band, score 0-100 with its 95% interval), how many buyer questions the brand won out of how many were answered, the competitors AI assistants named instead, which providers answered (with exact model ids) and which failed, when it was measured, and reportUrl, the report's own page.",
    'When failed: the reason (for example a website that could not be reached); a failed check can be started again.',
    'caveats lists what the user must be told with the figures (demo answers from a simulator, a website that could not be read, providers that did not answer): relay them.',
    'Reads stored results only: never asks an AI provider and costs nothing.',
  ].join(' '),
  inputSchema: GetInputSchema,
  outputSchema: RunOutputSchema,
  // Reads this service's own store: no outside system is touched.
  annotations: { title: 'Get an AI visibility check', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(dependencies, input, context) {
    const view = await getVisibilityRun(dependencies.runs, input.runId, {
      waitMs: (input.waitSeconds ?? DEFAULT_WAIT_SECONDS) * 1000,
      signal: context.signal,
      onProgress: progressForwarder(context),
    });
    const structuredContent = runOutput(view, { baseUrl: dependencies.runs.baseUrl, reportUrl: dependencies.reportUrl });
    return { structuredContent, text: runText(structuredContent) };
  },
};
