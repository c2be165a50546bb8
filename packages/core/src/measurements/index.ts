// Public surface of the quick measurements (runRepeatedBuyerQuestion, checkBrandRecognition).

export { runRepeatedBuyerQuestion, REPEAT_RUNS } from '../operations/run-repeated-buyer-question.js';
export type { RepeatOptions, RepeatQuestion } from '../operations/run-repeated-buyer-question.js';
export { checkBrandRecognition, checkQuestions, chooseCheckProvider, CHECK_PROVIDER_ORDER } from '../operations/check-brand-recognition.js';
export type { CheckBrand, CheckQuestions } from '../operations/check-brand-recognition.js';
export { checkVerdict, computeCheckScore, listPoints, CHECK_SCORE_POINTS, VERDICT_THRESHOLDS } from './check-score.js';
export type { CheckScoreInput, CheckVerdict } from './check-score.js';
export {
  budgetError,
  CHECK_ERROR_CODES,
  DEFAULT_OVERLOADED_RETRY_AFTER_SECONDS,
  DEFAULT_PAUSED_RETRY_AFTER_SECONDS,
  describeProviderFailure,
  MeasurementError,
  REPEAT_ERROR_CODES,
} from './errors.js';
export type { CheckErrorCode, MeasurementErrorCode, MeasurementErrorOptions, RepeatErrorCode } from './errors.js';
export { parseBlindList, parseRecognitionAnswer, parseRecommendationAnswer } from './parse-answers.js';
export type { RecognitionReading, RecommendationReading, RecommendVerdict } from './parse-answers.js';
export {
  BLIND_LIST_SIZE,
  blindListCategoryPhrase,
  CHECK_PROMPTS,
  normalizeWhitespace,
  promptMentionsBrand,
} from './prompts.js';
export type { CheckPrompts, PromptLanguage } from './prompts.js';
export { computeRepeatMetrics } from './repeat-metrics.js';
export type { RepeatMetrics, RepeatRun } from './repeat-metrics.js';
export type { MeasurementDependencies, MeasurementOptions, MeasurementProgress } from './types.js';
