import type { PromptLanguage } from './types.js';
import { containsWords, foldText, indexOfWords, matchWords } from './text.js';
import { WORLD_CATEGORIES } from './world.js';
import type { Market, WorldBrand, WorldCategory } from './world.js';

/** A keyword split into the word sequences that must all appear. */
interface PreparedKeyword {
  readonly parts: readonly (readonly string[])[];
  readonly weight: number;
}

const PREPARED_KEYWORDS = new Map<string, readonly PreparedKeyword[]>(
  WORLD_CATEGORIES.map((category) => [
    category.id,
    category.keywords.map((keyword) => {
      const parts = keyword.split('+').map((part) => matchWords(part));
      // Longer (more specific) keywords win: "coffee+seattle" beats "coffee shop".
      return { parts, weight: parts.reduce((sum, words) => sum + words.join(' ').length, 0) };
    }),
  ]),
);

/** The world category the text is about, by its most specific keyword match (earliest on ties). */
export function matchCategory(text: string): WorldCategory | undefined {
  const words = matchWords(text);
  let best: { category: WorldCategory; weight: number; position: number } | undefined;
  for (const category of WORLD_CATEGORIES) {
    for (const keyword of PREPARED_KEYWORDS.get(category.id) ?? []) {
      if (!keyword.parts.every((part) => containsWords(words, part))) continue;
      const position = Math.min(...keyword.parts.map((part) => indexOfWords(words, part)));
      if (!best || keyword.weight > best.weight || (keyword.weight === best.weight && position < best.position)) {
        best = { category, weight: keyword.weight, position };
      }
    }
  }
  return best?.category;
}

/** The world category with this id. */
export function categoryById(id: string): WorldCategory | undefined {
  return WORLD_CATEGORIES.find((category) => category.id === id);
}

/** Folds a brand name to a spelling-insensitive key ("monday.com" → "mondaycom"). */
export function brandKey(name: string): string {
  return foldText(name).replace(/[^\p{L}\p{N}]+/gu, '');
}

export interface BrandEntry {
  readonly brand: WorldBrand;
  readonly category: WorldCategory;
}

const BRAND_INDEX = new Map<string, BrandEntry[]>();
for (const category of WORLD_CATEGORIES) {
  for (const worldBrand of category.brands) {
    for (const spelling of [worldBrand.name, ...(worldBrand.aliases ?? [])]) {
      const key = brandKey(spelling);
      const entries = BRAND_INDEX.get(key) ?? [];
      entries.push({ brand: worldBrand, category });
      BRAND_INDEX.set(key, entries);
    }
  }
}

/** The world brand with this name or alias, preferring its entry in the given category. */
export function findBrand(name: string, preferredCategoryId?: string): BrandEntry | undefined {
  const entries = BRAND_INDEX.get(brandKey(name));
  if (!entries || entries.length === 0) return undefined;
  return entries.find((entry) => entry.category.id === preferredCategoryId) ?? entries[0];
}

// Brand names that are also everyday words: only trusted when quoted or labelled, never found by scanning.
const AMBIGUOUS_NAMES = new Set(['On', 'Nu', 'Kit', 'Close', 'Wave', 'Bear', 'Branch', 'Linear', 'Factor', 'Copper', 'Sage', 'Federal', 'Fully', 'Jarvis', 'Monday', 'Costa', 'Hanso', 'Vari']);

