import { randomHex } from '../ids.js';
import { hashParts } from '../random.js';
import { allMessagesText, bearerToken, isRecord, lastMessageText, positiveNumber, stringField } from './read.js';
import type { Credential, WireError, WireFormat, WireReply, WireRequest } from './types.js';

// Undated model ids answer as a dated snapshot, as OpenAI does ("gpt-4.1-mini" → "gpt-4.1-mini-2025-04-14").
const SNAPSHOT_DATES: readonly [RegExp, string][] = [
  [/gpt-4\.1/, '2025-04-14'],
  [/gpt-4o-mini/, '2024-07-18'],
  [/gpt-4o/, '2024-08-06'],
  [/gpt-5/, '2025-08-07'],
  [/o4-mini|o3/, '2025-04-16'],
];

/** The snapshot id OpenAI reports for a requested model id. */
export function openaiSnapshot(model: string): string {
  if (/-\d{4}-\d{2}-\d{2}$/.test(model)) return model;
  const date = SNAPSHOT_DATES.find(([pattern]) => pattern.test(model))?.[1] ?? '2025-04-14';
  return `${model}-${date}`;
}

function requestIdHeaders(processingMs: number): Record<string, string> {
  return {
    'x-request-id': `req_${randomHex(32)}`,
    'openai-processing-ms': String(Math.max(1, Math.round(processingMs))),
    'openai-version': '2020-10-01',
    'openai-organization': 'simulator',
  };
}

function rateLimitHeaders(exhausted: boolean, retryAfterSeconds = 0): Record<string, string> {
  return {
    'x-ratelimit-limit-requests': '500',
    'x-ratelimit-remaining-requests': exhausted ? '0' : '499',
    'x-ratelimit-reset-requests': exhausted ? `${retryAfterSeconds}s` : '120ms',
    'x-ratelimit-limit-tokens': '200000',
    'x-ratelimit-remaining-tokens': exhausted ? '0' : '199000',
    'x-ratelimit-reset-tokens': exhausted ? `${retryAfterSeconds}s` : '300ms',
  };
}

function credential(headers: Record<string, string>): Credential {
  const token = bearerToken(headers);
  return token ? { kind: 'present', value: token } : { kind: 'missing' };
}

function errorReply(error: WireError): WireReply {
  const headers: Record<string, string> = { 'x-request-id': `req_${randomHex(32)}` };
  const body = (message: string, type: string, code: string | null, param: string | null = null): unknown => ({
    error: { message, type, param, code },
  });
  switch (error.kind) {
    case 'missing_key':
      return {
        status: 401,
        headers,
        body: body(
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
          'invalid_request_error',
          null,
        ),
      };
    case 'invalid_key':
      return { status: 401, headers, body: body('Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key') };
    case 'bad_request':
      return { status: 400, headers, body: body(error.message ?? 'Invalid request.', 'invalid_request_error', null, error.param ?? null) };
    case 'not_found':
      return { status: 404, headers, body: body(`Invalid URL (${error.method ?? 'POST'} ${error.path ?? '/'})`, 'invalid_request_error', null) };
    case 'rate_limit': {
      const seconds = error.retryAfterSeconds ?? 1;
      return {
        status: 429,
        headers: { ...headers, 'retry-after': String(seconds), ...rateLimitHeaders(true, seconds) },
        body: body(
          `Rate limit reached for ${error.model ?? 'this model'} in organization org-simulator on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in ${seconds}s.`,
          'requests',
          'rate_limit_exceeded',
        ),
      };
    }
    case 'server_error': {
      const overloaded = error.status === 503 || error.status === 529;
      return {
        status: error.status,
        headers,
        body: body(
          overloaded ? 'The server is overloaded or not ready yet.' : 'The server had an error while processing your request. Sorry about that!',
          'server_error',
          overloaded ? 'service_unavailable' : null,
        ),
      };
    }
  }
}

/**
 * The schema of a `json_schema` format: Chat Completions nests it (`{type, json_schema: {name, schema}}`),
 * the Responses API does not (`{type, name, schema}`).
 */
function jsonSchemaFormat(format: unknown, nestedKey: string | undefined): unknown {
  if (!isRecord(format) || format['type'] !== 'json_schema') return undefined;
  const holder = nestedKey === undefined ? format : format[nestedKey];
  return isRecord(holder) ? (holder['schema'] ?? {}) : {};
}

function streamProblem(body: Record<string, unknown>): { message: string; param: string } | undefined {
  return body['stream'] === true ? { message: 'Streaming is not supported by the simulator; send stream: false.', param: 'stream' } : undefined;
}

