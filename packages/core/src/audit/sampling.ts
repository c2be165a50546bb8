// The audit's sampling: every enabled provider is asked every buyer question several times, all at once
// (the lineup's per-provider concurrency caps decide how many calls are in flight), and every answer is
// reduced to the brands it names and where the audited brand stands among them.

import { createBrandMatcher, positionInList, type BrandMatcher } from '../extraction/index.js';
import { rulesBrandExtractor, type BrandExtractor } from '../extraction/second-opinion.js';
import type { BudgetReservation } from '../budget/budget.js';
import type { MeasurementDependencies } from '../measurements/types.js';
import { DEFAULT_MAX_OUTPUT_TOKENS } from '../providers/adapter-options.js';
import { ProviderFailure, type Provider, type ProviderId } from '../providers/types.js';
import { websiteDomain } from './website-domain.js';
import { DEFAULT_SAMPLES_PER_QUESTION, MIN_SAMPLES_PER_QUESTION, type AuditDependencies, type AuditProgress } from './types.js';

/** What the call log records these calls as. */
export const AUDIT_PURPOSE = 'audit.buyer_question';

export interface AuditSamplingRequest {
  brand: string;
  /** The watch list, parsed: hints for the extractor, like the brand. */
  competitors: readonly string[];
  questions: readonly string[];
  /** At least 3 (default 3); ignored (1) in degraded mode. */
  samplesPerQuestion?: number | undefined;
  /** Forces degraded mode; it is also entered when the monthly budget is used up. */
  degraded: boolean;
  /** The answer-length cap of a degraded audit's calls, which its allowance is estimated with (default 1024). */
  maxOutputTokens?: number | undefined;
  /** The brand's website: its domain also counts as naming the brand. */
  website?: string | undefined;
}

export interface AuditSamplingOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((event: AuditProgress) => void) | undefined;
}

/** One call: a question asked once to one provider. */
export interface SampledCall {
  questionIndex: number;
  /** 0-based repeat of that question. */
  sampleIndex: number;
  ok: boolean;
  /** The answer text; null for a failed call. */
  answer: string | null;
  /** The exact model id that answered; null for a failed call. */
  model: string | null;
  brands: string[];
  named: boolean;
  position: number | null;
  /** Why the call failed (a ProviderFailure, normally); undefined when it answered. */
  failure?: unknown;
}

export interface ProviderSamples {
  provider: ProviderId;
  /** The model id requested. */
  model: string;
  calls: SampledCall[];
}

export interface AuditSampling {
  degraded: boolean;
  /** Samples per question actually asked. */
  samplesPerQuestion: number;
  questions: string[];
  providers: ProviderSamples[];
}

/**
 * Whether the audit runs degraded (one sample per question): forced by the caller, or because the monthly
 * budget cannot pay for one of the enabled models. Free (demo) models never degrade the audit.
 */
export async function isDegraded(dependencies: MeasurementDependencies, forced = false): Promise<boolean> {
  if (forced) return true;
  const budget = dependencies.budget;
  if (budget === undefined) return false;
  for (const provider of dependencies.lineup.values()) if (!(await budget.hasBudgetLeft(provider.model))) return true;
  return false;
}

/**
 * Asks each enabled provider each question `samplesPerQuestion` times (once when degraded), all concurrently;
 * failed calls are failed samples. A degraded audit first reserves its whole question set per provider from
 * the monthly budget (its reserve included) in one step: granted, every provider is asked each question once;
 * refused, no provider is asked and every call is a failed `budget` sample.
 */
export async function runAuditSampling(
  dependencies: Pick<AuditDependencies, 'lineup' | 'budget' | 'brandExtractor'>,
  request: AuditSamplingRequest,
  options: AuditSamplingOptions = {},
): Promise<AuditSampling> {
  const requested = request.samplesPerQuestion ?? DEFAULT_SAMPLES_PER_QUESTION;
  if (!Number.isInteger(requested) || requested < MIN_SAMPLES_PER_QUESTION) {
    throw new RangeError(`samplesPerQuestion must be an integer of at least ${MIN_SAMPLES_PER_QUESTION}, got ${requested}`);
  }
  const questions = [...request.questions];
  const providers = [...dependencies.lineup.values()];
  const maxOutputTokens = request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  // Also degraded when what is left for ordinary calls cannot pay for the full audit: it would run out
  // part way and leave failed samples, where one sample per question from the reserve is a real answer.
  const degraded = (await isDegraded(dependencies, request.degraded)) || !(await fullAuditFits(dependencies, providers, questions, requested, maxOutputTokens));
  const samplesPerQuestion = degraded ? 1 : requested;
  const matcher = brandMatcherFor(request.brand, request.website);
  // Degraded means the budget cannot pay for the full audit: the answers are read with the rules alone
  // rather than spending what is left on second opinions.
  const extractor = degraded ? rulesBrandExtractor : (dependencies.brandExtractor ?? rulesBrandExtractor);
  const total = providers.length * questions.length * samplesPerQuestion;
  options.signal?.throwIfAborted();

  const allowance = degraded ? await reserveDegradedAllowance(dependencies, providers, questions, maxOutputTokens) : undefined;
  let completed = 0;
  try {
    const results = await Promise.all(
      providers.map(async (provider, providerIndex): Promise<ProviderSamples> => {
        const calls = await Promise.all(
          questions.flatMap((question, questionIndex) =>
            Array.from({ length: samplesPerQuestion }, async (_, sampleIndex): Promise<SampledCall> => {
              const planned = allowance?.plan(providerIndex, questionIndex);
              const call =
                planned?.refused === undefined
                  ? await askOnce(provider, extractor, question, questionIndex, sampleIndex, request, matcher, options.signal, planned?.reservation)
                  : refusedCall(questionIndex, sampleIndex, planned.refused);
              completed += 1;
              options.onProgress?.({
                stage: 'answers',
                completed,
                total,
                label: `${provider.id}: question ${questionIndex + 1}, sample ${sampleIndex + 1}: ${call.ok ? 'ok' : 'failed'}`,
                provider: provider.id,
              });
              return call;
            }),
          ),
        );
        return { provider: provider.id, model: provider.model, calls };
      }),
    );
    // A cancelled audit has no result to report, not a grid of failed samples.
    options.signal?.throwIfAborted();
    return { degraded, samplesPerQuestion, questions, providers: results };
  } finally {
    // Reservations whose call never ran (cancelled, or a provider without the budget wrapper) are released.
    await allowance?.release();
  }
}

