import type { PromptLanguage, WireProvider } from './types.js';
import { regionAffinity } from './lookup.js';
import { seededRandom, unitHash } from './random.js';
import type { Random } from './random.js';
import type { Market, WorldBrand, WorldCategory } from './world.js';

/** Everything that decides which brands an answer names. */
export interface RankingInput {
  readonly category: WorldCategory;
  readonly seed: number;
  readonly provider: WireProvider;
  readonly model: string;
  readonly prompt: string;
  /** How many times this (prompt, model) was answered before: drives run-to-run variation. */
  readonly counter: number;
  readonly count: number;
  readonly region: Market | undefined;
  readonly language: PromptLanguage;
  /**
   * Brands whose mention rate the test (or demo) has set, by lower-cased name: each answer names such a
   * brand with exactly that probability, drawn per call, whatever its preference (state.ts `setBrandRate`).
   */
  readonly brandRates?: ReadonlyMap<string, number> | undefined;
}

interface ScoredBrand {
  readonly brand: WorldBrand;
  readonly score: number;
}

/** A model id without its date suffix, so a snapshot shares its family's tastes. */
export function modelFamily(model: string): string {
  return model.replace(/-\d{4}-\d{2}-\d{2}$|-\d{8}$/, '');
}

/**
 * The stable preference order for one (prompt, model): popularity, nudged by the provider's and
 * the model's tastes, the prompt's wording and the buyer's region. No call counter here, so
 * the head of this order is the "core" every run of the prompt keeps naming.
 */
export function preferenceOrder(input: Omit<RankingInput, 'counter' | 'count'>): ScoredBrand[] {
  const brands = input.category.brands;
  const family = modelFamily(input.model);
  return brands
    .map((brand, index) => {
      const popularity = 1 - (0.6 * index) / Math.max(1, brands.length - 1);
      const providerTaste = unitHash(input.seed, 'provider-taste', input.provider, brand.name) - 0.5;
      const modelTaste = unitHash(input.seed, 'model-taste', family, brand.name) - 0.5;
      const promptTaste = unitHash(input.seed, 'prompt-taste', input.prompt, brand.name) - 0.5;
      const score =
        popularity + 0.3 * providerTaste + 0.15 * modelTaste + 0.1 * promptTaste + regionAffinity(brand, input.region, input.language);
      return { brand, score };
    })
    .sort((left, right) => right.score - left.score);
}

/**
 * The brands one answer names: a core of 3–4 that every run keeps, plus a few drawn per call
 * (weighted by preference), in an order that shuffles a little from run to run.
 */
export function chooseBrands(input: RankingInput): WorldBrand[] {
  const order = preferenceOrder(input);
  const count = Math.max(1, Math.min(input.count, order.length));
  const family = modelFamily(input.model);
  const coreSize = Math.min(count, 3 + (unitHash(input.seed, 'core-size', input.provider, family, input.prompt) < 0.5 ? 0 : 1));
  const random = seededRandom(input.seed, 'pick', input.provider, family, input.prompt, input.counter);
  const chosen = [...order.slice(0, coreSize), ...weightedSample(random, order.slice(coreSize), count - coreSize)];
  // Jitter comparable to the gap between neighbours swaps nearby names without upending the list.
  const ranked = chosen
    .map((entry) => ({ brand: entry.brand, sortKey: entry.score + random() * 0.3 }))
    .sort((left, right) => right.sortKey - left.sortKey)
    .map((entry) => entry.brand);
  return applyBrandRates(ranked, order, input, family);
}

/**
 * A brand with a set rate is named in an answer with that probability, independently per call (its own draw,
 * so the other brands' picks do not move): kept or put in where the preference order places it, or left out.
 */
function applyBrandRates(ranked: WorldBrand[], order: readonly ScoredBrand[], input: RankingInput, family: string): WorldBrand[] {
  const rates = input.brandRates;
  if (rates === undefined || rates.size === 0) return ranked;
  let result = ranked;
  for (const { brand } of order) {
    const rate = rates.get(brand.name.toLowerCase());
    if (rate === undefined) continue;
    const named = unitHash(input.seed, 'brand-rate', input.provider, family, input.prompt, input.counter, brand.name) < rate;
    const present = result.includes(brand);
    if (named && !present) {
      const slot = Math.floor(unitHash(input.seed, 'brand-rate-slot', input.provider, family, input.prompt, input.counter, brand.name) * (result.length + 1));
      result = [...result.slice(0, slot), brand, ...result.slice(slot)];
    } else if (!named && present) {
      result = result.filter((entry) => entry !== brand);
    }
  }
  return result;
}

function weightedSample(random: Random, pool: readonly ScoredBrand[], count: number): ScoredBrand[] {
  const remaining = [...pool];
  const taken: ScoredBrand[] = [];
  while (taken.length < count && remaining.length > 0) {
    const weights = remaining.map((entry) => Math.max(0.05, entry.score) ** 2);
    let target = random() * weights.reduce((sum, weight) => sum + weight, 0);
    let index = 0;
    for (; index < remaining.length - 1; index++) {
      target -= weights[index] ?? 0;
      if (target < 0) break;
    }
    const [entry] = remaining.splice(index, 1);
    if (entry) taken.push(entry);
  }
  return taken;
}
