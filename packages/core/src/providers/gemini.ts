import { ApiError, GoogleGenAI, type GenerateContentParameters, type GenerateContentResponse } from '@google/genai';
import { DEFAULT_MAX_OUTPUT_TOKENS, DEFAULT_TIMEOUT_MS, type AdapterOptions } from './adapter-options.js';
import { answerFromFields, type AnswerFields } from './answer-fields.js';
import { runAttempt } from './attempt.js';
import { failureFromConnectionError, failureFromHttpStatus, timeoutFailure, unexpectedFailure } from './failures.js';
import { parseGoogleRetryDelay, parseRetryAfter, type HeaderLookup } from './retry-after.js';
import { ProviderFailure, type Answer, type AskRequest, type Provider } from './types.js';

/** The parts of a generateContent response the mapper reads (the SDK's class fits). */
export type GeminiResponseLike = Pick<GenerateContentResponse, 'candidates' | 'modelVersion' | 'usageMetadata' | 'promptFeedback'>;

/** Our request → generateContent params: one user turn, no `systemInstruction`, temperature 0, no tools; a `responseFormat` becomes `responseJsonSchema` with JSON output. */
export function toGenerateContentParams(
  model: string,
  request: AskRequest,
  defaultMaxOutputTokens: number = DEFAULT_MAX_OUTPUT_TOKENS,
): GenerateContentParameters {
  return {
    model,
    contents: [{ role: 'user', parts: [{ text: request.prompt }] }],
    config: {
      temperature: 0,
      maxOutputTokens: request.maxOutputTokens ?? defaultMaxOutputTokens,
      ...(request.responseFormat === undefined
        ? {}
        : { responseMimeType: 'application/json', responseJsonSchema: request.responseFormat.schema }),
    },
  };
}

/** generateContent response → answer fields: the first candidate's non-thought text; thinking counts as output. */
export function fromGenerateContentResponse(response: GeminiResponseLike, requestedModel: string): AnswerFields {
  const candidate = response.candidates?.[0];
  const text = (candidate?.content?.parts ?? [])
    .filter((part) => typeof part.text === 'string' && part.thought !== true)
    .map((part) => part.text)
    .join('');
  const usage = response.usageMetadata;
  return {
    model: response.modelVersion || requestedModel,
    text,
    usage: {
      inputTokens: usage?.promptTokenCount ?? 0,
      // Thinking tokens are billed as output, as OpenAI's completion_tokens and Anthropic's output_tokens include theirs.
      outputTokens: (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0),
    },
    finishReason: candidate?.finishReason ?? response.promptFeedback?.blockReason ?? undefined,
  };
}

/**
 * Maps anything the Gemini SDK throws to a ProviderFailure. Its ApiError carries no headers, so the
 * caller passes the ones it recorded; failing those, the wait comes from the body's RetryInfo.
 */
export function classifyGeminiError(error: unknown, timeoutMs: number, headers?: HeaderLookup): ProviderFailure {
  if (error instanceof ProviderFailure) return error;
  if (error instanceof ApiError) {
    return failureFromHttpStatus('gemini', {
      status: error.status,
      message: error.message,
      retryAfterMs: parseRetryAfter(headers) ?? parseGoogleRetryDelay(error.message),
      vendorCode: googleErrorCode(error.message),
      cause: error,
    });
  }
  // The SDK's own timer aborts the fetch with a plain AbortError.
  if (error instanceof DOMException && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return timeoutFailure('gemini', timeoutMs, error);
  }
  // Node's fetch reports network failures as `TypeError: fetch failed` with the socket error as cause.
  if (error instanceof TypeError) return failureFromConnectionError('gemini', error);
  return unexpectedFailure('gemini', error);
}

/** The most specific code in a Google error body: an ErrorInfo `reason` (e.g. API_KEY_INVALID), else the `status`. */
function googleErrorCode(errorBody: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(errorBody);
  } catch {
    return undefined;
  }
  const error = (parsed as { error?: { status?: unknown; details?: unknown } } | null)?.error;
  const details = Array.isArray(error?.details) ? (error.details as unknown[]) : [];
  for (const detail of details) {
    const reason = (detail as { reason?: unknown } | null)?.reason;
    if (typeof reason === 'string') return reason;
  }
  return typeof error?.status === 'string' ? error.status : undefined;
}

/** Gemini over the official SDK (generateContent on the Gemini API, not Vertex). */
export class GeminiProvider implements Provider {
  readonly id = 'gemini' as const;
  readonly model: string;
  private readonly client: GoogleGenAI;
  private readonly timeoutMs: number;
  private readonly maxOutputTokens: number;
  private readonly baseFetch: typeof fetch;

  constructor(options: AdapterOptions) {
    this.model = options.model;
    this.baseFetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    // No `retryOptions`: without them this SDK makes exactly one attempt; retries belong to withRetries.
    this.client = new GoogleGenAI({
      apiKey: options.apiKey,
      // Pinned so a stray GOOGLE_GENAI_USE_VERTEXAI in the environment cannot reroute the calls.
      vertexai: false,
      httpOptions: {
        ...(options.baseURL === undefined ? {} : { baseUrl: options.baseURL }),
        timeout: this.timeoutMs,
      },
    });
  }

  async ask(request: AskRequest): Promise<Answer> {
    // Per call, so concurrent calls cannot read each other's headers.
    let errorHeaders: Headers | undefined;
    const baseFetch = this.baseFetch;
    const recordingFetch = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
      const response = await baseFetch(input, init);
      if (!response.ok) errorHeaders = response.headers;
      return response;
    };
    const { value, latencyMs } = await runAttempt({
      provider: this.id,
      timeoutMs: this.timeoutMs,
      signal: request.signal,
      call: async (signal) => {
        const params = toGenerateContentParams(this.model, request, this.maxOutputTokens);
        const response = await this.client.models.generateContent({
          ...params,
          config: { ...params.config, abortSignal: signal, httpOptions: { fetch: recordingFetch } },
        });
        return fromGenerateContentResponse(response, this.model);
      },
      classify: (error) => classifyGeminiError(error, this.timeoutMs, errorHeaders),
    });
    return answerFromFields(this.id, value, latencyMs);
  }
}
