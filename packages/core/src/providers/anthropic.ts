import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_TIMEOUT_MS, type AdapterOptions } from './adapter-options.js';
import { answerFromFields, type AnswerFields } from './answer-fields.js';
import { runAttempt } from './attempt.js';
import { failureFromConnectionError, failureFromHttpStatus, timeoutFailure, unexpectedFailure } from './failures.js';
import { parseRetryAfter } from './retry-after.js';
import { ProviderFailure, type Answer, type AskRequest, type Provider } from './types.js';

/** The parts of a Messages API response the mapper reads (the SDK's `Message` fits). */
export interface AnthropicMessageLike {
  model: string;
  content: ReadonlyArray<{ type: string; text?: string }>;
  stop_reason: string | null;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens?: number | null;
    cache_read_input_tokens?: number | null;
  };
}

/**
 * Our request → Messages params: the prompt as the only user message, no `system`, no tools; a
 * `responseFormat` becomes `output_config.format` (structured outputs).
 * No `temperature` either: API version 2026-10-21, which this SDK major sends, rejects every sampling
 * parameter with a 400 (even at its default), and the SDK's types no longer have the field.
 */
export function toAnthropicMessageParams(
  model: string,
  request: AskRequest,
  defaultMaxOutputTokens: number = DEFAULT_MAX_OUTPUT_TOKENS,
): MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: request.maxOutputTokens ?? defaultMaxOutputTokens,
    messages: [{ role: 'user', content: request.prompt }],
    ...(request.responseFormat === undefined
      ? {}
      : { output_config: { format: { type: 'json_schema' as const, schema: request.responseFormat.schema } } }),
  };
}

/** Messages API response → answer fields: the text blocks joined, cached input counted as input. */
export function fromAnthropicMessage(message: AnthropicMessageLike, requestedModel: string): AnswerFields {
  const text = message.content
    .filter((block) => block.type === 'text' && block.text !== undefined)
    .map((block) => block.text)
    .join('');
  const usage = message.usage;
  return {
    model: message.model || requestedModel,
    text,
    usage: {
      // Anthropic's input_tokens excludes prompt-cache reads and writes; all three are input we paid for.
      inputTokens: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
      outputTokens: usage.output_tokens,
    },
    finishReason: message.stop_reason ?? undefined,
  };
}

/** Maps anything the Anthropic SDK throws to a ProviderFailure. */
export function classifyAnthropicError(error: unknown, timeoutMs: number): ProviderFailure {
  if (error instanceof ProviderFailure) return error;
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError) {
    return timeoutFailure('anthropic', timeoutMs, error);
  }
  if (error instanceof APIConnectionError) return failureFromConnectionError('anthropic', error);
  if (error instanceof APIError && typeof error.status === 'number') {
    return failureFromHttpStatus('anthropic', {
      status: error.status,
      message: error.message,
      retryAfterMs: parseRetryAfter(error.headers),
      vendorCode: error.type,
      cause: error,
    });
  }
  return unexpectedFailure('anthropic', error);
}

/** Anthropic over the official SDK (Messages API). */
export class AnthropicProvider implements Provider {
  readonly id = 'anthropic' as const;
  readonly model: string;
  private readonly client: Anthropic;
  private readonly timeoutMs: number;
  private readonly maxOutputTokens: number;

  constructor(options: AdapterOptions) {
    this.model = options.model;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    // maxRetries 0: retries belong to withRetries, which sees every vendor's failures the same way.
    this.client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      timeout: this.timeoutMs,
      maxRetries: 0,
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
  }

  async ask(request: AskRequest): Promise<Answer> {
    const { value, latencyMs } = await runAttempt({
      provider: this.id,
      timeoutMs: this.timeoutMs,
      signal: request.signal,
      call: async (signal) => {
        const params = toAnthropicMessageParams(this.model, request, this.maxOutputTokens);
        const message = await this.client.messages.create(params, { signal, timeout: this.timeoutMs, maxRetries: 0 });
        return fromAnthropicMessage(message, this.model);
      },
      classify: (error) => classifyAnthropicError(error, this.timeoutMs),
    });
    return answerFromFields(this.id, value, latencyMs);
  }
}
