import { ApiError, FinishReason, BlockedReason } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { classifyGeminiError, fromGenerateContentResponse, GeminiProvider, toGenerateContentParams } from './gemini.js';

const prompt = 'Which accounting software do small businesses prefer?';

describe('toGenerateContentParams', () => {
  it('sends one user turn with the prompt verbatim, temperature 0, no system instruction or tools', () => {
    expect(toGenerateContentParams('gemini-2.5-flash', { prompt })).toEqual({
      model: 'gemini-2.5-flash',
      contents: [{ role: 'user', parts: [{ text: prompt }] }],
      config: { temperature: 0, maxOutputTokens: 1024 },
    });
  });

  it('asks for JSON with a responseJsonSchema when the request carries a schema', () => {
    const schema = { type: 'object', properties: { brands: { type: 'array', items: { type: 'string' } } }, required: ['brands'], additionalProperties: false };
    expect(toGenerateContentParams('m', { prompt, responseFormat: { name: 'brand_list', schema } }).config).toEqual({
      temperature: 0,
      maxOutputTokens: 1024,
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
  });
});

describe('fromGenerateContentResponse', () => {
  it('reports modelVersion, the non-thought text, and thinking as output', () => {
    const fields = fromGenerateContentResponse(
      {
        modelVersion: 'gemini-2.5-flash-001',
        candidates: [
          {
            finishReason: FinishReason.STOP,
            content: { role: 'model', parts: [{ text: 'plan first', thought: true }, { text: 'QuickBooks ' }, { text: 'or Xero.' }] },
          },
        ],
        usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 5, thoughtsTokenCount: 20 },
      },
      'gemini-2.5-flash',
    );
    expect(fields).toEqual({
      model: 'gemini-2.5-flash-001',
      text: 'QuickBooks or Xero.',
      usage: { inputTokens: 11, outputTokens: 25 },
      finishReason: 'STOP',
    });
  });

  it('explains a blocked prompt and falls back to the requested model', () => {
    const fields = fromGenerateContentResponse({ promptFeedback: { blockReason: BlockedReason.SAFETY } }, 'gemini-requested');
    expect(fields).toEqual({ model: 'gemini-requested', text: '', usage: { inputTokens: 0, outputTokens: 0 }, finishReason: 'SAFETY' });
  });
});

describe('classifyGeminiError', () => {
  it('reads the wait from recorded headers first', () => {
    const error = new ApiError({ status: 429, message: '{"error":{"code":429}}' });
    const failure = classifyGeminiError(error, 30_000, new Headers({ 'retry-after': '3' }));
    expect(failure.kind).toBe('rate_limited');
    expect(failure.retryAfterMs).toBe(3000);
  });

  it("falls back to the body's RetryInfo", () => {
    const body = '{"error":{"code":429,"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"7s"}]}}';
    expect(classifyGeminiError(new ApiError({ status: 429, message: body }), 30_000).retryAfterMs).toBe(7000);
  });

  it('treats a wrong key (which Gemini answers with 400 API_KEY_INVALID) as unavailable, not bad_request', () => {
    const body = JSON.stringify({
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
      },
    });
    expect(classifyGeminiError(new ApiError({ status: 400, message: body }), 1)).toMatchObject({ kind: 'unavailable', retryable: false, status: 400 });
  });

  it('maps statuses, SDK aborts and network errors', () => {
    expect(classifyGeminiError(new ApiError({ status: 403, message: 'denied' }), 1).kind).toBe('unavailable');
    expect(classifyGeminiError(new ApiError({ status: 500, message: 'internal' }), 1).kind).toBe('overloaded');
    expect(classifyGeminiError(new ApiError({ status: 400, message: 'bad' }), 1).kind).toBe('bad_request');
    expect(classifyGeminiError(new DOMException('aborted', 'AbortError'), 1).kind).toBe('timeout');
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) });
    expect(classifyGeminiError(refused, 1)).toMatchObject({ kind: 'unavailable', retryable: false });
    expect(classifyGeminiError(new SyntaxError('Unexpected token'), 1)).toMatchObject({ kind: 'unavailable', retryable: false });
  });
});

describe('GeminiProvider', () => {
  it("reads retry-after from the failed response's headers, which the SDK's ApiError drops", async () => {
    const rateLimited = async (): Promise<Response> =>
      new Response(JSON.stringify({ error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' } }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '3' },
      });
    const provider = new GeminiProvider({ apiKey: 'k', model: 'gemini-x', baseURL: 'http://gemini.invalid', fetch: rateLimited });
    await expect(provider.ask({ prompt })).rejects.toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 3000 });
  });
});
