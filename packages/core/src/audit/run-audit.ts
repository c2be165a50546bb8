// startVisibilityAudit's measurement: buyer questions from the category (and the crawl), asked to every
// enabled provider several times, read into per-provider findings, an overall score with its interval,
// the competitors named instead, and next steps. The REST layer crawls first, then adds id, createdAt,
// rateLimit and the category benchmark, stores the report and mails it.

import { normalizeWhitespace } from '../measurements/prompts.js';
import { generateBuyerQuestions } from './buyer-questions.js';
import { allCompetitorMentions, parseCompetitors, rankCompetitors, shareOfVoice, tallyCompetitors } from './competitors.js';
import { buildProviderOutcome, computeOverall } from './findings.js';
import { buildNextSteps } from './next-steps.js';
import { brandMatcherFor, isDegraded, runAuditSampling, type AuditSampling } from './sampling.js';
import {
  DEFAULT_SAMPLES_PER_QUESTION,
  MIN_SAMPLES_PER_QUESTION,
  type AuditDependencies,
  type AuditInput,
  type AuditOptions,
  type AuditReport,
  type ProviderError,
  type ProviderFinding,
} from './types.js';

/** Runs the full audit on an already crawled site; a failing provider never fails it (it lands in `providerErrors`). */
export async function runAudit(dependencies: AuditDependencies, input: AuditInput, options: AuditOptions = {}): Promise<AuditReport> {
  const brand = normalizeWhitespace(input.brand);
  // Validation of the body is the transport's job (missing_required); this guards direct callers.
  if (brand === '') throw new TypeError('the brand must not be empty');
  const category = normalizeWhitespace(input.category);
  const website = input.website.trim();
  const requestedSamples = options.samplesPerQuestion ?? DEFAULT_SAMPLES_PER_QUESTION;
  if (!Number.isInteger(requestedSamples) || requestedSamples < MIN_SAMPLES_PER_QUESTION) {
    throw new RangeError(`samplesPerQuestion must be an integer of at least ${MIN_SAMPLES_PER_QUESTION}, got ${requestedSamples}`);
  }
  const crawl = input.crawl;
  const measurementLocale = input.promptLanguage ?? crawl?.language ?? 'en';
  const watched = parseCompetitors(input.competitors, brand);
  options.signal?.throwIfAborted();

  options.onProgress?.({ stage: 'questions', completed: 0, total: 1, label: 'writing buyer questions' });
  const generated = generateBuyerQuestions({
    brand,
    category,
    location: input.location,
    language: measurementLocale,
    vertical: crawl?.vertical ?? 'other',
    crawl,
    website,
  });
  const questions = generated.questions;
  options.onProgress?.({
    stage: 'questions',
    completed: 1,
    total: 1,
    label: questions.length > 0 ? `${questions.length} buyer questions` : 'no buyer questions',
  });

  const providersAsked = [...dependencies.lineup.keys()];
  let sampling: AuditSampling;
  if (questions.length === 0 || providersAsked.length === 0) {
    // Nothing to ask, or nobody to ask it: no call, no spend; the report still carries the site's next steps.
    const degraded = await isDegraded(dependencies, options.degraded === true);
    sampling = { degraded, samplesPerQuestion: degraded ? 1 : requestedSamples, questions, providers: [] };
  } else {
    await options.beforeSpend?.();
    options.signal?.throwIfAborted();
    sampling = await runAuditSampling(
      dependencies,
      { brand, competitors: watched, questions, samplesPerQuestion: requestedSamples, degraded: options.degraded === true, website },
      { signal: options.signal, onProgress: options.onProgress },
    );
  }

  const tally = tallyCompetitors(sampling.providers, brandMatcherFor(brand, website), watched, category);
  const providerFindings: ProviderFinding[] = [];
  const providerErrors: ProviderError[] = [];
  for (const samples of sampling.providers) {
    const outcome = buildProviderOutcome(samples, questions, tally, brand);
    if (outcome.answered) providerFindings.push(outcome.finding);
    else providerErrors.push(outcome.error);
  }
  const brandMentions = sampling.providers.reduce((sum, samples) => sum + samples.calls.filter((call) => call.ok && call.named).length, 0);
  const competitors = rankCompetitors(tally, brandMentions);
  const overall = computeOverall(sampling);
  const personalizedNextSteps = buildNextSteps({ crawl, findings: providerFindings, competitors, brand, category, language: measurementLocale, location: input.location });
  options.onProgress?.({
    stage: 'findings',
    completed: 1,
    total: 1,
    label: overall.measured ? `score ${overall.score} (${overall.risk} risk)` : 'not measured',
  });

  const notMeasuredReason = overall.measured
    ? undefined
    : questions.length === 0
      ? 'No buyer questions could be written for this category, so no provider was asked.'
      : providersAsked.length === 0
        ? 'No model provider is configured on this deployment, so no question was asked.'
        : sampling.degraded && providerErrors.length > 0 && providerErrors.every((error) => error.kind === 'budget')
          ? `The monthly provider budget, including its reserve for degraded audits, is used up${await budgetRenewal(dependencies)}, so no provider was asked.`
          : `Every provider asked failed to answer (${providerErrors.map((error) => `${error.provider}: ${error.reason}`).join('; ')}).`;

  return {
    mode: dependencies.mode,
    measurementLocale,
    categoryLocalized: generated.categoryLocalized,
    audit: {
      score: overall.score,
      risk: overall.risk,
      brand,
      website,
      category,
      measured: overall.measured,
      ...(notMeasuredReason === undefined ? {} : { notMeasuredReason }),
      scoreInterval: overall.scoreInterval,
      mentionRate: overall.mentionRate,
      mentionRateInterval: overall.mentionRateInterval,
      shareOfVoice: overall.measured ? shareOfVoice(brandMentions, brandMentions, allCompetitorMentions(tally)) : null,
      confidence: overall.confidence,
      degraded: sampling.degraded,
      samplesPerQuestion: sampling.samplesPerQuestion,
      questions: questions.length,
      successfulSamples: overall.successfulSamples,
      providersAsked: questions.length === 0 ? [] : providersAsked,
      providersAnswered: providerFindings.map((finding) => finding.provider),
    },
    providerFindings,
    providerErrors,
    personalizedNextSteps,
    productFanout: questions.length > 0 ? { questions, language: measurementLocale } : null,
    ...(generated.reasonMissing === undefined || questions.length > 0 ? {} : { fanoutMissingReason: generated.reasonMissing }),
    categoryBenchmark: null,
    competitors,
    degraded: sampling.degraded,
  };
}

/** " until 2030-01-01" when the budget says when it renews. */
async function budgetRenewal(dependencies: AuditDependencies): Promise<string> {
  const resetAt = (await dependencies.budget?.status())?.resetAt;
  return resetAt === undefined ? '' : ` until ${resetAt.toISOString().slice(0, 10)}`;
}
