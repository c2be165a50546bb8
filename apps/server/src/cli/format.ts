// The readable summaries of `visibility repeat` and `visibility check` (stdout without `--json`).

import type { CheckResponse, RepeatResponse } from '@visibility/core';

/** Context a summary needs beyond the result itself. */
export interface SummaryContext {
  /** True when the demo simulator answered: the summary then says so, plainly. */
  demo: boolean;
}

/** What the check summary also needs: whether the blind list was asked (no category, or one naming only the brand, skips it). */
export interface CheckSummaryContext extends SummaryContext {
  blindListAsked: boolean;
}

const DEMO_LINE = 'DEMO: these answers come from the built-in demo simulator, not from a real model.';

const VERDICT_WORDS: Readonly<Record<CheckResponse['verdict'], string>> = {
  ai_approved: 'AI approved',
  barely_visible: 'barely visible',
  invisible: 'invisible',
};

/** A wait in seconds as a person reads it: "45 s", "5 min", "3 h", "8 days". */
export function describeWait(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.ceil(seconds / 60)} min`;
  if (seconds < 2 * 86_400) return `${Math.ceil(seconds / 3600)} h`;
  return `${Math.ceil(seconds / 86_400)} days`;
}

function listOrNone(items: readonly string[]): string {
  return items.length === 0 ? '(none)' : items.join(', ');
}

function quoted(text: string): string {
  return `"${text.trim()}"`;
}

/** Lines of text, each ending with a newline, with an empty line between blocks. */
function render(blocks: readonly (readonly string[])[]): string {
  return `${blocks
    .filter((block) => block.length > 0)
    .map((block) => block.join('\n'))
    .join('\n\n')}\n`;
}

/** The readable summary of a RepeatResponse: the model, each run's brands and the repeatability numbers. */
export function formatRepeatSummary(result: RepeatResponse, context: SummaryContext): string {
  const { metrics } = result;
  const width = String(result.runs.length).length;
  const runs = result.runs.map((run, index) => {
    const number = String(index + 1).padStart(width);
    return run.ok ? `  ${number}. ${listOrNone(run.brands)}` : `  ${number}. FAILED: ${run.error ?? 'no answer'}`;
  });
  const jaccard =
    metrics.jaccardMean === null || metrics.jaccardMean === undefined
      ? 'n/a (fewer than two runs answered)'
      : `${metrics.jaccardMean.toFixed(2)} over ${metrics.pairs} pairs (${metrics.sameSetPairs} named exactly the same brands)`;
  return render([
    context.demo ? [DEMO_LINE] : [],
    [`Question: ${result.question}`, `Provider: ${result.provider}`, `Model: ${result.model}`],
    [`Brands named per run:`, ...runs],
    [
      `Runs answered (okRuns): ${metrics.okRuns} of ${result.runsRequested}`,
      `Jaccard mean: ${jaccard}`,
      `Named in every run (inAll): ${listOrNone(metrics.inAll)}`,
      `Named in only one run (once): ${listOrNone(metrics.once)}`,
      `Distinct brands: ${metrics.union}`,
    ],
  ]);
}

/** The readable summary of a CheckResponse: score and verdict, recognition, the blind list with the brand marked, the recommendation. */
export function formatCheckSummary(result: CheckResponse, context: CheckSummaryContext): string {
  const header = [`Brand: ${result.brand}`, `Category: ${result.category === '' ? '(none: the score reflects recognition only)' : result.category}`];
  const score = [`Score: ${result.score}/100`, `Verdict: ${result.verdict} (${VERDICT_WORDS[result.verdict]})`];
  const recognition = result.knows
    ? [`Knows the brand: yes`, `  ${quoted(result.description)}`]
    : [`Knows the brand: no`];
  return render([
    context.demo ? [DEMO_LINE] : [],
    header,
    score,
    recognition,
    blindListLines(result, context.blindListAsked),
    [`Would recommend it: ${result.recommendVerdict}`, `  ${quoted(result.recommendReason)}`],
    [`Model: ${result.model}`],
  ]);
}

function blindListLines(result: CheckResponse, asked: boolean): string[] {
  if (!asked) {
    const why = result.category === '' ? 'no category given' : 'the category named only the brand itself';
    return [`Blind list: skipped (${why})`];
  }
  if (result.recommendations.length === 0) return [`Blind list for ${quoted(result.category)}: the model named nothing`];
  const width = String(result.recommendations.length).length;
  const items = result.recommendations.map((item, index) => {
    const mark = result.listPosition === index + 1 ? '   <-- your brand' : '';
    return `  ${String(index + 1).padStart(width)}. ${item}${mark}`;
  });
  const position =
    result.listPosition === null
      ? `${result.brand} is not in the list`
      : `${result.brand} is #${result.listPosition} of ${result.recommendations.length}`;
  return [`Blind list for ${quoted(result.category)} (the prompt never names the brand): ${position}`, ...items];
}
