// Wording shared by the HTML, SVG and markdown renderers: the same numbers read the same everywhere.
// Everything here returns plain (unescaped) text; each renderer escapes for its own format.

import type { ReportInterval, ReportMapCell, ReportMapProviderSummary, ReportSummary, ReportView } from './report-model.js';

/** What the demo banner says, word for word. */
export const DEMO_BANNER_TEXT = 'Demo lineup: simulated answers, not real model output';
/** Where the methodology explains degraded mode. */
export const DEGRADED_HREF = '/methodology#degraded-mode';
/** Where the methodology explains "not measured". */
export const NOT_MEASURED_HREF = '/methodology';

export function formatScore(score: number): string {
  return String(Math.round(score));
}

/** "62 (95% CI 48–74)", or "62" without an interval. */
export function formatScoreWithInterval(score: number | null, interval: ReportInterval | null): string {
  if (score === null) return 'not measured';
  if (interval === null) return formatScore(score);
  return `${formatScore(score)} (95% CI ${formatScore(interval[0])}–${formatScore(interval[1])})`;
}

/** A 0..1 rate as a whole percentage. */
export function formatPercent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** "78% (95% CI 45–94%)", or "78%" without an interval. */
export function formatRateWithInterval(rate: number | null, interval: ReportInterval | null): string {
  if (rate === null) return 'n/a';
  if (interval === null) return formatPercent(rate);
  return `${formatPercent(rate)} (95% CI ${Math.round(interval[0] * 100)}–${formatPercent(interval[1])})`;
}

/** Mean 1-based position, one decimal at most; "never named" when null. */
export function formatPosition(position: number | null): string {
  return position === null ? 'never named' : String(Math.round(position * 10) / 10);
}

const RISK_LABELS: Record<string, string> = {
  low: 'Low risk',
  medium: 'Medium risk',
  high: 'High risk',
  critical: 'Critical risk',
  unknown: 'Risk unknown (not measured)',
};

export function riskLabel(risk: string): string {
  return RISK_LABELS[risk] ?? `Risk: ${risk}`;
}

/** A CSS-safe token for the risk band (only known bands get their own class). */
export function riskClass(risk: string): string {
  return Object.hasOwn(RISK_LABELS, risk) ? risk : 'unknown';
}

export function confidenceLabel(confidence: string | null): string | null {
  return confidence === null ? null : `${confidence.charAt(0).toUpperCase()}${confidence.slice(1)} confidence`;
}

export function priorityLabel(priority: string): string {
  return `${priority.charAt(0).toUpperCase()}${priority.slice(1)} priority`;
}

/** A CSS-safe token for a next step's priority. */
export function priorityClass(priority: string): string {
  return priority === 'high' || priority === 'medium' || priority === 'low' ? priority : 'other';
}

/** "2025-05-01 14:03 UTC", or the stored text when it is not a date. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Why a degraded snapshot says less, in one or two sentences. */
export function degradedText(summary: ReportSummary): string {
  const samples = summary.samplesPerQuestion;
  const asked = samples === null || samples <= 1 ? 'once' : `${samples} times`;
  return (
    `Degraded snapshot: the monthly provider budget was used up, so each buyer question was asked ${asked} per provider ` +
    'instead of several times. Run-to-run variation is not seen and the intervals are wider, so confidence is lower.'
  );
}

export function notMeasuredText(summary: ReportSummary): string {
  return summary.notMeasuredReason ?? 'No provider answered any buyer question.';
}

/** Provider id plus the exact model, e.g. "openai · gpt-4.1-mini-2025-04-14". */
export function providerModelLabel(provider: string, model: string, demo: boolean): string {
  return `${provider} · ${modelLabel(model, demo)}`;
}

/** The exact model id, "(demo)" appended for the simulator's lineup. */
export function modelLabel(model: string, demo: boolean): string {
  return `${model === '' ? 'model unknown' : model}${demo ? ' (demo)' : ''}`;
}

/** One grid cell in words: "named #2", "not named (named instead: A, B)", "failed: reason". */
export function mapCellText(cell: ReportMapCell | null): string {
  if (cell === null) return 'not asked';
  if (!cell.ok) return `failed: ${cell.failureReason ?? 'no answer'}`;
  if (cell.named) return cell.position === null ? 'named (not in a ranked list)' : `named #${cell.position}`;
  if (cell.namedInstead.length > 0) return `not named (named instead: ${cell.namedInstead.join(', ')})`;
  return 'not named';
}

