// The readable summaries of `visibility repeat`, `visibility check` and `visibility audit` (stdout without `--json`).

import type { CheckResponse, RepeatResponse, StoredAudit } from '@visibility/core';

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

/** What the audit summary also needs: where the result mail went, when an address was given. */
export interface AuditSummaryContext extends SummaryContext {
  /** The address the audit was attached to, and where its mail went ("smtp", an outbox file, or not sent). */
  email?: { address: string; delivery: string } | undefined;
}

/** How many competitors the summary names (the JSON has them all). */
const SUMMARY_COMPETITORS = 5;

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

function rateWithInterval(rate: number, interval: readonly [number, number] | null): string {
  return interval === null ? percent(rate) : `${percent(rate)} (95% CI ${Math.round(interval[0] * 100)}-${percent(interval[1])})`;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The readable summary of an audit: the headline (score with its interval, risk, confidence, degraded),
 * one line per provider (failed ones "NOT MEASURED", never "not mentioned"), the competitors named
 * instead, the buyer questions, the next steps and the audit id.
 */
export function formatAuditSummary(result: StoredAudit, context: AuditSummaryContext): string {
  const { audit } = result;
  const category =
    result.categoryLocalized !== '' && result.categoryLocalized !== audit.category
      ? `${audit.category} (asked as "${result.categoryLocalized}")`
      : audit.category;
  const header = [`Brand: ${audit.brand}`, `Website: ${audit.website}`, `Category: ${category}`, `Language: ${result.measurementLocale}`];
  return render([
    context.demo ? [DEMO_LINE] : [],
    header,
    headlineLines(result),
    providerLines(result),
    competitorLines(result),
    questionLines(result),
    nextStepLines(result),
    benchmarkLines(result),
    [`Audit id: ${result.id}`, `Created: ${result.createdAt}`, ...(context.email === undefined ? [] : [`Email: attached to ${context.email.address}; result mail ${context.email.delivery}`])],
  ]);
}

function headlineLines(result: StoredAudit): string[] {
  const { audit } = result;
  const score = audit.measured
    ? `Score: ${audit.score}/100${audit.scoreInterval === null ? '' : ` (95% interval ${audit.scoreInterval[0]}-${audit.scoreInterval[1]})`}`
    : `Score: NOT MEASURED. ${audit.notMeasuredReason ?? 'No provider answered.'}`;
  const mentions =
    audit.mentionRate === null
      ? []
      : [`Mention rate: ${rateWithInterval(audit.mentionRate, audit.mentionRateInterval)} of ${plural(audit.successfulSamples, 'answer')}`];
  const degraded = audit.degraded
    ? `Degraded: yes (the monthly budget is used up, so each question was asked once: lower confidence)`
    : `Degraded: no (${plural(audit.samplesPerQuestion, 'sample')} per question)`;
  return [score, `Risk: ${audit.risk}`, `Confidence: ${audit.confidence}`, degraded, ...mentions];
}

function providerLines(result: StoredAudit): string[] {
  const lines = result.providerFindings.map((finding) => {
    const position = finding.averagePosition === null ? 'never named' : `average position ${finding.averagePosition.toFixed(1)}`;
    const failed = finding.failedSamples > 0 ? `, ${finding.failedSamples} of ${finding.samples} samples failed` : '';
    return `  ${finding.provider} (${finding.model}): score ${finding.score}, mention rate ${rateWithInterval(finding.mentionRate, finding.mentionRateInterval)}, ${position}${failed}`;
  });
  const failures = result.providerErrors.map(
    (failure) => `  ${failure.provider} (${failure.model}): NOT MEASURED: ${failure.reason} (all ${failure.failedSamples} samples failed; this is not "not mentioned")`,
  );
  if (lines.length + failures.length === 0) return ['By provider: no provider was asked'];
  return ['By provider:', ...lines, ...failures];
}

function competitorLines(result: StoredAudit): string[] {
  const brand = result.audit.brand;
  const instead = result.competitors.filter((competitor) => competitor.namedInstead > 0).slice(0, SUMMARY_COMPETITORS);
  if (instead.length === 0) {
    const alongside = [...result.competitors].sort((left, right) => right.mentions - left.mentions).slice(0, SUMMARY_COMPETITORS);
    return [
      !result.audit.measured
        ? `Named instead of ${brand}: not measured`
        : result.competitors.length === 0
          ? `Named instead of ${brand}: nobody`
        : `Named instead of ${brand}: nobody (every answer that named a competitor also named ${brand})`,
      ...(alongside.length === 0 ? [] : [`Named alongside it: ${alongside.map((competitor) => `${competitor.name} (${plural(competitor.mentions, 'answer')})`).join(', ')}`]),
    ];
  }
  const width = String(instead.length).length;
  return [
    `Named instead of ${brand}:`,
    ...instead.map(
      (competitor, index) =>
        `  ${String(index + 1).padStart(width)}. ${competitor.name}: in ${plural(competitor.namedInstead, 'answer')} without ${brand}${competitor.watched ? ' (watched)' : ''}`,
    ),
  ];
}

function questionLines(result: StoredAudit): string[] {
  if (result.productFanout === null || result.productFanout.questions.length === 0) {
    return [`Buyer questions: none (${result.fanoutMissingReason ?? 'no questions could be written'})`];
  }
  const asked = result.audit.providersAsked.length;
  const times = result.audit.samplesPerQuestion === 1 ? 'once' : `${result.audit.samplesPerQuestion} times`;
  return [
    `Buyer questions: ${result.productFanout.questions.length}, each asked ${times} to ${plural(asked, 'provider')} (the brand is never named in them)`,
  ];
}

function nextStepLines(result: StoredAudit): string[] {
  if (result.personalizedNextSteps.length === 0) return ['Next steps: none'];
  return ['Next steps:', ...result.personalizedNextSteps.map((step) => `  [${step.priority}] ${step.title}`)];
}

function benchmarkLines(result: StoredAudit): string[] {
  const benchmark = result.categoryBenchmark;
  if (benchmark === null) return ['Category benchmark: no other audits in this category yet'];
  return [`Category benchmark: average ${benchmark.averageScore}, median ${benchmark.medianScore} over ${plural(benchmark.audits, 'other audit')}`];
}
