import { getVisibilityRun } from '@visibility/core';
import { z } from 'zod';
import { progressForwarder } from './progress.js';
import { runOutput, RunOutputSchema } from './run-output.js';
import { runText } from './run-text.js';
import type { VisibilityTool } from './types.js';

/** The longest wait: clients time a request out after 60 seconds by default. */
export const MAX_WAIT_SECONDS = 50;

const GetInputSchema = z.object({
  runId: z.uuid().describe('The runId that start_visibility_check returned.'),
  waitSeconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_WAIT_SECONDS)
    .optional()
    .describe(
      `Optional: wait up to this many seconds (0 to ${MAX_WAIT_SECONDS}) for the check to finish before answering, instead of answering at once. Progress is reported while waiting. Default 0.`,
    ),
});

/** get_visibility_check: the run's state and, once done, what was measured. */
export const getVisibilityCheckTool: VisibilityTool<typeof GetInputSchema, typeof RunOutputSchema> = {
  name: 'get_visibility_check',
  title: 'Get an AI visibility check',
  description: [
    'Reads a visibility check started with start_visibility_check.',
    'Needs the runId; pass waitSeconds (up to 50) to wait for the check to finish instead of polling.',
    'While it runs: status (queued, auditing, mapping), progress and pollAfterSeconds.',
    'When done: the verdict (risk band, score 0-100 with its 95% interval), how many buyer questions the brand won out of how many were answered, the competitors AI assistants named instead, which providers answered (with exact model ids) and which failed, and a link to the report.',
    'When failed: the reason; a failed check can be started again.',
    'mode "demo" means the answers came from a simulator, not real AI models: say so when relaying them.',
    'Reads stored results only: never asks an AI provider and costs nothing.',
  ].join(' '),
  inputSchema: GetInputSchema,
  outputSchema: RunOutputSchema,
  annotations: { title: 'Get an AI visibility check', readOnlyHint: true, openWorldHint: true },
  async handler(dependencies, input, context) {
    const view = await getVisibilityRun(dependencies.runs, input.runId, {
      waitMs: (input.waitSeconds ?? 0) * 1000,
      signal: context.signal,
      onProgress: progressForwarder(context),
    });
    const structuredContent = runOutput(view, dependencies.runs.baseUrl);
    return { structuredContent, text: runText(structuredContent) };
  },
};
