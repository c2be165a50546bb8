import { describe, expect, it } from 'vitest';
import { composeAnswer } from './compose.js';
import type { ComposeInput } from './compose.js';
import { listedBrands } from './test-support/vendors.js';
import { WORLD_CATEGORIES } from './world.js';

function answer(prompt: string, overrides: Partial<ComposeInput> = {}): ReturnType<typeof composeAnswer> {
  return composeAnswer({ prompt, model: 'demo-gpt-4.1-mini', provider: 'openai', seed: 42, counter: 0, ...overrides });
}

const CRM_BRANDS = new Set(WORLD_CATEGORIES.find((category) => category.id === 'crm')?.brands.map((brand) => brand.name));

describe('composeAnswer', () => {
  it('answers recognition of a world brand with "Yes —" and a description that names it', () => {
    const { text } = answer('Do you know the brand "Pipedrive"? Answer yes or no, then describe it.');
    expect(text).toMatch(/^Yes — /);
    expect(text).toContain('Pipedrive');
    expect(text).toContain('pipeline');
  });

  it('answers recognition of an unknown brand with "No —", in the prompt language', () => {
    expect(answer('Do you know the brand "Zorblax Widgets"?').text).toMatch(/^No — .*Zorblax Widgets/);
    expect(answer('¿Conoces la marca "Zorblax"?').text).toMatch(/^No — no (conozco|tengo).*Zorblax/);
    expect(answer('¿Conoces la marca "Holded"?').text).toMatch(/^Sí — .*Holded.*es una plataforma española/);
  });

  it('opens recommendations with Yes, No or Unsure: mostly yes for known brands, mostly unsure for unknown ones', () => {
    const verdicts = (prompt: string): string[] =>
      Array.from({ length: 40 }, (_, counter) => /^(Yes|No|Unsure) — /.exec(answer(prompt, { counter }).text)?.[1] ?? 'unparsed');
    const known = verdicts('Would you recommend HubSpot for CRM software? Answer yes, no or unsure, then give your reason.');
    const unknown = verdicts('Would you recommend Acme for CRM software? Answer yes, no or unsure, then give your reason.');
    expect(known).not.toContain('unparsed');
    expect(unknown).not.toContain('unparsed');
    expect(known.filter((verdict) => verdict === 'Yes').length).toBeGreaterThan(28);
    expect(unknown.filter((verdict) => verdict === 'Unsure').length).toBeGreaterThan(20);
    expect(unknown.filter((verdict) => verdict === 'Yes').length).toBeLessThan(8);
  });

  it('says no when a known brand is asked about for the wrong category', () => {
    expect(answer('Would you recommend Nike for CRM software? Answer yes, no or unsure.').text).toMatch(/^No — Nike is known for running shoes/);
  });

  it('reuses the prompt\'s own word for "unsure" and answers Spanish in Spanish', () => {
    const texts = Array.from({ length: 30 }, (_, counter) =>
      answer('¿Recomendarías la marca "Acme" para software de contabilidad? Responde sí, no o no estoy seguro.', { counter }).text,
    );
    expect(texts.every((text) => /^(Sí|No|No estoy seguro) — /.test(text))).toBe(true);
    expect(texts.some((text) => text.startsWith('No estoy seguro — no tengo información fiable sobre Acme'))).toBe(true);
  });

  it('lists exactly N numbered names for a blind list', () => {
    const { text, brands } = answer('List the 6 best CRM software brands, one per line.');
    const names = listedBrands(text);
    expect(names).toHaveLength(6);
    expect(names).toEqual(brands);
    expect(names.every((name) => CRM_BRANDS.has(name))).toBe(true);
  });

  it('writes buyer answers as an intro, 4–7 bold numbered brands with a dash and a reason, and a closing pick', () => {
    for (let counter = 0; counter < 10; counter++) {
      const { text, brands } = answer('What is the best CRM for a small agency?', { counter });
      const items = text.split('\n').filter((line) => /^\d+\. /.test(line));
      expect(items.length).toBeGreaterThanOrEqual(4);
      expect(items.length).toBeLessThanOrEqual(7);
      for (const item of items) expect(item).toMatch(/^\d+\. \*\*[^*]+\*\* [—-] \S.+\.$/);
      expect(brands.every((name) => CRM_BRANDS.has(name))).toBe(true);
      expect(text.split('\n')[0]).not.toMatch(/^\d/);
      expect(text.trim().split('\n').pop()).toContain(`**${brands[0]}**`);
    }
  });

  it('varies the layout across calls (tables and prose paragraphs appear sometimes)', () => {
    const texts = Array.from({ length: 30 }, (_, counter) => answer('What is the best CRM for a small agency?', { counter }).text);
    expect(texts.some((text) => text.includes('| Option |'))).toBe(true);
    expect(texts.some((text) => text.includes('### '))).toBe(true);
    expect(new Set(texts.map((text) => text.split('\n')[0])).size).toBeGreaterThan(2);
  });

  it('answers Spanish buyer questions in Spanish and favours local brands for the named country', () => {
    const texts = Array.from({ length: 10 }, (_, counter) => answer('¿Cuál es el mejor software de contabilidad para pymes en México?', { counter }));
    for (const { text } of texts) expect(text).toMatch(/\*\*(En resumen|Comparativa)|Mi recomendación|Si tuviera|En general/);
    const mentions = texts.filter(({ brands }) => brands.includes('CONTPAQi') || brands.includes('Alegra')).length;
    expect(mentions).toBeGreaterThanOrEqual(8);
    expect(texts.some(({ brands }) => brands.includes('Holded'))).toBe(false);
  });

  it('builds a plausible answer for an unknown category from its own words', () => {
    const { text, brands } = answer('What are the best underwater drones for beginners?');
    expect(text).toContain('underwater drones');
    expect(brands.length).toBeGreaterThanOrEqual(4);
  });

  it('asks a clarifying question when there is nothing to answer', () => {
    for (const prompt of ['', '???', 'asdf']) {
      const { text, brands } = answer(prompt);
      expect(text, prompt).toMatch(/^(Could you|I'm not sure I understand)/);
      expect(brands).toEqual([]);
    }
  });

  it('gives different providers somewhat different preferences for the same prompt', () => {
    const prompt = 'What is the best CRM for a small agency?';
    const firstPicks = (provider: ComposeInput['provider'], model: string): string[] =>
      Array.from({ length: 8 }, (_, counter) => answer(prompt, { provider, model, counter }).brands[0] ?? '');
    const openai = firstPicks('openai', 'demo-gpt-4.1-mini');
    const anthropic = firstPicks('anthropic', 'demo-claude-sonnet');
    const gemini = firstPicks('gemini', 'demo-gemini-flash');
    expect(new Set([openai.join(), anthropic.join(), gemini.join()]).size).toBe(3);
  });
});
