import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { ResponseCreateParamsNonStreaming } from 'openai/resources/responses/responses';
import { DEFAULT_MAX_OUTPUT_TOKENS, type AdapterOptions } from './adapter-options.js';
import type { AnswerFields } from './answer-fields.js';
import { classifyStainlessError, StainlessProvider, stainlessClientOptions } from './stainless-adapter.js';
import type { AskRequest, ProviderFailure } from './types.js';

/** Which OpenAI endpoint to ask: Chat Completions (default) or the Responses API. */
export type OpenAIApi = 'chat' | 'responses';

export interface OpenAIAdapterOptions extends AdapterOptions {
  api?: OpenAIApi | undefined;
}

/** The parts of a Chat Completions response the mapper reads (the SDK's `ChatCompletion` fits). */
export interface ChatCompletionLike {
  model: string;
  choices: ReadonlyArray<{
    finish_reason: string | null;
    message: { content: string | null; refusal?: string | null };
  }>;
  usage?: { prompt_tokens: number; completion_tokens: number } | null | undefined;
}

/** The parts of a Responses API response the mapper reads (the SDK's `Response` fits). */
export interface ResponsesResultLike {
  model: string;
  status?: string | null | undefined;
  incomplete_details?: { reason?: string | null | undefined } | null | undefined;
  output: ReadonlyArray<{
    type: string;
    content?: ReadonlyArray<{ type: string; text?: string; refusal?: string }> | null | undefined;
  }>;
  usage?: { input_tokens: number; output_tokens: number } | null | undefined;
}

/** Our request → Chat Completions params: the prompt as the only (user) message, temperature 0, no tools; a `responseFormat` becomes a strict `json_schema` response format. */
export function toChatCompletionParams(
  model: string,
  request: AskRequest,
  defaultMaxOutputTokens: number = DEFAULT_MAX_OUTPUT_TOKENS,
): ChatCompletionCreateParamsNonStreaming {
  return {
    model,
    messages: [{ role: 'user', content: request.prompt }],
    temperature: 0,
    // `max_tokens` is deprecated and refused by reasoning models; this is its replacement.
    max_completion_tokens: request.maxOutputTokens ?? defaultMaxOutputTokens,
    ...(request.responseFormat === undefined
      ? {}
      : {
          response_format: {
            type: 'json_schema' as const,
            json_schema: { name: request.responseFormat.name, schema: request.responseFormat.schema, strict: true },
          },
        }),
  };
}

/** Chat Completions response → answer fields; a refusal counts as the text the user would have seen. */
export function fromChatCompletion(response: ChatCompletionLike, requestedModel: string): AnswerFields {
  const choice = response.choices[0];
  return {
    model: response.model || requestedModel,
    text: choice?.message.content ?? choice?.message.refusal ?? '',
    usage: {
      inputTokens: response.usage?.prompt_tokens ?? 0,
      outputTokens: response.usage?.completion_tokens ?? 0,
    },
    finishReason: choice?.finish_reason ?? undefined,
  };
}

/** Our request → Responses API params: one user message, no `instructions`, temperature 0, no tools, not stored; a `responseFormat` becomes a strict `json_schema` text format. */
export function toResponsesParams(
  model: string,
  request: AskRequest,
  defaultMaxOutputTokens: number = DEFAULT_MAX_OUTPUT_TOKENS,
): ResponseCreateParamsNonStreaming {
  return {
    model,
    input: [{ role: 'user', content: request.prompt }],
    temperature: 0,
    max_output_tokens: request.maxOutputTokens ?? defaultMaxOutputTokens,
    // A measurement has no use for a server-side conversation copy.
    store: false,
    ...(request.responseFormat === undefined
      ? {}
      : {
          text: {
            format: { type: 'json_schema' as const, name: request.responseFormat.name, schema: request.responseFormat.schema, strict: true },
          },
        }),
  };
}

/** Responses API response → answer fields: the message items' output text (or refusal), in order. */
export function fromResponsesResult(response: ResponsesResultLike, requestedModel: string): AnswerFields {
  const parts: string[] = [];
  for (const item of response.output) {
    if (item.type !== 'message') continue;
    for (const part of item.content ?? []) {
      if (part.type === 'output_text' && part.text !== undefined) parts.push(part.text);
      else if (part.type === 'refusal' && part.refusal !== undefined) parts.push(part.refusal);
    }
  }
  return {
    model: response.model || requestedModel,
    text: parts.join(''),
    usage: {
      inputTokens: response.usage?.input_tokens ?? 0,
      outputTokens: response.usage?.output_tokens ?? 0,
    },
    finishReason: response.incomplete_details?.reason ?? response.status ?? undefined,
  };
}

/** Maps anything the OpenAI SDK throws to a ProviderFailure. */
export function classifyOpenAIError(error: unknown, timeoutMs: number): ProviderFailure {
  return classifyStainlessError('openai', error, timeoutMs, OPENAI_ERRORS, (apiError) => apiError.code ?? apiError.type);
}

const OPENAI_ERRORS = { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError };

/** OpenAI over the official SDK (Chat Completions or Responses API). */
export class OpenAIProvider extends StainlessProvider {
  readonly id = 'openai' as const;
  readonly api: OpenAIApi;
  private readonly client: OpenAI;

  constructor(options: OpenAIAdapterOptions) {
    super(options);
    this.api = options.api ?? 'chat';
    this.client = new OpenAI(stainlessClientOptions(options, this.timeoutMs));
  }

  protected async send(request: AskRequest, requestOptions: { signal: AbortSignal; timeout: number; maxRetries: 0 }): Promise<AnswerFields> {
    if (this.api === 'responses') {
      const params = toResponsesParams(this.model, request, this.maxOutputTokens);
      return fromResponsesResult(await this.client.responses.create(params, requestOptions), this.model);
    }
    const params = toChatCompletionParams(this.model, request, this.maxOutputTokens);
    return fromChatCompletion(await this.client.chat.completions.create(params, requestOptions), this.model);
  }

  protected classify(error: unknown): ProviderFailure {
    return classifyOpenAIError(error, this.timeoutMs);
  }
}
