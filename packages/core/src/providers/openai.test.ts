import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import {
  classifyOpenAIError,
  fromChatCompletion,
  fromResponsesResult,
  toChatCompletionParams,
  toResponsesParams,
  type ChatCompletionLike,
  type ResponsesResultLike,
} from './openai.js';

const prompt = 'Which CRM would you recommend for a 10-person agency?';

describe('toChatCompletionParams', () => {
  it('sends the prompt verbatim as the only user message, temperature 0, no tools', () => {
    const params = toChatCompletionParams('gpt-4o-mini', { prompt });
    expect(params).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: prompt }],
      temperature: 0,
      max_completion_tokens: 1024,
    });
  });

  it("uses the request's output cap over the adapter default", () => {
    expect(toChatCompletionParams('m', { prompt, maxOutputTokens: 200 }, 900).max_completion_tokens).toBe(200);
    expect(toChatCompletionParams('m', { prompt }, 900).max_completion_tokens).toBe(900);
  });

  it('asks for a strict json_schema response format only when the request carries a schema', () => {
    const schema = { type: 'object', properties: { brands: { type: 'array', items: { type: 'string' } } }, required: ['brands'], additionalProperties: false };
    expect(toChatCompletionParams('m', { prompt, responseFormat: { name: 'brand_list', schema } }).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'brand_list', schema, strict: true },
    });
    expect(toChatCompletionParams('m', { prompt })).not.toHaveProperty('response_format');
  });
});

describe('fromChatCompletion', () => {
  const response: ChatCompletionLike = {
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{ finish_reason: 'stop', message: { content: 'HubSpot and Pipedrive.', refusal: null } }],
    usage: { prompt_tokens: 14, completion_tokens: 6 },
  };

  it('reports the model the response names, the text and the usage', () => {
    expect(fromChatCompletion(response, 'gpt-4o-mini')).toEqual({
      model: 'gpt-4o-mini-2024-07-18',
      text: 'HubSpot and Pipedrive.',
      usage: { inputTokens: 14, outputTokens: 6 },
      finishReason: 'stop',
    });
  });

  it('uses the refusal as the text when there is no content', () => {
    const refused = { ...response, choices: [{ finish_reason: 'stop', message: { content: null, refusal: 'I cannot help.' } }] };
    expect(fromChatCompletion(refused, 'm').text).toBe('I cannot help.');
  });

  it('yields empty text and zero usage when the response has neither', () => {
    const fields = fromChatCompletion({ model: '', choices: [], usage: null }, 'gpt-requested');
    expect(fields).toEqual({ model: 'gpt-requested', text: '', usage: { inputTokens: 0, outputTokens: 0 }, finishReason: undefined });
  });
});

describe('toResponsesParams', () => {
  it('sends one user message, no instructions or tools, temperature 0, not stored', () => {
    expect(toResponsesParams('gpt-4.1', { prompt, maxOutputTokens: 300 })).toEqual({
      model: 'gpt-4.1',
      input: [{ role: 'user', content: prompt }],
      temperature: 0,
      max_output_tokens: 300,
      store: false,
    });
  });

  it('asks for a strict json_schema text format when the request carries a schema', () => {
    const schema = { type: 'object', properties: { brands: { type: 'array', items: { type: 'string' } } }, required: ['brands'], additionalProperties: false };
    expect(toResponsesParams('m', { prompt, responseFormat: { name: 'brand_list', schema } }).text).toEqual({
      format: { type: 'json_schema', name: 'brand_list', schema, strict: true },
    });
    expect(toResponsesParams('m', { prompt })).not.toHaveProperty('text');
  });
});

describe('fromResponsesResult', () => {
  it('joins the output text of message items, skipping reasoning items', () => {
    const response: ResponsesResultLike = {
      model: 'gpt-4.1-2025-04-14',
      status: 'completed',
      output: [
        { type: 'reasoning', content: [{ type: 'reasoning_text', text: 'thinking...' }] },
        { type: 'message', content: [{ type: 'output_text', text: 'Try ' }, { type: 'output_text', text: 'Notion.' }] },
      ],
      usage: { input_tokens: 20, output_tokens: 4 },
    };
    expect(fromResponsesResult(response, 'gpt-4.1')).toEqual({
      model: 'gpt-4.1-2025-04-14',
      text: 'Try Notion.',
      usage: { inputTokens: 20, outputTokens: 4 },
      finishReason: 'completed',
    });
  });

  it('reports why an incomplete response is incomplete', () => {
    const response: ResponsesResultLike = {
      model: 'o4-mini',
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [{ type: 'reasoning', content: null }],
    };
    const fields = fromResponsesResult(response, 'o4-mini');
    expect(fields.text).toBe('');
    expect(fields.finishReason).toBe('max_output_tokens');
  });
});

describe('classifyOpenAIError', () => {
  it('maps a 429 with retry-after to rate_limited with the wait', () => {
    const error = APIError.generate(429, { error: { message: 'Rate limit reached', type: 'requests' } }, undefined, new Headers({ 'retry-after': '2' }));
    const failure = classifyOpenAIError(error, 30_000);
    expect(failure.kind).toBe('rate_limited');
    expect(failure.retryAfterMs).toBe(2000);
    expect(failure.cause).toBe(error);
  });

  it('maps insufficient_quota to unavailable', () => {
    const error = APIError.generate(429, { error: { message: 'quota', type: 'insufficient_quota', code: 'insufficient_quota' } }, undefined, new Headers());
    expect(classifyOpenAIError(error, 30_000).kind).toBe('unavailable');
  });

  it('maps 401 to unavailable, 400 to bad_request, 503 to overloaded', () => {
    expect(classifyOpenAIError(APIError.generate(401, undefined, 'no key', new Headers()), 1).kind).toBe('unavailable');
    expect(classifyOpenAIError(APIError.generate(400, undefined, 'bad', new Headers()), 1).kind).toBe('bad_request');
    expect(classifyOpenAIError(APIError.generate(503, undefined, 'busy', new Headers()), 1).kind).toBe('overloaded');
  });

  it("maps the SDK's timeout to timeout and connection errors to unavailable", () => {
    expect(classifyOpenAIError(new APIConnectionTimeoutError(), 300).kind).toBe('timeout');
    const refused = new APIConnectionError({ cause: new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }) });
    const failure = classifyOpenAIError(refused, 300);
    expect(failure.kind).toBe('unavailable');
    expect(failure.retryable).toBe(false);
  });
});