/** Whether the ordinary part of the budget can pay for every call of a full audit at its estimate (no budget: yes). */
async function fullAuditFits(
  dependencies: Pick<AuditDependencies, 'budget'>,
  providers: readonly Provider[],
  questions: readonly string[],
  samplesPerQuestion: number,
  maxOutputTokens: number,
): Promise<boolean> {
  const budget = dependencies.budget;
  if (budget === undefined) return true;
  let estimateMicroUsd = 0;
  for (const provider of providers) {
    for (const prompt of questions) estimateMicroUsd += samplesPerQuestion * budget.prices.estimateMicroUsd(provider.model, { prompt, maxOutputTokens });
  }
  return estimateMicroUsd === 0 || estimateMicroUsd <= (await budget.status()).remainingMicroUsd;
}

interface DegradedAllowance {
  /** The reservation for one provider's question, or the refusal every call of a refused allowance carries. */
  plan(providerIndex: number, questionIndex: number): { reservation?: BudgetReservation; refused?: ProviderFailure };
  release(): Promise<void>;
}

async function reserveDegradedAllowance(
  dependencies: Pick<AuditDependencies, 'budget'>,
  providers: readonly Provider[],
  questions: readonly string[],
  maxOutputTokens: number,
): Promise<DegradedAllowance | undefined> {
  const budget = dependencies.budget;
  if (budget === undefined) return undefined;
  const outcome = await budget.reserveAllowance(
    providers.flatMap((provider) => questions.map((prompt) => ({ provider: provider.id, model: provider.model, prompt, maxOutputTokens }))),
  );
  if (!outcome.granted) {
    const refused = new Map(
      providers.map((provider) => [
        provider,
        new ProviderFailure({
          kind: 'budget',
          provider: provider.id,
          retryable: false,
          retryAfterMs: outcome.retryAfterSeconds * 1000,
          message: `the monthly provider budget and its reserve for degraded audits are used up; they renew at ${outcome.resetAt.toISOString()}`,
        }),
      ]),
    );
    return { plan: (providerIndex) => ({ refused: refused.get(providers[providerIndex] as Provider) as ProviderFailure }), release: async () => undefined };
  }
  const reservations = outcome.reservations;
  return {
    plan: (providerIndex, questionIndex) => ({ reservation: reservations[providerIndex * questions.length + questionIndex] as BudgetReservation }),
    // Settling a reservation its call already settled is a no-op, so this frees only the unused ones.
    release: async () => {
      for (const reservation of reservations) await budget.settle(reservation);
    },
  };
}

function refusedCall(questionIndex: number, sampleIndex: number, failure: ProviderFailure): SampledCall {
  return { questionIndex, sampleIndex, ok: false, answer: null, model: null, brands: [], named: false, position: null, failure };
}

/** The audited brand's matcher, with its website's domain as another written form. */
export function brandMatcherFor(brand: string, website?: string): BrandMatcher {
  const domain = websiteDomain(website);
  return createBrandMatcher(brand, domain === undefined ? {} : { domain });
}

async function askOnce(
  provider: Provider,
  extractor: BrandExtractor,
  question: string,
  questionIndex: number,
  sampleIndex: number,
  request: AuditSamplingRequest,
  matcher: BrandMatcher,
  signal: AbortSignal | undefined,
  reservation: BudgetReservation | undefined,
): Promise<SampledCall> {
  try {
    const answer = await provider.ask({
      prompt: question,
      purpose: AUDIT_PURPOSE,
      // A degraded audit's call is paid from its allowance, estimated with this answer-length cap.
      ...(reservation === undefined ? {} : { budgetReservation: reservation, maxOutputTokens: request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS }),
      ...(signal === undefined ? {} : { signal }),
    });
    const brands = await extractor.extract(answer.text, { brand: request.brand, competitors: request.competitors, signal });
    const position = positionInList(brands, matcher);
    return {
      questionIndex,
      sampleIndex,
      ok: true,
      answer: answer.text,
      model: answer.model,
      brands,
      // The list position is the usual evidence; the matcher on the whole text catches a mention the extractor missed.
      named: position !== null || matcher.mentions(answer.text),
      position,
    };
  } catch (failure) {
    // Any failure, even an unexpected one, is a failed sample: one bad call must never sink the audit.
    return { questionIndex, sampleIndex, ok: false, answer: null, model: null, brands: [], named: false, position: null, failure };
  }
}
