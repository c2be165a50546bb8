import { randomBase64Url } from '../ids.js';
import { bearerToken, contentText, isRecord, lastMessageText, positiveNumber } from './read.js';
import type { Credential, WireError, WireFormat, WireReply, WireRequest } from './types.js';

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function errorReply(error: WireError): WireReply {
  const reply = (status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): WireReply => ({
    status,
    headers,
    body: { error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNAVAILABLE', ...extra } },
  });
  switch (error.kind) {
    case 'missing_key':
      return reply(401, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
    case 'invalid_key':
      // Google answers a wrong key with 400 INVALID_ARGUMENT, not 401.
      return reply(400, 'API key not valid. Please pass a valid API key.', {
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
      });
    case 'bad_request':
      return reply(400, error.message ?? 'Request contains an invalid argument.');
    case 'not_found':
      return reply(404, `Requested entity was not found: ${error.method ?? 'POST'} ${error.path ?? '/'}`);
    case 'rate_limit': {
      const seconds = error.retryAfterSeconds ?? 1;
      return reply(
        429,
        'Resource has been exhausted (e.g. check quota).',
        { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` }] },
        { 'retry-after': String(seconds) },
      );
    }
    case 'server_error':
      return reply(
        error.status,
        error.status === 500 ? 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting' : 'The model is overloaded. Please try again later.',
      );
  }
}

/** Gemini generateContent: POST /v1beta/models/{model}:generateContent (key in `x-goog-api-key` or `?key=`). */
export const geminiGenerateContent: WireFormat = {
  provider: 'gemini',
  api: 'generateContent',
  tokenOverhead: 0,
  read(body, modelFromPath): WireRequest {
    const fields = isRecord(body) ? body : {};
    const contents = fields['contents'];
    const generationConfig = isRecord(fields['generationConfig']) ? fields['generationConfig'] : {};
    const system = contentText(fields['systemInstruction']);
    const history = Array.isArray(contents) ? contents.map((item: unknown) => (isRecord(item) ? contentText(item['parts']) : '')).join('\n') : contentText(contents);
    return {
      model: (modelFromPath ?? '').replace(/^models\//, ''),
      prompt: Array.isArray(contents) ? lastMessageText(contents, ['user'], 'parts') : contentText(contents),
      inputText: [system, history].filter((text) => text.length > 0).join('\n'),
      maxOutputTokens: positiveNumber(generationConfig['maxOutputTokens']),
      temperature: typeof generationConfig['temperature'] === 'number' ? generationConfig['temperature'] : undefined,
      stream: false,
      // JSON output with a schema: `responseJsonSchema` (JSON Schema) or the older OpenAPI-subset `responseSchema`.
      jsonSchema:
        generationConfig['responseMimeType'] === 'application/json'
          ? (generationConfig['responseJsonSchema'] ?? generationConfig['responseSchema'] ?? {})
          : undefined,
    };
  },
  problem(body, streamingPath) {
    if (streamingPath) return { message: 'streamGenerateContent is not supported by the simulator; call generateContent.' };
    if (!isRecord(body)) return { message: 'Invalid JSON payload received.' };
    const contents = body['contents'];
    if (contents === undefined || (Array.isArray(contents) && contents.length === 0)) {
      return { message: '* GenerateContentRequest.contents: contents is not specified' };
    }
    return undefined;
  },
  credential(headers, query): Credential {
    const key = headers['x-goog-api-key'] || query.get('key') || bearerToken(headers);
    return key ? { kind: 'present', value: key } : { kind: 'missing' };
  },
  success(request, answer): WireReply {
    return {
      status: 200,
      headers: { 'server-timing': `gfet4t7; dur=${Math.max(1, Math.round(answer.processingMs))}` },
      body: {
        candidates: [
          {
            content: { parts: [{ text: answer.text }], role: 'model' },
            finishReason: answer.finish === 'length' ? 'MAX_TOKENS' : 'STOP',
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: answer.inputTokens,
          candidatesTokenCount: answer.outputTokens,
          totalTokenCount: answer.inputTokens + answer.outputTokens,
          promptTokensDetails: [{ modality: 'TEXT', tokenCount: answer.inputTokens }],
        },
        modelVersion: request.model,
        responseId: randomBase64Url(22),
      },
    };
  },
  error: errorReply,
};
