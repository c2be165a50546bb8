export {
  PROVIDER_IDS,
  PROVIDER_FAILURE_KINDS,
  ProviderFailure,
  isProviderId,
  type Answer,
  type AskRequest,
  type JsonResponseFormat,
  type Provider,
  type ProviderFailureKind,
  type ProviderId,
  type TokenUsage,
} from './types.js';
export { DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_TIMEOUT_MS, type AdapterOptions } from './adapter-options.js';
export { answerFromFields, type AnswerFields } from './answer-fields.js';
export { runAttempt, type AttemptOptions, type AttemptResult } from './attempt.js';
export {
  emptyAnswerFailure,
  failureFromConnectionError,
  failureFromHttpStatus,
  timeoutFailure,
  unexpectedFailure,
  type HttpErrorFacts,
} from './failures.js';
export { parseGoogleRetryDelay, parseRetryAfter, type HeaderLookup } from './retry-after.js';
export {
  OpenAIProvider,
  classifyOpenAIError,
  fromChatCompletion,
  fromResponsesResult,
  toChatCompletionParams,
  toResponsesParams,
  type ChatCompletionLike,
  type OpenAIAdapterOptions,
  type OpenAIApi,
  type ResponsesResultLike,
} from './openai.js';
export {
  AnthropicProvider,
  classifyAnthropicError,
  fromAnthropicMessage,
  toAnthropicMessageParams,
  type AnthropicMessageLike,
} from './anthropic.js';
export {
  GeminiProvider,
  classifyGeminiError,
  fromGenerateContentResponse,
  toGenerateContentParams,
  type GeminiResponseLike,
} from './gemini.js';
export {
  DEFAULT_BASE_DELAY_MS,
  DEFAULT_MAX_DELAY_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_AFTER_MS,
  retryDelayMs,
  withRetries,
  type RetryOptions,
} from './retries.js';
export { Semaphore, type Release } from './semaphore.js';
export { withConcurrencyLimit } from './concurrency.js';
export { sleep } from './sleep.js';
export {
  createProvider,
  createProviderLineup,
  type AdapterTuning,
  type LineupOptions,
  type ProviderSettings,
} from './create-providers.js';
