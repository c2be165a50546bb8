// checkBrandRecognition: one provider, one pass, three questions asked at once. Does the model know the
// brand, does it name the brand in a blind list for the category, and would it recommend it?

import type { CheckResponse } from '../api/schemas.js';
import { nextMonthStart } from '../budget/index.js';
import { createBrandMatcher, positionInList } from '../extraction/index.js';
import { ProviderFailure, type Answer, type Provider, type ProviderId } from '../providers/types.js';
import { checkVerdict, computeCheckScore } from '../measurements/check-score.js';
import {
  DEFAULT_OVERLOADED_RETRY_AFTER_SECONDS,
  DEFAULT_PAUSED_RETRY_AFTER_SECONDS,
  MeasurementError,
  budgetError,
  wholeSecondsAtLeastOne,
} from '../measurements/errors.js';
import { parseBlindList, parseRecognitionAnswer, parseRecommendationAnswer } from '../measurements/parse-answers.js';
import { CHECK_PROMPTS, blindListCategoryPhrase, normalizeWhitespace, promptMentionsBrand } from '../measurements/prompts.js';
import { assertBudgetLeft, type MeasurementDependencies, type MeasurementOptions } from '../measurements/types.js';

/**
 * Which provider answers the check: the first enabled in this order. OpenAI first because it is the most
 * used assistant and its default model is the cheapest of the three; then Anthropic, then Gemini.
 */
export const CHECK_PROVIDER_ORDER: readonly ProviderId[] = ['openai', 'anthropic', 'gemini'];

export interface CheckBrand {
  brand: string;
  category?: string | undefined;
}

/** The three questions of one check, as asked (the blind list is null when it was skipped). */
export interface CheckQuestions {
  recognition: string;
  blindList: string | null;
  recommendation: string;
}

type QuestionName = keyof CheckQuestions;

const PURPOSES: Readonly<Record<QuestionName, string>> = {
  recognition: 'check.recognition',
  blindList: 'check.blind_list',
  recommendation: 'check.recommendation',
};
const LABELS: Readonly<Record<QuestionName, string>> = {
  recognition: 'recognition',
  blindList: 'blind list',
  recommendation: 'recommendation',
};

/** The enabled provider that answers checks, or null when none is. */
export function chooseCheckProvider(lineup: ReadonlyMap<ProviderId, Provider>): Provider | null {
  for (const id of CHECK_PROVIDER_ORDER) {
    const provider = lineup.get(id);
    if (provider !== undefined) return provider;
  }
  return null;
}

/**
 * The questions a check asks for a brand and optional category. The blind list never contains the brand:
 * the brand is cut out of the category phrase, and the list is skipped when that leaves nothing, or when
 * the prompt would still name the brand (a brand called "Best" or "List").
 */
export function checkQuestions(brand: string, category?: string): CheckQuestions {
  const prompts = CHECK_PROMPTS.en;
  const phrase = category === undefined ? null : blindListCategoryPhrase(category, brand);
  const blindList = phrase === null ? null : prompts.blindList(phrase);
  return {
    recognition: prompts.recognition(brand),
    blindList: blindList !== null && !promptMentionsBrand(blindList, brand) ? blindList : null,
    // The same category phrase as the list, so both halves measure the same thing.
    recommendation: prompts.recommendation(brand, phrase ?? undefined),
  };
}

/** Asks one provider whether it knows, lists (blind) and recommends the brand, and scores the answers. */
export async function checkBrandRecognition(
  dependencies: MeasurementDependencies,
  request: CheckBrand,
  options: MeasurementOptions = {},
): Promise<CheckResponse> {
  const brand = normalizeWhitespace(request.brand);
  // Validation of the body is the transport's job (missing_brand); this guards direct callers.
  if (brand === '') throw new TypeError('the brand must not be empty');
  const category = request.category === undefined ? '' : normalizeWhitespace(request.category);

  const provider = chooseCheckProvider(dependencies.lineup);
  if (provider === null) {
    throw new MeasurementError({
      code: 'not_configured',
      message: 'The brand check has no model provider configured on this deployment.',
      hint: 'Try again later; the operator has to configure a provider key.',
    });
  }
  await assertBudgetLeft(dependencies.budget, provider.model);
  options.signal?.throwIfAborted();
  await options.beforeSpend?.();
  options.signal?.throwIfAborted();

  const questions = checkQuestions(brand, category === '' ? undefined : category);
  let answers: CheckAnswers;
  try {
    answers = await askAll(provider, questions, options);
  } catch (error) {
    if (error instanceof QuestionFailed) throw await checkFailure(error.error, dependencies);
    throw error;
  }

  const recognition = parseRecognitionAnswer(answers.recognition.text);
  const recommendations = answers.blindList === null ? [] : parseBlindList(answers.blindList.text);
  const listPosition = recommendations.length === 0 ? null : positionInList(recommendations, createBrandMatcher(brand));
  const recommendation = parseRecommendationAnswer(answers.recommendation.text);
  const score = computeCheckScore({
    knows: recognition.knows,
    listPosition,
    recommendVerdict: recommendation.verdict,
    blindListAsked: questions.blindList !== null,
  });
  return {
    score,
    verdict: checkVerdict(score),
    brand,
    category,
    knows: recognition.knows,
    description: recognition.knows ? recognition.description : '',
    recommendations,
    listPosition,
    recommendVerdict: recommendation.verdict,
    recommendReason: recommendation.reason,
    model: answers.recognition.model,
  };
}

