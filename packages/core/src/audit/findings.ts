// Findings: what each provider that answered said about the brand (mention rate with its Wilson interval,
// position, share of voice, a score and a one-line summary), the providers that never answered, and the
// overall score, risk and confidence. Formulas: docs/methodology.md, "The audit".

import { describeProviderFailure } from '../measurements/errors.js';
import { ProviderFailure, type ProviderFailureKind } from '../providers/types.js';
import { topCompetitorsFor, type CompetitorTally } from './competitors.js';
import type { AuditSampling, ProviderSamples, SampledCall } from './sampling.js';
import {
  confidenceLevel,
  median,
  positionWeight,
  riskBand,
  roundRate,
  scoreFromMentions,
  wilsonInterval,
} from './statistics.js';
import type { Confidence, Interval, ProviderError, ProviderFinding, QuestionResult, RiskBand } from './types.js';

/** How one provider came out: a finding when at least one sample answered, else an error ("not measured"). */
export type ProviderOutcome = { answered: true; finding: ProviderFinding } | { answered: false; error: ProviderError };

/** Builds one provider's finding from its samples, or its error entry when every sample failed. */
export function buildProviderOutcome(samples: ProviderSamples, questions: readonly string[], tally: CompetitorTally, brand: string): ProviderOutcome {
  const successful = samples.calls.filter((call) => call.ok);
  const failedSamples = samples.calls.length - successful.length;
  if (successful.length === 0) return { answered: false, error: providerError(samples) };

  const named = successful.filter((call) => call.named);
  const positions = named.map((call) => call.position).filter((position) => position !== null);
  const mentionRateInterval = wilsonInterval(named.length, successful.length);
  const { score, interval } = scoreFromMentions(
    named.map((call) => positionWeight(call.position)),
    successful.length,
  );
  const competitorMentions = tally.mentionsFor(samples.provider);
  const topCompetitors = topCompetitorsFor(tally, samples.provider);
  const finding: ProviderFinding = {
    provider: samples.provider,
    model: successful[0]?.model ?? samples.model,
    score,
    scoreInterval: interval,
    summary: '',
    mentionRate: roundRate(named.length / successful.length),
    mentionRateInterval: roundInterval(mentionRateInterval),
    samples: samples.calls.length,
    successfulSamples: successful.length,
    failedSamples,
    averagePosition: positions.length === 0 ? null : roundRate(mean(positions)),
    shareOfVoice: named.length + competitorMentions === 0 ? null : roundRate(named.length / (named.length + competitorMentions)),
    topCompetitors,
    questions: questionResults(samples.calls, questions),
  };
  finding.summary = summarizeFinding({
    brand,
    named: named.length,
    successful: successful.length,
    failed: failedSamples,
    interval: mentionRateInterval,
    usualPosition: median(positions),
    namedInstead: topCompetitors.filter((competitor) => competitor.namedInstead > 0).map((competitor) => competitor.name),
  });
  return { answered: true, finding };
}

export interface OverallResult {
  measured: boolean;
  score: number;
  scoreInterval: Interval | null;
  mentionRate: number | null;
  mentionRateInterval: Interval | null;
  risk: RiskBand;
  confidence: Confidence;
  successfulSamples: number;
}

/**
 * The overall score: the mean of the provider scores weighted by their successful samples, which is the
 * same as scoring all successful answers pooled; its interval is the Wilson interval of that pooled
 * score (statistics.ts, wilsonIntervalForMean). Not measured (no answer at all): score 0, risk "unknown".
 */
export function computeOverall(sampling: Pick<AuditSampling, 'providers' | 'degraded'>): OverallResult {
  const successful = sampling.providers.flatMap((provider) => provider.calls.filter((call) => call.ok));
  if (successful.length === 0) {
    return { measured: false, score: 0, scoreInterval: null, mentionRate: null, mentionRateInterval: null, risk: riskBand(0, false), confidence: 'low', successfulSamples: 0 };
  }
  const named = successful.filter((call) => call.named);
  const { score, interval } = scoreFromMentions(
    named.map((call) => positionWeight(call.position)),
    successful.length,
  );
  const mentionRateInterval = wilsonInterval(named.length, successful.length);
  return {
    measured: true,
    score,
    scoreInterval: interval,
    mentionRate: roundRate(named.length / successful.length),
    mentionRateInterval: roundInterval(mentionRateInterval),
    risk: riskBand(score),
    confidence: confidenceLevel(successful.length, mentionRateInterval, sampling.degraded),
    successfulSamples: successful.length,
  };
}