const SCANNABLE_NAMES: readonly { spelling: string; pattern: RegExp }[] = [...BRAND_INDEX.values()]
  .flatMap((entries) => entries.flatMap((entry) => [entry.brand.name, ...(entry.brand.aliases ?? [])]))
  .filter((spelling, index, all) => all.indexOf(spelling) === index && spelling.length >= 3 && !AMBIGUOUS_NAMES.has(spelling))
  .sort((left, right) => right.length - left.length)
  .map((spelling) => ({
    spelling,
    pattern: new RegExp(`(?<![\\p{L}\\p{N}])${spelling.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u'),
  }));

/**
 * Every world brand named in the text, in order of first mention, as written there: longest names
 * first (so "HubSpot CRM" is one name, not also "HubSpot"), case-sensitive, each brand once.
 */
export function findBrandsMentioned(text: string): string[] {
  const taken: Array<{ start: number; end: number; spelling: string }> = [];
  for (const candidate of SCANNABLE_NAMES) {
    const global = new RegExp(candidate.pattern.source, 'gu');
    for (const match of text.matchAll(global)) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken.some((span) => start < span.end && span.start < end)) continue;
      taken.push({ start, end, spelling: candidate.spelling });
    }
  }
  // One entry per brand: "HubSpot" after "HubSpot CRM" is the same brand under its alias.
  const seen = new Set<string>();
  return taken
    .sort((left, right) => left.start - right.start)
    .map((span) => span.spelling)
    .filter((spelling) => {
      const identity = findBrand(spelling)?.brand.name ?? spelling;
      if (seen.has(identity)) return false;
      seen.add(identity);
      return true;
    });
}

/** The first world brand named in the text (longest names first, case-sensitive), if any. */
export function findBrandMentioned(text: string): string | undefined {
  return SCANNABLE_NAMES.find((candidate) => candidate.pattern.test(text))?.spelling;
}

const REGION_PHRASES: readonly [Market, readonly string[]][] = [
  ['mx', ['mexico', 'cdmx', 'guadalajara', 'monterrey', 'mexicano', 'mexicana']],
  ['es', ['espana', 'spain', 'madrid', 'barcelona', 'valencia', 'sevilla', 'bilbao']],
  ['co', ['colombia', 'bogota', 'medellin']],
  ['ar', ['argentina', 'buenos aires']],
  ['cl', ['chile', 'santiago de chile']],
  ['pe', ['peru', 'lima']],
  ['br', ['brazil', 'brasil', 'sao paulo', 'rio de janeiro']],
  ['latam', ['latam', 'latinoamerica', 'latin america', 'america latina', 'hispanoamerica', 'sudamerica', 'south america']],
  ['uk', ['uk', 'united kingdom', 'britain', 'england', 'london', 'londres', 'reino unido']],
  ['us', ['usa', 'united states', 'estados unidos', 'new york', 'nueva york', 'california', 'texas', 'chicago', 'seattle']],
  ['eu', ['europe', 'europa', 'germany', 'france', 'italy', 'alemania', 'francia', 'italia']],
];
const PREPARED_REGIONS = REGION_PHRASES.map(([market, phrases]) => [market, phrases.map((phrase) => matchWords(phrase))] as const);

const LATAM_MARKETS = new Set<Market>(['latam', 'mx', 'co', 'ar', 'cl', 'pe', 'br']);
const SPANISH_SPEAKING_MARKETS = new Set<Market>(['latam', 'mx', 'co', 'ar', 'cl', 'pe', 'es']);

/** The market a prompt names ("… en México" → mx), if any. */
export function detectRegion(text: string): Market | undefined {
  const words = matchWords(text);
  return PREPARED_REGIONS.find(([, phrases]) => phrases.some((phrase) => containsWords(words, phrase)))?.[0];
}

/** How much more (or less) likely a regional brand is to be named for this region and language. */
export function regionAffinity(worldBrand: WorldBrand, region: Market | undefined, language: PromptLanguage): number {
  const markets = worldBrand.markets;
  if (!markets) return 0;
  if (region) {
    const serves =
      markets.includes(region) ||
      (LATAM_MARKETS.has(region) && markets.includes('latam')) ||
      (region === 'latam' && markets.some((market) => LATAM_MARKETS.has(market))) ||
      (region === 'eu' && markets.some((market) => market === 'es' || market === 'uk'));
    return serves ? 0.4 : -0.5;
  }
  if (language === 'es') return markets.some((market) => SPANISH_SPEAKING_MARKETS.has(market)) ? 0.1 : -0.25;
  return markets.includes('us') ? 0 : -0.3;
}