/** "won 4 of 8 questions" */
export function questionsWonText(won: number, total: number): string {
  return `won ${won} of ${total} question${total === 1 ? '' : 's'}`;
}

/** Text cut to at most `max` characters (whole code points), with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  const characters = Array.from(text);
  if (characters.length <= max) return text;
  return `${characters.slice(0, Math.max(1, max - 1)).join('').trimEnd()}…`;
}

/** Collapses whitespace (newlines included) to single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

/** "Named in 56% (95% CI 34–75%) of successful answers (18 answers, 3 buyer questions, …, 2 of 3 providers answered)." */
export function measurementSentence(view: ReportView): string {
  const { summary } = view;
  const answered = summary.providersAnswered.length > 0 ? summary.providersAnswered.length : view.findings.length;
  const asked = summary.providersAsked.length > 0 ? summary.providersAsked.length : view.findings.length + view.failedProviders.length;
  const counts: string[] = [];
  if (summary.successfulSamples !== null) counts.push(`${summary.successfulSamples} answers`);
  if (summary.questions !== null) counts.push(`${summary.questions} buyer questions`);
  if (summary.samplesPerQuestion !== null) counts.push(`${summary.samplesPerQuestion} sample${summary.samplesPerQuestion === 1 ? '' : 's'} per question`);
  counts.push(`${answered} of ${asked} providers answered`);
  if (summary.mentionRate === null) return `${counts.join(', ').replace(/^./u, (first) => first.toUpperCase())}.`;
  return `Named in ${formatRateWithInterval(summary.mentionRate, summary.mentionRateInterval)} of successful answers (${counts.join(', ')}).`;
}

/** A map column's footer: "named in 2 of 3 answered", or "not measured (3 failed)" when nothing answered. */
export function mapProviderSummaryText(summary: ReportMapProviderSummary | undefined): string {
  if (summary === undefined) return '';
  if (summary.answered === 0) return `not measured (${summary.failed} failed)`;
  return `named in ${summary.questionsWon} of ${summary.answered} answered${summary.failed > 0 ? `, ${summary.failed} failed` : ''}`;
}

// ---------------------------------------------------------------------------------------------------
// Competitors: one definition of each figure for every view (report, share page, markdown; the CLI,
// e-mail and MCP use the same rule through @visibility/core's competitorsNamedInstead).

/** The definitions the competitor section states, word for word in every view. */
export function competitorDefinitions(brand: string): string {
  const name = brand === '' ? 'the brand' : brand;
  return `“Named instead” counts the answers that name a competitor and not ${name}. Share of voice is a brand’s mentions ÷ all brand mentions in the answers (each brand counted at most once per answer).`;
}

/** What the mention chart plots, as its title says. */
export function mentionChartTitle(brand: string, totalAnswers: number): string {
  return `Mention rate: share of the ${totalAnswers} answers naming ${brand === '' ? 'the brand' : brand} and each top competitor`;
}

export interface CompetitorSections {
  /** Competitors named in at least one answer that left the brand out, by rank. */
  namedInstead: ReportView['competitors'];
  /** Competitors only ever named together with the brand. */
  alongside: ReportView['competitors'];
  /** Watched competitors no answer named. */
  watchedNeverNamed: string[];
}

export function competitorSections(view: ReportView): CompetitorSections {
  return {
    namedInstead: view.competitors.filter((competitor) => competitor.namedInstead > 0),
    alongside: view.competitors.filter((competitor) => competitor.namedInstead === 0 && competitor.mentions > 0),
    watchedNeverNamed: view.competitors.filter((competitor) => competitor.mentions === 0 && competitor.watched).map((competitor) => competitor.name),
  };
}

/** "Nobody was named instead of Acme: …", when no answer that left the brand out named a competitor. */
export function nobodyInsteadText(view: ReportView): string {
  const name = view.brand === '' ? 'the brand' : view.brand;
  return view.competitors.some((competitor) => competitor.mentions > 0)
    ? `Nobody was named instead of ${name}: every answer that named a competitor also named ${name}.`
    : 'No competitor was named in the answers.';
}

/** "17%" or "n/a". */
export function formatShare(share: number | null): string {
  return share === null ? 'n/a' : formatPercent(share);
}