export interface FindingSummaryInput {
  brand: string;
  named: number;
  successful: number;
  failed: number;
  /** The mention rate's 95% interval, as fractions. */
  interval: Interval;
  /** Median position among the answers naming the brand; null when never named. */
  usualPosition: number | null;
  /** Competitors named in answers that left the brand out, most often first. */
  namedInstead: readonly string[];
}

/** One line of what a provider said: "Named HubSpot in 7 of 9 answers (78%, 95% CI 45–94%), usually 2nd; most often named instead: Salesforce, Pipedrive." */
export function summarizeFinding(input: FindingSummaryInput): string {
  const percent = (value: number): number => Math.round(value * 100);
  const rate = input.successful === 0 ? 0 : input.named / input.successful;
  const range = `${percent(rate)}%, 95% CI ${percent(input.interval[0])}–${percent(input.interval[1])}%`;
  const answers = `${input.successful} answer${input.successful === 1 ? '' : 's'}`;
  const instead = input.namedInstead.slice(0, 3);
  let sentence: string;
  if (input.named === 0) {
    sentence = `Did not name ${input.brand} in any of ${answers} (${range})`;
    sentence += instead.length > 0 ? `; named instead: ${instead.join(', ')}.` : '; it named no other brand either.';
  } else {
    const usual = input.usualPosition === null ? '' : `, usually ${ordinal(Math.round(input.usualPosition))}`;
    sentence = `Named ${input.brand} in ${input.named} of ${answers} (${range})${usual}`;
    sentence += instead.length > 0 ? `; most often named instead: ${instead.join(', ')}.` : '.';
  }
  if (input.failed > 0) sentence += ` ${input.failed} more call${input.failed === 1 ? '' : 's'} failed and ${input.failed === 1 ? 'is' : 'are'} not counted.`;
  return sentence;
}

/** Per question: how many of its samples answered and named the brand, and each answer's brands. */
function questionResults(calls: readonly SampledCall[], questions: readonly string[]): QuestionResult[] {
  return questions.map((question, questionIndex) => {
    const asked = calls.filter((call) => call.questionIndex === questionIndex).sort((left, right) => left.sampleIndex - right.sampleIndex);
    const answered = asked.filter((call) => call.ok);
    const named = answered.filter((call) => call.named);
    const positions = named.map((call) => call.position).filter((position) => position !== null);
    return {
      question,
      samples: asked.length,
      successfulSamples: answered.length,
      namedIn: named.length,
      named: named.length > 0,
      averagePosition: positions.length === 0 ? null : roundRate(mean(positions)),
      answers: asked.map((call) => ({ ok: call.ok, named: call.named, position: call.position, brands: [...call.brands] })),
    };
  });
}

/** The error entry of a provider none of whose samples answered: the most frequent failure kind, and its reason. */
function providerError(samples: ProviderSamples): ProviderError {
  const kinds = new Map<ProviderFailureKind | 'unexpected', { count: number; first: unknown }>();
  for (const call of samples.calls) {
    const kind = call.failure instanceof ProviderFailure ? call.failure.kind : 'unexpected';
    const entry = kinds.get(kind) ?? { count: 0, first: call.failure };
    entry.count += 1;
    kinds.set(kind, entry);
  }
  let chosen: { kind: ProviderFailureKind | 'unexpected'; first: unknown; count: number } = { kind: 'unexpected', first: undefined, count: -1 };
  for (const [kind, entry] of kinds) if (entry.count > chosen.count) chosen = { kind, ...entry };
  return {
    provider: samples.provider,
    model: samples.model,
    reason: samples.calls.length === 0 ? 'no question was asked' : describeProviderFailure(chosen.first),
    kind: chosen.kind,
    failedSamples: samples.calls.length,
  };
}

function roundInterval(interval: Interval): Interval {
  return [roundRate(interval[0]), roundRate(interval[1])];
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function ordinal(value: number): string {
  const lastTwo = value % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${value}th`;
  switch (value % 10) {
    case 1:
      return `${value}st`;
    case 2:
      return `${value}nd`;
    case 3:
      return `${value}rd`;
    default:
      return `${value}th`;
  }
}
