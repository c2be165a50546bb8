import { describe, expect, it } from 'vitest';
import { composeAnswer } from './compose.js';
import { inventCategory } from './invented.js';
import { WORLD_CATEGORIES } from './world.js';

// Real retailers, publishers, maps and review sites: never competitors of an unrelated category.
const REAL_PLATFORMS = [
  'Amazon', 'Walmart', 'Costco', 'Best Buy', 'Mercado Libre', 'El Corte Inglés', 'Wirecutter', 'New York Times', 'Consumer Reports',
  'Google Maps', 'Yelp', 'Tripadvisor', 'Foursquare', 'Nextdoor', 'TheFork', 'G2', 'Capterra', 'Product Hunt', 'Microsoft', 'Google',
];
const REAL_BRANDS = new Set(WORLD_CATEGORIES.flatMap((category) => category.brands.map((brand) => brand.name)));

function buyerAnswerBrands(prompt: string, counter = 0): readonly string[] {
  return composeAnswer({ prompt, model: 'demo-gpt-4.1-mini', provider: 'openai', seed: 42, counter }).brands;
}

const UNKNOWN_CATEGORIES: readonly { prompt: string; kind: 'local' | 'software' | 'product'; shape: RegExp }[] = [
  { prompt: 'Which dentists in Madrid would you recommend?', kind: 'local', shape: /Clínica Dental|Dental|Odontología/u },
  { prompt: 'Which plumbers in Leeds would you recommend?', kind: 'local', shape: /Plumbing/u },
  { prompt: 'What are the best gyms in Austin for beginners?', kind: 'local', shape: /Fitness|Gym|Strength/u },
  { prompt: '¿Qué abogado en Sevilla me recomendarías?', kind: 'local', shape: /Abogados|Bufete/u },
  { prompt: 'Which wedding photographers near me would you recommend?', kind: 'local', shape: /Wedding Photographer/u },
  { prompt: 'Which appointment scheduling software would you recommend?', kind: 'software', shape: /^[A-Z][a-z]+(?:base|flow|desk|ly|stack|loop|works|hub|wise|grid)$/u },
  { prompt: 'What are the best password managers for families?', kind: 'software', shape: /^[A-Z][a-z]+(?:base|flow|desk|ly|stack|loop|works|hub|wise|grid)$/u },
  { prompt: '¿Qué herramienta de facturación me recomendarías?', kind: 'software', shape: /^[A-Z][a-z]+(?:base|flow|desk|ly|stack|loop|works|hub|wise|grid)$/u },
  { prompt: 'Which dog food would you recommend?', kind: 'product', shape: /^[A-Z][a-z]+$/u },
  { prompt: 'What are the best underwater drones for beginners?', kind: 'product', shape: /^[A-Z][a-z]+$/u },
  { prompt: '¿Qué mochilas de senderismo me recomendarías?', kind: 'product', shape: /^[A-Z][a-z]+$/u },
];

describe('the invented demo world (categories the world does not know)', () => {
  it.each(UNKNOWN_CATEGORIES)('$prompt: invented names shaped like its kind, no real platform', ({ prompt, kind, shape }) => {
    const invented = inventCategory(prompt, undefined, /¿/u.test(prompt) ? 'es' : 'en');
    expect(invented.kind).toBe(kind);
    const brands = buyerAnswerBrands(prompt);
    expect(brands.length).toBeGreaterThanOrEqual(4);
    for (const name of brands) {
      expect(name, prompt).toMatch(shape);
      expect(REAL_PLATFORMS.some((platform) => name.includes(platform)), name).toBe(false);
      expect(REAL_BRANDS.has(name), name).toBe(false);
    }
  });

  it('names the same field for every wording of a category (an audit sees consistent competitors)', () => {
    const questions = [
      'Which dentists in Madrid would you recommend?',
      'What are the best dentists in Madrid for families?',
      'What should I look for when choosing a dentist in Madrid, and which options stand out?',
      'On a tight budget, which dentists in Madrid would you choose?',
      'Where should I go for a dentist in Madrid?',
    ];
    const fields = questions.map((question) => new Set([0, 1, 2].flatMap((counter) => buyerAnswerBrands(question, counter))));
    const all = new Set(fields.flatMap((field) => [...field]));
    // Eight invented clinics at most, shared by every wording.
    expect(all.size).toBeLessThanOrEqual(8);
    for (const field of fields) expect(field.size).toBeGreaterThanOrEqual(4);
  });

  it('is deterministic: the same prompt invents the same names', () => {
    const first = inventCategory('Which standing paddle boards would you recommend?', 'standing paddle boards', 'en').brands.map((brand) => brand.name);
    const again = inventCategory('Which standing paddle boards would you recommend?', 'standing paddle boards', 'en').brands.map((brand) => brand.name);
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(first.length);
  });

  it('uses local names for a Spanish-speaking place even in English, and English ones elsewhere', () => {
    expect(buyerAnswerBrands('Which dentists in Madrid would you recommend?').every((name) => /Clínica Dental|Dental |Odontología/u.test(name))).toBe(true);
    expect(buyerAnswerBrands('Which dentists in Leeds would you recommend?').every((name) => / Dental| Smile Studio/u.test(name))).toBe(true);
  });

  it('writes grammatical answers that name the category with its place once', () => {
    const answer = composeAnswer({ prompt: 'What are the best dentists in Madrid for families?', model: 'demo-gpt-4.1-mini', provider: 'openai', seed: 42, counter: 0 });
    expect(answer.text).toMatch(/dentists in Madrid/u);
    expect(answer.text).not.toMatch(/in Madrid in Madrid|\{category\}/u);
    expect(answer.text).not.toMatch(/\ba ([aeiou])/iu);
  });

  it('answers an issue tracker with issue trackers, not shops', () => {
    const brands = buyerAnswerBrands('Which issue trackers would you recommend?');
    expect(brands).toEqual(expect.arrayContaining(['Linear']));
    expect(brands.some((name) => REAL_PLATFORMS.includes(name))).toBe(false);
  });
});
