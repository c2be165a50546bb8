import { describe, expect, it } from 'vitest';
import { generateBuyerQuestions } from './buyer-questions.js';
import { englishCategoryForms, pluralOf, singularOf } from './category-grammar.js';

describe('englishCategoryForms', () => {
  it.each([
    ['dentist in Madrid', 'dentists in Madrid', 'a dentist in Madrid', false],
    ['issue tracker', 'issue trackers', 'an issue tracker', false],
    ['running shoes', 'running shoes', 'running shoes', false],
    ['CRM software', 'CRM software', 'CRM software', true],
    ['dog food', 'dog food', 'dog food', true],
    ['house cleaning', 'house cleaning', 'house cleaning', true],
    ['marketing agency for startups', 'marketing agencies for startups', 'a marketing agency for startups', false],
    ['personal trainer', 'personal trainers', 'a personal trainer', false],
    ['coffee shops', 'coffee shops', 'coffee shops', false],
    ['VPN', 'VPN', 'VPN', true],
    ['CRM software <script>alert(7)</script>', 'CRM software <script>alert(7)</script>', 'CRM software <script>alert(7)</script>', true],
  ])('%s → which %s, choosing %s', (phrase, many, choosing, mass) => {
    const forms = englishCategoryForms(phrase);
    expect(forms.many).toBe(many);
    expect(forms.choosing).toBe(choosing);
    expect(forms.mass).toBe(mass);
  });

  it('pluralises and singularises regular and irregular nouns', () => {
    expect(['agency', 'coach', 'box', 'shoe', 'person'].map(pluralOf)).toEqual(['agencies', 'coaches', 'boxes', 'shoes', 'people']);
    expect(['agencies', 'coaches', 'boxes', 'shoes', 'people'].map(singularOf)).toEqual(['agency', 'coach', 'box', 'shoe', 'person']);
  });
});

// Patterns a native reader rejects: a singular count noun after "which"/"top"/"the most popular", or "choosing" without an article.
const UNGRAMMATICAL = [
  /\b(?:top|which|popular|best) (?:\w+ )?(?:dentist|tracker|agency|trainer|plumber|desk) (?!\w+s\b)/u,
  /\bchoosing (?:dentist|issue tracker|marketing agency|personal trainer|plumber)\b/u,
  /\bare the (?:top|best) (?:CRM software|dog food)\b/u,
  /\bCRM software are\b/u,
  /\bfor [a-z]+ in [A-Z]\w+ for\b/u,
];

describe('buyer questions read as grammatical English and Spanish for many categories', () => {
  const english: readonly [string, string | undefined, 'saas' | 'ecommerce' | 'local_business' | 'other'][] = [
    ['dentist', 'Madrid', 'local_business'],
    ['issue tracker', undefined, 'saas'],
    ['running shoes', undefined, 'ecommerce'],
    ['CRM software', undefined, 'saas'],
    ['dog food', undefined, 'ecommerce'],
    ['marketing agency', 'Austin', 'local_business'],
    ['personal trainer', undefined, 'local_business'],
    ['plumber', 'Leeds', 'local_business'],
    ['standing desk', undefined, 'ecommerce'],
    ['project management tools', undefined, 'saas'],
  ];
  it.each(english)('%s (%s)', (category, location, vertical) => {
    const { questions } = generateBuyerQuestions({ brand: 'Acme', category, location, language: 'en', vertical });
    expect(questions.length).toBeGreaterThanOrEqual(6);
    for (const question of questions) {
      for (const wrong of UNGRAMMATICAL) expect(question, question).not.toMatch(wrong);
      expect(question).toMatch(/^[A-Z¿I].*\?$/u);
      expect(question).not.toMatch(/\ba [aeiou]/iu);
    }
  });

  it.each([
    ['clínica dental', 'Madrid', 'local_business'],
    ['software de contabilidad', undefined, 'saas'],
    ['zapatillas para correr', undefined, 'ecommerce'],
  ] as const)('%s (Spanish)', (category, location, vertical) => {
    const { questions } = generateBuyerQuestions({ brand: 'Acme', category, location, language: 'es', vertical });
    expect(questions.length).toBeGreaterThanOrEqual(6);
    for (const question of questions) {
      expect(question).toMatch(/^(?:¿.*\?|Estoy en .*\?)$/u);
      expect(question).not.toMatch(/Adónde debería ir para/u);
    }
  });
});
