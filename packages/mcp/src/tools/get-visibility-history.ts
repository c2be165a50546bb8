import { findOwnedWatch, getWatchHistory, listWatches, TrackingError, describeChange, type WatchHistory } from '@visibility/core';
import { z } from 'zod';
import type { VisibilityTool } from './types.js';

const HistoryInputSchema = z.object({
  watchId: z.uuid().optional().describe('The id of one of your watches.'),
  brand: z.string().min(1).max(80).optional().describe('Instead of watchId: the brand of one of your watches.'),
  category: z.string().min(1).max(120).optional().describe('With brand: the category of that watch, when you watch the brand in several.'),
  from: z.string().max(40).optional().describe('Optional ISO date: runs from that day on.'),
  to: z.string().max(40).optional().describe('Optional ISO date: runs up to that day.'),
});

const Rate = z.number().min(0).max(1).nullable();
const HistoryOutputSchema = z.object({
  watch: z.object({ id: z.string(), brand: z.string(), category: z.string(), schedule: z.string(), providers: z.array(z.string()), nextRunAt: z.string() }),
  points: z.array(
    z.object({
      runId: z.string(),
      at: z.string(),
      mode: z.string(),
      overall: z.object({ mentionRate: Rate, low: z.number(), high: z.number(), answers: z.number() }),
      providers: z.record(z.string(), z.object({ mentionRate: Rate, low: z.number(), high: z.number(), answers: z.number(), rank: z.number().nullable() })),
      shareOfVoice: Rate,
      topCompetitors: z.array(z.object({ name: z.string(), mentions: z.number() })),
    }),
  ),
  changes: z.array(z.record(z.string(), z.unknown())),
  skipped: z.array(z.object({ runId: z.string(), at: z.string(), status: z.string(), reason: z.string().nullable() })),
  summary: z.string(),
});
type HistoryOutput = z.output<typeof HistoryOutputSchema>;

const pct = (rate: number | null): string => (rate === null ? 'n/a' : `${Math.round(rate * 100)}%`);

/** A few sentences a model can relay: the latest level with its interval, the trend, the real changes. */
export function historySummary(history: WatchHistory): string {
  const { watch, points, changes, skipped } = history;
  const lines = [`Watch of ${watch.brand} (${watch.category}), ${watch.schedule}, ${points.length} measured run${points.length === 1 ? '' : 's'}.`];
  const latest = points.at(-1);
  const first = points[0];
  if (latest === undefined) lines.push('No run has measured anything yet.');
  else {
    lines.push(`Latest (${latest.at}): named in ${pct(latest.overall.mentionRate)} of ${latest.overall.answers} answers, 95% interval ${pct(latest.overall.low)} to ${pct(latest.overall.high)}.`);
    if (first !== undefined && first !== latest) lines.push(`First run (${first.at}): ${pct(first.overall.mentionRate)}.`);
    if (latest.mode === 'demo') lines.push('These are demo answers from a simulator, not real AI models: say so.');
  }
  if (changes.length === 0) lines.push('No change the data say is real: differences between runs are within noise.');
  else for (const change of changes) lines.push(`Real change at ${change.at}: ${describeChange(change, watch.brand)}`);
  if (skipped.length > 0) lines.push(`${skipped.length} run(s) measured nothing (for example the monthly budget was used up).`);
  return lines.join(' ');
}

/** get_visibility_history: the trend of one of the signed-in caller's watches. */
export const getVisibilityHistoryTool: VisibilityTool<typeof HistoryInputSchema, typeof HistoryOutputSchema> = {
  name: 'get_visibility_history',
  title: 'Get the visibility trend of a watched brand',
  description: [
    "Reads the history of one of your watches (a brand re-measured on a schedule): one point per run with the share of answers naming the brand, per provider and overall, each with its 95% interval, the top competitors, and the changes the data say are real (a two-proportion test at 95%, corrected for repeated testing).",
    'Give watchId, or brand (and category) to pick your watch by name. Needs the MCP connection to carry your signed-in session cookie (sb-access-token); otherwise it answers unauthorized.',
    'Reads stored results only: never asks an AI provider and costs nothing. Relay `summary`; a difference between runs that is not in `changes` is noise.',
  ].join(' '),
  inputSchema: HistoryInputSchema,
  outputSchema: HistoryOutputSchema,
  annotations: { title: 'Get the visibility trend of a watched brand', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(dependencies, input) {
    const watches = dependencies.watches;
    if (watches === undefined) throw new TrackingError('watch_not_found', 'This server keeps no watches.', 'Create a watch on the site or with POST /api/watches.');
    const owner = watches.ownerEmail;
    if (owner === undefined) {
      throw new TrackingError('unauthorized', 'Watches are private to their owner and this connection is not signed in.', 'Connect with the sb-access-token cookie of your signed-in session (docs/mcp.md).');
    }
    let watchId = input.watchId;
    if (watchId === undefined) {
      if (input.brand === undefined) throw new TrackingError('missing_required', 'Give `watchId`, or `brand` (and `category`).', 'List your watches on /account.');
      const key = (text: string): string => text.trim().toLowerCase();
      const found = (await listWatches(watches.tracker, owner)).filter(
        (watch) => key(watch.brand) === key(input.brand as string) && (input.category === undefined || key(watch.category) === key(input.category)),
      );
      if (found.length === 0) throw new TrackingError('watch_not_found', `You have no watch of ${input.brand}${input.category === undefined ? '' : ` in ${input.category}`}.`, 'Check the spelling, or create the watch first.');
      watchId = (found.at(-1) as { id: string }).id;
    } else {
      await findOwnedWatch(watches.tracker, owner, watchId);
    }
    const history = await getWatchHistory(watches.tracker, owner, watchId, { from: input.from, to: input.to });
    const structuredContent: HistoryOutput = {
      watch: { id: history.watch.id, brand: history.watch.brand, category: history.watch.category, schedule: history.watch.schedule, providers: history.watch.providers, nextRunAt: history.watch.nextRunAt },
      points: history.points.map((point) => ({
        runId: point.runId,
        at: point.at,
        mode: point.mode,
        overall: { mentionRate: point.overall.mentionRate, low: point.overall.low, high: point.overall.high, answers: point.overall.answers },
        providers: Object.fromEntries(
          Object.entries(point.providers).flatMap(([provider, entry]) =>
            entry === undefined ? [] : [[provider, { mentionRate: entry.mentionRate, low: entry.low, high: entry.high, answers: entry.answers, rank: entry.rank }]],
          ),
        ),
        shareOfVoice: point.shareOfVoice,
        topCompetitors: point.topCompetitors,
      })),
      changes: history.changes as unknown as Array<Record<string, unknown>>,
      skipped: history.skipped,
      summary: historySummary(history),
    };
    return { structuredContent, text: structuredContent.summary };
  },
};
