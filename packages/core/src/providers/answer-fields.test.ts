import { describe, expect, it } from 'vitest';
import { answerFromFields } from './answer-fields.js';

const usage = { inputTokens: 4, outputTokens: 2 };

describe('answerFromFields', () => {
  it('builds a one-attempt answer', () => {
    expect(answerFromFields('anthropic', { model: 'claude-x-1', text: 'Asana', usage, finishReason: 'end_turn' }, 42)).toEqual({
      provider: 'anthropic',
      model: 'claude-x-1',
      text: 'Asana',
      usage,
      latencyMs: 42,
      attempts: 1,
    });
  });

  it('refuses an answer with no text, naming the finish reason', () => {
    expect(() => answerFromFields('gemini', { model: 'g', text: ' \n', usage, finishReason: 'MAX_TOKENS' }, 1)).toThrow(
      expect.objectContaining({ name: 'ProviderFailure', kind: 'unavailable', retryable: false, message: expect.stringContaining('MAX_TOKENS') }),
    );
  });
});