interface CheckAnswers {
  recognition: Answer;
  blindList: Answer | null;
  recommendation: Answer;
}

/** Why askAll stopped: the first question that failed, as the provider reported it. */
class QuestionFailed {
  constructor(readonly error: unknown) {}
}

/** Asks the questions concurrently; the first failure cancels the others and is thrown as a QuestionFailed. */
async function askAll(provider: Provider, questions: CheckQuestions, options: MeasurementOptions): Promise<CheckAnswers> {
  const names = (Object.keys(questions) as QuestionName[]).filter((name) => questions[name] !== null);
  const controller = new AbortController();
  const forwardAbort = (): void => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', forwardAbort, { once: true });
  const failures: unknown[] = [];
  let completed = 0;
  try {
    const settled = await Promise.allSettled(
      names.map(async (name) => {
        try {
          const answer = await provider.ask({ prompt: questions[name] ?? '', purpose: PURPOSES[name], signal: controller.signal });
          completed += 1;
          options.onProgress?.({ completed, total: names.length, label: LABELS[name] });
          return [name, answer] as const;
        } catch (error) {
          // One failed question fails the check: stop paying for the others and stop their retries.
          if (!controller.signal.aborted) {
            failures.push(error);
            controller.abort(new Error('another question of the check failed'));
          }
          throw error;
        }
      }),
    );
    options.signal?.throwIfAborted();
    if (failures.length > 0) throw new QuestionFailed(failures[0]);
    const answers = new Map<QuestionName, Answer>();
    for (const outcome of settled) if (outcome.status === 'fulfilled') answers.set(outcome.value[0], outcome.value[1]);
    const recognition = answers.get('recognition');
    const recommendation = answers.get('recommendation');
    if (recognition === undefined || recommendation === undefined) throw new Error('a check question settled without an answer');
    return { recognition, blindList: answers.get('blindList') ?? null, recommendation };
  } finally {
    options.signal?.removeEventListener('abort', forwardAbort);
  }
}

/** Maps the failure of one question to the check's 503 codes; anything else (a bug) is rethrown as is. */
async function checkFailure(error: unknown, dependencies: MeasurementDependencies): Promise<unknown> {
  if (!(error instanceof ProviderFailure)) return error;
  const now = new Date();
  const waitSeconds = error.retryAfterMs === undefined ? undefined : wholeSecondsAtLeastOne(error.retryAfterMs);
  switch (error.kind) {
    case 'budget': {
      const resetAt =
        (await dependencies.budget?.status())?.resetAt ??
        (waitSeconds === undefined ? nextMonthStart(now) : new Date(now.getTime() + waitSeconds * 1000));
      return budgetError(resetAt, now, error);
    }
    case 'rate_limited':
    case 'overloaded':
    case 'timeout':
      return new MeasurementError({
        code: 'provider_overloaded',
          message: 'The model provider is busy right now, so the check could not finish.',
        hint: 'Wait a little and try again.',
        retryAfterSeconds: waitSeconds ?? DEFAULT_OVERLOADED_RETRY_AFTER_SECONDS,
        cause: error,
      });
    case 'unavailable':
    case 'bad_request':
      return new MeasurementError({
        code: 'provider_paused',
          message: 'The brand check is paused: the model provider refused the request or could not be reached.',
        hint: 'Try again later.',
        retryAfterSeconds: waitSeconds ?? DEFAULT_PAUSED_RETRY_AFTER_SECONDS,
        cause: error,
      });
    default:
      return error;
  }
}
