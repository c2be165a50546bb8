import { APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { classifyAnthropicError, fromAnthropicMessage, toAnthropicMessageParams, type AnthropicMessageLike } from './anthropic.js';

const prompt = 'What is the best project management tool for startups?';

describe('toAnthropicMessageParams', () => {
  it('sends the prompt verbatim as the only user message, with no system prompt, sampling params or tools', () => {
    const params = toAnthropicMessageParams('claude-sonnet-4-5', { prompt });
    expect(params).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: prompt }],
    });
    // API version 2026-10-21 answers 400 to any sampling parameter, even temperature 0.
    expect(params).not.toHaveProperty('temperature');
    expect(params).not.toHaveProperty('system');
    expect(params).not.toHaveProperty('tools');
  });

  it("uses the request's output cap", () => {
    expect(toAnthropicMessageParams('m', { prompt, maxOutputTokens: 64 }).max_tokens).toBe(64);
  });

  it('asks for structured output through output_config.format when the request carries a schema', () => {
    const schema = { type: 'object', properties: { brands: { type: 'array', items: { type: 'string' } } }, required: ['brands'], additionalProperties: false };
    expect(toAnthropicMessageParams('m', { prompt, responseFormat: { name: 'brand_list', schema } }).output_config).toEqual({
      format: { type: 'json_schema', schema },
    });
    expect(toAnthropicMessageParams('m', { prompt })).not.toHaveProperty('output_config');
  });
});

describe('fromAnthropicMessage', () => {
  const message: AnthropicMessageLike = {
    model: 'claude-sonnet-4-5-20250929',
    content: [
      { type: 'thinking' },
      { type: 'text', text: 'Linear, ' },
      { type: 'text', text: 'then Asana.' },
    ],
    stop_reason: 'end_turn',
    usage: { input_tokens: 12, output_tokens: 9, cache_creation_input_tokens: 3, cache_read_input_tokens: null },
  };

  it('joins the text blocks and counts cached input as input', () => {
    expect(fromAnthropicMessage(message, 'claude-sonnet-4-5')).toEqual({
      model: 'claude-sonnet-4-5-20250929',
      text: 'Linear, then Asana.',
      usage: { inputTokens: 15, outputTokens: 9 },
      finishReason: 'end_turn',
    });
  });

  it('yields empty text when there are no text blocks', () => {
    const fields = fromAnthropicMessage({ ...message, content: [], stop_reason: 'refusal' }, 'm');
    expect(fields.text).toBe('');
    expect(fields.finishReason).toBe('refusal');
  });
});

describe('classifyAnthropicError', () => {
  it('maps 529 overloaded_error to overloaded', () => {
    const error = APIError.generate(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, undefined, new Headers());
    const failure = classifyAnthropicError(error, 30_000);
    expect(failure.kind).toBe('overloaded');
    expect(failure.retryable).toBe(true);
  });

  it('maps a 429 with retry-after to rate_limited with the wait', () => {
    const error = APIError.generate(429, { type: 'error', error: { type: 'rate_limit_error', message: 'slow' } }, undefined, new Headers({ 'retry-after': '4' }));
    const failure = classifyAnthropicError(error, 30_000);
    expect(failure.kind).toBe('rate_limited');
    expect(failure.retryAfterMs).toBe(4000);
  });

  it('maps 401 to unavailable and the SDK timeout to timeout', () => {
    const unauthorised = APIError.generate(401, { type: 'error', error: { type: 'authentication_error', message: 'bad key' } }, undefined, new Headers());
    expect(classifyAnthropicError(unauthorised, 1).kind).toBe('unavailable');
    expect(classifyAnthropicError(new APIConnectionTimeoutError(), 1).kind).toBe('timeout');
  });
});
