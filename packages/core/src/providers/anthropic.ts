import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { DEFAULT_MAX_OUTPUT_TOKENS, type AdapterOptions } from './adapter-options.js';
import type { AnswerFields } from './answer-fields.js';
import { classifyStainlessError, StainlessProvider, stainlessClientOptions } from './stainless-adapter.js';
import type { AskRequest, ProviderFailure } from './types.js';

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
  return classifyStainlessError('anthropic', error, timeoutMs, ANTHROPIC_ERRORS, (apiError) => apiError.type);
}

const ANTHROPIC_ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

/** Anthropic over the official SDK (Messages API). */
export class AnthropicProvider extends StainlessProvider {
  readonly id = 'anthropic' as const;
  private readonly client: Anthropic;

  constructor(options: AdapterOptions) {
    super(options);
    this.client = new Anthropic(stainlessClientOptions(options, this.timeoutMs));
  }

  protected async send(request: AskRequest, requestOptions: { signal: AbortSignal; timeout: number; maxRetries: 0 }): Promise<AnswerFields> {
    const message = await this.client.messages.create(toAnthropicMessageParams(this.model, request, this.maxOutputTokens), requestOptions);
    return fromAnthropicMessage(message, this.model);
  }

  protected classify(error: unknown): ProviderFailure {
    return classifyAnthropicError(error, this.timeoutMs);
  }
}
