import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseModelPrices } from './config.js';

function problemsOf(environment: Record<string, string>): string[] {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('MODEL_PRICES', () => {
  it('is empty when unset or blank, so the default price table applies', () => {
    expect(loadConfig({}).modelPrices).toEqual({});
    expect(loadConfig({ MODEL_PRICES: '   ' }).modelPrices).toEqual({});
  });

  it('reads model ids or prefixes to USD per million input/output tokens, lower-cased', () => {
    const config = loadConfig({
      MODEL_PRICES: '{"GPT-4.1-mini": {"input": 0.4, "output": 1.6}, "llama3.1": {"input": 0, "output": 0}}',
    });
    expect(config.modelPrices).toEqual({
      'gpt-4.1-mini': { input: 0.4, output: 1.6 },
      'llama3.1': { input: 0, output: 0 },
    });
  });

  it('refuses text that is not JSON, naming the variable and the expected shape', () => {
    const problems = problemsOf({ MODEL_PRICES: "{gpt-4.1-mini: 0.4}" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^MODEL_PRICES must be JSON like \{"gpt-4.1-mini"/);
  });

  it('refuses JSON that is not an object of prices', () => {
    expect(problemsOf({ MODEL_PRICES: '[1, 2]' })[0]).toMatch(/^MODEL_PRICES must be a JSON object/);
    expect(problemsOf({ MODEL_PRICES: '3' })[0]).toMatch(/^MODEL_PRICES must be a JSON object/);
  });

  it('names every bad entry', () => {
    const problems = problemsOf({
      MODEL_PRICES: JSON.stringify({
        good: { input: 1, output: 2 },
        negative: { input: -1, output: 2 },
        missing: { input: 1 },
        text: { input: '1', output: 2 },
        extra: { input: 1, output: 2, cached: 0.5 },
        flat: 3,
        '  ': { input: 1, output: 1 },
      }),
    });
    expect(problems).toHaveLength(6);
    for (const name of ['negative', 'missing', 'text', 'extra', 'flat']) {
      expect(problems.some((problem) => problem.startsWith(`MODEL_PRICES entry "${name}"`))).toBe(true);
    }
    expect(problems.join('\n')).toContain('unknown field "cached"');
    expect(problems.join('\n')).toContain('empty model id');
  });

  it('is reported together with other bad variables', () => {
    const problems = problemsOf({ PORT: 'eighty', MODEL_PRICES: 'nope' });
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).toContain('PORT');
    expect(problems.join('\n')).toContain('MODEL_PRICES');
  });

  it('parses on its own, throwing a ConfigError', () => {
    expect(parseModelPrices(undefined)).toEqual({});
    expect(parseModelPrices('{"o3": {"input": 2, "output": 8}}')).toEqual({ o3: { input: 2, output: 8 } });
    expect(() => parseModelPrices('{"o3": {}}')).toThrow(ConfigError);
    // A "__proto__" key stays an ordinary entry instead of replacing the object's prototype.
    const odd = parseModelPrices('{"__proto__": {"input": 1, "output": 2}}');
    expect(Object.keys(odd)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype);
  });
});
