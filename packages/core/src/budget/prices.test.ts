import { describe, expect, it } from 'vitest';
import { createPriceTable, DEFAULT_MODEL_PRICES, estimateInputTokens, UNKNOWN_MODEL_PRICE } from './prices.js';

describe('createPriceTable', () => {
  const table = createPriceTable();

  it('prices an exact id from the table', () => {
    expect(table.lookup('gpt-4.1-mini')).toEqual({ price: { input: 0.4, output: 1.6 }, source: 'exact', matched: 'gpt-4.1-mini' });
    expect(table.lookup('claude-sonnet-4-5').price).toEqual({ input: 3, output: 15 });
    expect(table.lookup('gemini-2.5-flash').price).toEqual({ input: 0.3, output: 2.5 });
  });

  it('prices a dated snapshot by its longest known prefix', () => {
    expect(table.lookup('gpt-4.1-mini-2025-04-14')).toMatchObject({ source: 'prefix', matched: 'gpt-4.1-mini' });
    expect(table.lookup('gpt-4o-mini-2024-07-18').matched).toBe('gpt-4o-mini');
    expect(table.lookup('gpt-4o-2024-08-06').matched).toBe('gpt-4o');
    expect(table.lookup('claude-sonnet-4-5-20250929').matched).toBe('claude-sonnet-4-5');
    expect(table.lookup('claude-opus-4-1-20250805').matched).toBe('claude-opus-4-1');
    expect(table.lookup('gemini-2.5-flash-lite-preview-06-17').matched).toBe('gemini-2.5-flash-lite');
    expect(table.lookup('models/gemini-2.5-flash').matched).toBe('gemini-2.5-flash');
    expect(table.lookup('GPT-4.1-Mini').matched).toBe('gpt-4.1-mini');
  });

  it('only matches a prefix at a separator, so a different model is not priced as its namesake', () => {
    expect(table.lookup('gpt-4o-audio-preview').matched).toBe('gpt-4o');
    expect(table.lookup('gpt-4x').source).toBe('unknown');
    expect(table.lookup('gpt-5.9').source).toBe('unknown');
    expect(table.lookup('o3x').source).toBe('unknown');
  });

  it('charges an unknown model the conservative (expensive) default', () => {
    expect(table.lookup('llama3.1:8b')).toEqual({ price: UNKNOWN_MODEL_PRICE, source: 'unknown', matched: undefined });
    // A typical call (short prompt, long answer) of an unknown model costs at least as much as any
    // listed model's, the premium "-pro" reasoning tiers aside.
    const typicalCall = { inputTokens: 50, outputTokens: 1000 };
    const unknownCost = table.costMicroUsd('some-new-model', typicalCall);
    for (const id of Object.keys(DEFAULT_MODEL_PRICES).filter((key) => !key.endsWith('-pro'))) {
      expect(unknownCost, id).toBeGreaterThanOrEqual(table.costMicroUsd(id, typicalCall));
    }
  });

  it('makes demo- models free unless the table lists them', () => {
    expect(table.lookup('demo-gpt-4.1-mini')).toEqual({ price: { input: 0, output: 0 }, source: 'demo', matched: undefined });
    expect(table.isFree('demo-claude-sonnet-4-5')).toBe(true);
    expect(table.costMicroUsd('demo-gpt-4.1-mini', { inputTokens: 10_000, outputTokens: 10_000 })).toBe(0);
    const priced = createPriceTable({ 'demo-': { input: 1, output: 2 } });
    expect(priced.lookup('demo-gpt-4.1-mini')).toMatchObject({ source: 'prefix', matched: 'demo-' });
    expect(priced.isFree('demo-gpt-4.1-mini')).toBe(false);
  });

  it('merges operator overrides over the defaults', () => {
    const overridden = createPriceTable({ 'GPT-4.1-mini': { input: 1, output: 2 }, 'llama3.1': { input: 0, output: 0 } });
    expect(overridden.lookup('gpt-4.1-mini-2025-04-14').price).toEqual({ input: 1, output: 2 });
    expect(overridden.lookup('llama3.1:8b')).toMatchObject({ source: 'prefix', price: { input: 0, output: 0 } });
    expect(overridden.lookup('gpt-4o').price).toEqual({ input: 2.5, output: 10 });
  });

  it('computes cost in whole micro-dollars without float drift', () => {
    // 1,000 in at $0.40/M + 2,000 out at $1.60/M = $0.0036.
    expect(table.costMicroUsd('gpt-4.1-mini', { inputTokens: 1000, outputTokens: 2000 })).toBe(3600);
    // 0.075 * 1000 is 75.00000000000001 in floating point; the integer path gives 75.
    expect(table.costMicroUsd('gemini-2.0-flash-lite', { inputTokens: 1000, outputTokens: 0 })).toBe(75);
    // A fraction of a micro-dollar is rounded up, never down.
    expect(table.costMicroUsd('gpt-5-nano', { inputTokens: 1, outputTokens: 0 })).toBe(1);
  });

  it('estimates from the prompt length and the whole output cap', () => {
    expect(estimateInputTokens('')).toBe(16);
    expect(estimateInputTokens('a'.repeat(300))).toBe(116);
    // Three bytes per CJK character: about one token each, as the tokenizers count them.
    expect(estimateInputTokens('日本語')).toBe(19);
    expect(table.estimateMicroUsd('gpt-4.1-mini', { prompt: 'a'.repeat(300), maxOutputTokens: 1000 })).toBe(
      Math.ceil(116 * 0.4 + 1000 * 1.6),
    );
  });
});
