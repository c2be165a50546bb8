import type { PromptClassification } from '../classify.js';
import type { PromptLanguage, WireProvider } from '../types.js';
import { chooseBrands } from '../rank.js';
import type { Random } from '../random.js';
import type { Market, WorldBrand, WorldCategory } from '../world.js';

/** What every answer writer gets: the classified prompt, its category and the seeded randomness. */
export interface AnswerContext {
  readonly prompt: string;
  readonly classification: PromptClassification;
  readonly language: PromptLanguage;
  readonly seed: number;
  readonly provider: WireProvider;
  readonly model: string;
  readonly counter: number;
  /** Drawn from (seed, provider, model, prompt, counter): the per-call variation. */
  readonly random: Random;
  /** The matched world category, or one invented for the prompt's category (invented.ts). */
  readonly category: WorldCategory;
  /** Whether the category was invented (the world does not know it). */
  readonly isFallback: boolean;
  /** How the answer names the category, in the answer's language. */
  readonly categoryName: string;
  readonly region: Market | undefined;
  /** Brand mention rates set on the simulator (lower-cased name -> probability), see rank.ts. */
  readonly brandRates?: ReadonlyMap<string, number> | undefined;
}

/** The brand's one-liner in the answer's language, with a fallback's `{category}` filled in. */
export function describeBrand(brand: WorldBrand, context: AnswerContext): string {
  const description = context.language === 'es' ? brand.descriptionEs : brand.description;
  return description.replaceAll('{category}', context.categoryName);
}

/** The brands this call names for the context's category (see rank.ts for how they vary). */
export function brandsFor(context: AnswerContext, count: number): WorldBrand[] {
  return chooseBrands({
    category: context.category,
    seed: context.seed,
    provider: context.provider,
    model: context.model,
    prompt: context.prompt,
    counter: context.counter,
    count,
    region: context.region,
    language: context.language,
    brandRates: context.brandRates,
  });
}
