// runRepeatedBuyerQuestion: one buyer question asked several times, verbatim, to one model, to show how
// much its answer moves from one run to the next.

import type { RepeatResponse } from '../api/schemas.js';
import { nextMonthStart } from '../budget/index.js';
import { rulesBrandExtractor } from '../extraction/second-opinion.js';
import { PROVIDER_IDS, ProviderFailure, type Answer, type Provider, type ProviderId } from '../providers/types.js';
import {
  DEFAULT_PAUSED_RETRY_AFTER_SECONDS,
  MeasurementError,
  budgetError,
  describeProviderFailure,
  wholeSecondsAtLeastOne,
} from '../measurements/errors.js';
import { normalizeWhitespace } from '../measurements/prompts.js';
import { computeRepeatMetrics, type RepeatRun } from '../measurements/repeat-metrics.js';
import { assertBudgetLeft, type MeasurementDependencies, type MeasurementOptions } from '../measurements/types.js';

/** Runs per repeat request, as the spec fixes it. */
export const REPEAT_RUNS = 5;

export interface RepeatQuestion {
  question: string;
  provider: ProviderId;
}

export interface RepeatOptions extends MeasurementOptions {
  /** How many runs (default {@link REPEAT_RUNS}); the REST operation always uses the default. */
  runs?: number | undefined;
}

type RunOutcome = { ok: true; answer: Answer } | { ok: false; failure: unknown };

/** Asks one question `runs` times (default 5) to one provider, concurrently, and reports the runs in order with their metrics. */
export async function runRepeatedBuyerQuestion(
  dependencies: MeasurementDependencies,
  request: RepeatQuestion,
  options: RepeatOptions = {},
): Promise<RepeatResponse> {
  const question = normalizeWhitespace(request.question);
  // Validation of the body is the transport's job (empty_question); this guards direct callers.
  if (question === '') throw new TypeError('the question must not be empty');
  const total = options.runs ?? REPEAT_RUNS;
  if (!Number.isInteger(total) || total < 1) throw new RangeError(`runs must be a positive integer, got ${total}`);

  const provider = chooseProvider(dependencies.lineup, request.provider);
  await assertBudgetLeft(dependencies.budget, provider.model);
  options.signal?.throwIfAborted();
  await options.beforeSpend?.();
  options.signal?.throwIfAborted();

  let completed = 0;
  const outcomes = await Promise.all(
    Array.from({ length: total }, async (_, index): Promise<RunOutcome> => {
      // Every run is started at once; the provider's concurrency cap decides how many are in flight.
      const outcome = await provider.ask({ prompt: question, purpose: 'repeat', signal: options.signal }).then(
        (answer): RunOutcome => ({ ok: true, answer }),
        (failure: unknown): RunOutcome => ({ ok: false, failure }),
      );
      completed += 1;
      options.onProgress?.({ completed, total, label: `run ${index + 1} of ${total}: ${outcome.ok ? 'ok' : 'failed'}` });
      return outcome;
    }),
  );
  // A cancelled measurement has no result to report, not five failed runs.
  options.signal?.throwIfAborted();
  for (const outcome of outcomes) {
    // Anything but a provider failure is a bug or a cancellation, not a failed run.
    if (!outcome.ok && !(outcome.failure instanceof ProviderFailure)) throw outcome.failure;
  }
  await throwWhenNothingAnswered(outcomes, provider, dependencies);

  const extractor = dependencies.brandExtractor ?? rulesBrandExtractor;
  const runs: RepeatRun[] = await Promise.all(
    outcomes.map(
      async (outcome): Promise<RepeatRun> =>
        outcome.ok
          ? { ok: true, brands: await extractor.extract(outcome.answer.text, { signal: options.signal }), answer: outcome.answer.text }
          : { ok: false, brands: [], answer: null, error: describeProviderFailure(outcome.failure) },
    ),
  );
  options.signal?.throwIfAborted();
  const firstAnswer = outcomes.find((outcome): outcome is { ok: true; answer: Answer } => outcome.ok)?.answer;
  return {
    question,
    provider: provider.id,
    model: firstAnswer?.model ?? provider.model,
    runsRequested: total,
    runs,
    metrics: computeRepeatMetrics(runs),
  };
}

/** The provider asked for, or the 400 (not enabled here, pick another) / 503 (none enabled) `provider_unavailable`. */
function chooseProvider(lineup: ReadonlyMap<ProviderId, Provider>, id: ProviderId): Provider {
  const provider = lineup.get(id);
  if (provider !== undefined) return provider;
  const enabled = PROVIDER_IDS.filter((candidate) => lineup.has(candidate));
  if (enabled.length === 0) {
    throw new MeasurementError({
      code: 'provider_unavailable',
      message: 'No model provider is configured on this deployment.',
      hint: 'Try again later; the operator has to configure a provider key.',
      retryAfterSeconds: DEFAULT_PAUSED_RETRY_AFTER_SECONDS,
    });
  }
  throw new MeasurementError({
    code: 'provider_unavailable',
    callerCanFix: true,
    message: `The provider "${id}" is not enabled on this deployment.`,
    hint: `Ask again with "provider" set to ${enabled.map((candidate) => `"${candidate}"`).join(' or ')}.`,
  });
}

/**
 * When no run answered, some causes are the deployment's state rather than the model's variability:
 * the budget ran out (503 `budget`) or the provider refused our configuration or could not be reached
 * (503 `provider_unavailable`). Transient failures (rate limits, overload, timeouts) stay failed runs.
 */
async function throwWhenNothingAnswered(outcomes: readonly RunOutcome[], provider: Provider, dependencies: MeasurementDependencies): Promise<void> {
  const failures = outcomes.map((outcome) => (outcome.ok ? null : outcome.failure)).filter((failure) => failure instanceof ProviderFailure);
  if (failures.length === 0 || failures.length < outcomes.length) return;
  const budgetFailure = failures.find((failure) => failure.kind === 'budget');
  if (budgetFailure !== undefined) {
    const now = new Date();
    const resetAt =
      (await dependencies.budget?.status())?.resetAt ??
      (budgetFailure.retryAfterMs === undefined ? nextMonthStart(now) : new Date(now.getTime() + budgetFailure.retryAfterMs));
    throw budgetError(resetAt, now, budgetFailure);
  }
  if (failures.every((failure) => failure.kind === 'unavailable' || failure.kind === 'bad_request')) {
    const first = failures[0];
    throw new MeasurementError({
      code: 'provider_unavailable',
      message: `The provider "${provider.id}" could not be used: it refused the request or could not be reached.`,
      hint: 'Try again later, or ask another provider.',
      retryAfterSeconds:
        first?.retryAfterMs === undefined ? DEFAULT_PAUSED_RETRY_AFTER_SECONDS : wholeSecondsAtLeastOne(first.retryAfterMs),
      cause: first,
    });
  }
}