/** OpenAI Chat Completions: POST /v1/chat/completions. */
export const openaiChat: WireFormat = {
  provider: 'openai',
  api: 'chat.completions',
  tokenOverhead: 7,
  read(body): WireRequest {
    const fields = isRecord(body) ? body : {};
    return {
      model: stringField(fields['model']) ?? '',
      prompt: lastMessageText(fields['messages'], ['user'], 'content'),
      inputText: allMessagesText(fields['messages'], 'content'),
      maxOutputTokens: positiveNumber(fields['max_completion_tokens']) ?? positiveNumber(fields['max_tokens']),
      temperature: typeof fields['temperature'] === 'number' ? fields['temperature'] : undefined,
      stream: fields['stream'] === true,
      jsonSchema: jsonSchemaFormat(fields['response_format'], 'json_schema'),
    };
  },
  problem(body) {
    if (!isRecord(body)) return { message: 'We could not parse the JSON body of your request.' };
    if (!stringField(body['model'])) return { message: 'you must provide a model parameter', param: 'model' };
    const messages = body['messages'];
    if (!Array.isArray(messages)) return { message: "Missing required parameter: 'messages'.", param: 'messages' };
    if (messages.length === 0) return { message: "Invalid 'messages': empty array. Expected an array with minimum length 1.", param: 'messages' };
    return streamProblem(body);
  },
  credential,
  success(request, answer): WireReply {
    const model = openaiSnapshot(request.model);
    return {
      status: 200,
      headers: { ...requestIdHeaders(answer.processingMs), ...rateLimitHeaders(false) },
      body: {
        id: `chatcmpl-${randomHex(29)}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: answer.text, refusal: null, annotations: [] },
            logprobs: null,
            finish_reason: answer.finish,
          },
        ],
        usage: {
          prompt_tokens: answer.inputTokens,
          completion_tokens: answer.outputTokens,
          total_tokens: answer.inputTokens + answer.outputTokens,
          prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
        },
        service_tier: 'default',
        // Stable per model, like the real fingerprints, which change only with the serving stack.
        system_fingerprint: `fp_${hashParts('fingerprint', model).toString(16).padStart(8, '0')}`,
      },
    };
  },
  error: errorReply,
};

/** The user text of a Responses API `input`: a string, or the last user item's content. */
function responsesPrompt(input: unknown): string {
  if (typeof input === 'string') return input;
  return lastMessageText(input, ['user'], 'content');
}

/** OpenAI Responses: POST /v1/responses (the SDK's `output_text` is built from output[].content[]). */
export const openaiResponses: WireFormat = {
  provider: 'openai',
  api: 'responses',
  tokenOverhead: 7,
  read(body): WireRequest {
    const fields = isRecord(body) ? body : {};
    const input = fields['input'];
    const instructions = stringField(fields['instructions']) ?? '';
    const inputText = typeof input === 'string' ? input : allMessagesText(input, 'content');
    return {
      model: stringField(fields['model']) ?? '',
      prompt: responsesPrompt(input),
      inputText: [instructions, inputText].filter((text) => text.length > 0).join('\n'),
      maxOutputTokens: positiveNumber(fields['max_output_tokens']),
      temperature: typeof fields['temperature'] === 'number' ? fields['temperature'] : undefined,
      stream: fields['stream'] === true,
      jsonSchema: isRecord(fields['text']) ? jsonSchemaFormat(fields['text']['format'], undefined) : undefined,
    };
  },
  problem(body) {
    if (!isRecord(body)) return { message: 'We could not parse the JSON body of your request.' };
    if (!stringField(body['model'])) return { message: "Missing required parameter: 'model'.", param: 'model' };
    const input = body['input'];
    if (typeof input !== 'string' && !Array.isArray(input)) return { message: "Missing required parameter: 'input'.", param: 'input' };
    if (input.length === 0) return { message: "Invalid 'input': expected a non-empty string or a list of input items.", param: 'input' };
    return streamProblem(body);
  },
  credential,
  success(request, answer): WireReply {
    const created = Math.floor(Date.now() / 1000);
    const truncated = answer.finish === 'length';
    return {
      status: 200,
      headers: { ...requestIdHeaders(answer.processingMs), ...rateLimitHeaders(false) },
      body: {
        id: `resp_${randomHex(48)}`,
        object: 'response',
        created_at: created,
        status: truncated ? 'incomplete' : 'completed',
        background: false,
        completed_at: truncated ? null : created,
        error: null,
        incomplete_details: truncated ? { reason: 'max_output_tokens' } : null,
        instructions: null,
        max_output_tokens: request.maxOutputTokens ?? null,
        model: openaiSnapshot(request.model),
        output: [
          {
            id: `msg_${randomHex(48)}`,
            type: 'message',
            status: truncated ? 'incomplete' : 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: answer.text, annotations: [], logprobs: [] }],
          },
        ],
        parallel_tool_calls: true,
        previous_response_id: null,
        reasoning: { effort: null, summary: null },
        service_tier: 'default',
        store: true,
        temperature: request.temperature ?? 1,
        text: { format: { type: 'text' }, verbosity: 'medium' },
        tool_choice: 'auto',
        tools: [],
        top_p: 1,
        truncation: 'disabled',
        usage: {
          input_tokens: answer.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: answer.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: answer.inputTokens + answer.outputTokens,
        },
        user: null,
        metadata: {},
      },
    };
  },
  error: errorReply,
};
