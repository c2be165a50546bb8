import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS } from './config.js';
import { createPriceTable } from '../budget/prices.js';

// The Anthropic SDK ships the list of models it warns about ("deprecated, end of life on …"); a default
// model on that list would put a warning on every call and stop working on that date.
const require = createRequire(import.meta.url);
const sdkRoot = dirname(require.resolve('@anthropic-ai/sdk'));
const deprecatedSource = readFileSync(join(sdkRoot, 'internal', 'data', 'deprecated-models.js'), 'utf8');
const deprecated = [...deprecatedSource.matchAll(/'([^']+)':\s*'([^']+)'/gu)].map((match) => ({ model: match[1] ?? '', endOfLife: match[2] ?? '' }));

describe('default models', () => {
  it('reads the SDK list of deprecated Anthropic models (so the check below can fail)', () => {
    expect(deprecated.map((entry) => entry.model)).toContain('claude-sonnet-4-5');
  });

  it('uses no model the Anthropic SDK marks deprecated', () => {
    for (const model of Object.values(DEFAULT_MODELS)) {
      const hit = deprecated.find((entry) => entry.model === model || model.startsWith(`${entry.model}-`));
      expect(hit, `${model} is deprecated by its SDK (end of life ${hit?.endOfLife})`).toBeUndefined();
    }
  });

  it('has a built-in price for every default model', () => {
    const table = createPriceTable();
    for (const model of Object.values(DEFAULT_MODELS)) expect(table.lookup(model).source, model).toBe('exact');
  });
});
