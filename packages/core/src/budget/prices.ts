import { DEMO_MODEL_PREFIX } from '../lineup.js';
import type { TokenUsage } from '../providers/types.js';

/** A model's list price in US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/**
 * Standard-tier list prices (USD per million tokens, no batch or cache discounts) of common models.
 * Keys are exact ids or prefixes: `gpt-4.1-mini-2025-04-14` prices as `gpt-4.1-mini`. Operators
 * correct or extend this with MODEL_PRICES; prices change, so this is a starting point, not a promise.
 */
export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  // OpenAI
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5.1': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-5-pro': { input: 15, output: 120 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'chatgpt-4o-latest': { input: 5, output: 15 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-4': { input: 30, output: 60 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  o1: { input: 15, output: 60 },
  'o1-mini': { input: 1.1, output: 4.4 },
  o3: { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o3-pro': { input: 20, output: 80 },
  'o4-mini': { input: 1.1, output: 4.4 },
  // Anthropic
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-4-6': { input: 3, output: 15 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-3-5-sonnet': { input: 3, output: 15 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-opus': { input: 15, output: 75 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
  // Google Gemini (prompts up to 200k tokens; ours are far shorter)
  'gemini-3-pro': { input: 2, output: 12 },
  'gemini-2.5-pro': { input: 1.25, output: 10 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4 },
  'gemini-2.0-flash-lite': { input: 0.075, output: 0.3 },
  'gemini-1.5-pro': { input: 1.25, output: 5 },
  'gemini-1.5-flash': { input: 0.075, output: 0.3 },
};

/** What an unknown model is charged: Opus-class prices, so a model nobody priced cannot quietly overspend. */
export const UNKNOWN_MODEL_PRICE: ModelPrice = { input: 15, output: 75 };

/** Demo-lineup models (`demo-` ids) answer from the local simulator and cost nothing unless priced explicitly. */
export const DEMO_MODEL_PRICE: ModelPrice = { input: 0, output: 0 };

/** How a price was found: the id itself, a known prefix of it, the demo rule, or the unknown default. */
export type PriceSource = 'exact' | 'prefix' | 'demo' | 'unknown';

export interface PriceLookup {
  price: ModelPrice;
  source: PriceSource;
  /** The table key that matched, when one did. */
  matched: string | undefined;
}

/** Estimate inputs for a call not yet made. */
export interface CostEstimateRequest {
  prompt: string;
  /** The answer-length cap the call will run with. */
  maxOutputTokens: number;
}

export interface PriceTable {
  /** The price a model id is charged at, and why. */
  lookup(model: string): PriceLookup;
  /** What a finished call cost, in whole micro-dollars (rounded up). */
  costMicroUsd(model: string, usage: TokenUsage): number;
  /** An upper-bound guess of what a call will cost, in whole micro-dollars. */
  estimateMicroUsd(model: string, request: CostEstimateRequest): number;
  /** Whether calls to the model cost nothing (demo ids, or a zero price). */
  isFree(model: string): boolean;
}

// After a prefix, an id continues with a separator; "gpt-4" must not price "gpt-4o", nor "gpt-5" price
// "gpt-5.2" (a dot is a version, so it is not a separator).
const SEPARATORS = new Set(['-', '_', ':', '@']);

/** Builds the price table: the defaults with the operator's overrides (MODEL_PRICES) merged over them. */
export function createPriceTable(
  overrides: Readonly<Record<string, ModelPrice>> = {},
  defaults: Readonly<Record<string, ModelPrice>> = DEFAULT_MODEL_PRICES,
): PriceTable {
  const table = new Map<string, ModelPrice>();
  for (const [key, price] of Object.entries(defaults)) table.set(key.trim().toLowerCase(), price);
  for (const [key, price] of Object.entries(overrides)) table.set(key.trim().toLowerCase(), price);
  // Longest first, so the first prefix that matches is the most specific one.
  const keysByLength = [...table.keys()].sort((left, right) => right.length - left.length);

  function match(id: string): PriceLookup | undefined {
    const exact = table.get(id);
    if (exact !== undefined) return { price: exact, source: 'exact', matched: id };
    for (const key of keysByLength) {
      if (!id.startsWith(key)) continue;
      const next = id.charAt(key.length);
      if (SEPARATORS.has(key.charAt(key.length - 1)) || SEPARATORS.has(next)) {
        return { price: table.get(key) ?? UNKNOWN_MODEL_PRICE, source: 'prefix', matched: key };
      }
    }
    return undefined;
  }

  function lookup(model: string): PriceLookup {
    const id = model.trim().toLowerCase();
    // Gateways and Gemini may name a model with a namespace ("models/gemini-2.5-flash", "openai/gpt-4o").
    const lastSegment = id.includes('/') ? id.slice(id.lastIndexOf('/') + 1) : undefined;
    const found = match(id) ?? (lastSegment === undefined ? undefined : match(lastSegment));
    if (found !== undefined) return found;
    if (id.startsWith(DEMO_MODEL_PREFIX)) return { price: DEMO_MODEL_PRICE, source: 'demo', matched: undefined };
    return { price: UNKNOWN_MODEL_PRICE, source: 'unknown', matched: undefined };
  }

  function costMicroUsd(model: string, usage: TokenUsage): number {
    const { price } = lookup(model);
    return microUsdFor(price, usage.inputTokens, usage.outputTokens);
  }

  return {
    lookup,
    costMicroUsd,
    estimateMicroUsd(model, request) {
      const { price } = lookup(model);
      return microUsdFor(price, estimateInputTokens(request.prompt), Math.max(0, request.maxOutputTokens));
    },
    isFree(model) {
      const { price } = lookup(model);
      return price.input === 0 && price.output === 0;
    },
  };
}

/**
 * A generous input-token guess: a token is about 4 bytes of English, and CJK runs about one token per
 * 3-byte character, so bytes/3 over-counts both; the constant covers chat framing tokens.
 */
export function estimateInputTokens(prompt: string): number {
  return Math.ceil(Buffer.byteLength(prompt, 'utf8') / 3) + 16;
}

/** Tokens at a USD-per-million price is exactly micro-dollars; prices become integers first so sums do not drift. */
function microUsdFor(price: ModelPrice, inputTokens: number, outputTokens: number): number {
  const inputRate = Math.round(price.input * 1_000_000);
  const outputRate = Math.round(price.output * 1_000_000);
  const tokensIn = Math.max(0, Math.round(inputTokens));
  const tokensOut = Math.max(0, Math.round(outputTokens));
  return Math.ceil((tokensIn * inputRate + tokensOut * outputRate) / 1_000_000);
}
