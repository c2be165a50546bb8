import { randomBase62, randomHex } from '../ids.js';
import { allMessagesText, bearerToken, contentText, isRecord, lastMessageText, positiveNumber, stringField } from './read.js';
import type { Credential, WireError, WireFormat, WireReply, WireRequest } from './types.js';

function requestId(): string {
  return `req_011C${randomBase62(20)}`;
}

function rateLimitHeaders(exhausted: boolean): Record<string, string> {
  const reset = new Date(Date.now() + (exhausted ? 60_000 : 1_000)).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    'anthropic-ratelimit-requests-limit': '50',
    'anthropic-ratelimit-requests-remaining': exhausted ? '0' : '49',
    'anthropic-ratelimit-requests-reset': reset,
  };
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function errorReply(error: WireError): WireReply {
  const id = requestId();
  const reply = (status: number, message: string, extraHeaders: Record<string, string> = {}): WireReply => ({
    status,
    headers: { 'request-id': id, ...extraHeaders },
    body: { type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message }, request_id: id },
  });
  switch (error.kind) {
    case 'missing_key':
      return reply(401, 'x-api-key header is required');
    case 'invalid_key':
      return reply(401, 'invalid x-api-key');
    case 'bad_request':
      return reply(400, error.message ?? 'Invalid request.');
    case 'not_found':
      return reply(404, 'Not Found');
    case 'rate_limit': {
      const seconds = error.retryAfterSeconds ?? 1;
      return reply(
        429,
        'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.',
        { 'retry-after': String(seconds), ...rateLimitHeaders(true) },
      );
    }
    case 'server_error':
      return reply(error.status, error.status === 529 ? 'Overloaded' : 'Internal server error');
  }
}

/** The schema of structured outputs: `output_config.format` (GA) or the beta's top-level `output_format`. */
function outputSchema(fields: Record<string, unknown>): unknown {
  const config = fields['output_config'];
  const format = isRecord(config) ? config['format'] : fields['output_format'];
  if (!isRecord(format) || format['type'] !== 'json_schema') return undefined;
  return format['schema'] ?? {};
}

/** Anthropic Messages: POST /v1/messages (the SDK sends its key as `authorization: Bearer` or `x-api-key`). */
export const anthropicMessages: WireFormat = {
  provider: 'anthropic',
  api: 'messages',
  tokenOverhead: 8,
  read(body): WireRequest {
    const fields = isRecord(body) ? body : {};
    const system = contentText(fields['system']);
    const history = allMessagesText(fields['messages'], 'content');
    return {
      model: stringField(fields['model']) ?? '',
      prompt: lastMessageText(fields['messages'], ['user'], 'content'),
      inputText: [system, history].filter((text) => text.length > 0).join('\n'),
      maxOutputTokens: positiveNumber(fields['max_tokens']),
      temperature: typeof fields['temperature'] === 'number' ? fields['temperature'] : undefined,
      stream: fields['stream'] === true,
      jsonSchema: outputSchema(fields),
    };
  },
  problem(body) {
    if (!isRecord(body)) return { message: 'There was an issue with the JSON body of your request.' };
    if (!stringField(body['model'])) return { message: 'model: Field required' };
    if (positiveNumber(body['max_tokens']) === undefined) return { message: 'max_tokens: Field required' };
    const messages = body['messages'];
    if (!Array.isArray(messages) || messages.length === 0) return { message: 'messages: at least one message is required' };
    if (body['stream'] === true) return { message: 'stream: streaming is not supported by the simulator; send stream: false' };
    return undefined;
  },
  credential(headers): Credential {
    const key = headers['x-api-key'] || bearerToken(headers);
    return key ? { kind: 'present', value: key } : { kind: 'missing' };
  },
  success(request, answer): WireReply {
    return {
      status: 200,
      headers: {
        'request-id': requestId(),
        'anthropic-organization-id': `${randomHex(8)}-${randomHex(4)}-${randomHex(4)}-${randomHex(4)}-${randomHex(12)}`,
        ...rateLimitHeaders(false),
      },
      body: {
        id: `msg_01${randomBase62(22)}`,
        type: 'message',
        role: 'assistant',
        model: request.model,
        content: [{ type: 'text', text: answer.text }],
        stop_reason: answer.finish === 'length' ? 'max_tokens' : 'end_turn',
        stop_sequence: null,
        usage: {
          input_tokens: answer.inputTokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
          output_tokens: answer.outputTokens,
          service_tier: 'standard',
        },
      },
    };
  },
  error: errorReply,
};
