import { describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic.js';
import { createProvider, createProviderLineup } from './create-providers.js';
import { GeminiProvider } from './gemini.js';
import { OpenAIProvider } from './openai.js';

const settings = { apiKey: 'test-key', baseURL: 'http://127.0.0.1:9', model: 'some-model' };

describe('createProvider', () => {
  it('builds the adapter for each id', () => {
    expect(createProvider('openai', settings)).toBeInstanceOf(OpenAIProvider);
    expect(createProvider('anthropic', settings)).toBeInstanceOf(AnthropicProvider);
    expect(createProvider('gemini', settings)).toBeInstanceOf(GeminiProvider);
    expect(createProvider('gemini', settings).model).toBe('some-model');
  });

  it('chooses the OpenAI API from the settings', () => {
    expect((createProvider('openai', { ...settings, api: 'responses' }) as OpenAIProvider).api).toBe('responses');
    expect((createProvider('openai', settings) as OpenAIProvider).api).toBe('chat');
  });
});

describe('createProviderLineup', () => {
  it('includes only the configured providers, keeping their ids and models', () => {
    const lineup = createProviderLineup(
      { openai: { ...settings, model: 'gpt-x' }, gemini: undefined, anthropic: { ...settings, model: 'claude-x' } },
      { timeoutMs: 1000, maxRetries: 1, maxConcurrentPerProvider: 2 },
    );
    expect([...lineup.keys()]).toEqual(['openai', 'anthropic']);
    expect(lineup.get('openai')).toMatchObject({ id: 'openai', model: 'gpt-x' });
    expect(lineup.get('anthropic')).toMatchObject({ id: 'anthropic', model: 'claude-x' });
  });

  it('rejects an invalid concurrency cap up front', () => {
    expect(() => createProviderLineup({ openai: settings }, { timeoutMs: 1000, maxRetries: 1, maxConcurrentPerProvider: 0 })).toThrow(RangeError);
  });
});
