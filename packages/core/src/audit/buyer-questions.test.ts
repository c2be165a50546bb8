import { classifyPrompt } from '@visibility/simulator';
import { describe, expect, it } from 'vitest';
import { createBrandMatcher } from '../extraction/index.js';
import { generateBuyerQuestions, type BuyerQuestionsInput } from './buyer-questions.js';
import { crawlReport, pageSummary } from './test-support/crawl-report.js';

const base: BuyerQuestionsInput = { brand: 'HubSpot', category: 'CRM software', language: 'en', vertical: 'saas' };

/** Whether any written form of the brand appears, checked independently of the generator's own guard. */
function namesBrand(question: string, brand: string): boolean {
  const folded = question.toLowerCase().replace(/[\s\-.]/gu, '');
  return createBrandMatcher(brand, { commonWord: false }).mentions(question) || folded.includes(brand.toLowerCase().replace(/[\s\-.]/gu, ''));
}

describe('generateBuyerQuestions', () => {
  it('writes 6 to 10 distinct English discovery questions about the category, none naming the brand', () => {
    const result = generateBuyerQuestions(base);
    expect(result.reasonMissing).toBeUndefined();
    expect(result.categoryLocalized).toBe('CRM software');
    expect(result.questions.length).toBeGreaterThanOrEqual(6);
    expect(result.questions.length).toBeLessThanOrEqual(10);
    expect(new Set(result.questions.map((question) => question.toLowerCase())).size).toBe(result.questions.length);
    for (const question of result.questions) {
      expect(question).toMatch(/\?$/u);
      expect(question).toContain('CRM software');
      expect(namesBrand(question, 'HubSpot'), question).toBe(false);
      // An independent reader (the simulator's classifier) sees an open buyer question in English, not a list request.
      expect(classifyPrompt(question), question).toMatchObject({ kind: 'buyer_question', language: 'en' });
    }
  });

  it('covers varied intents, with the SaaS ones (integrations, pricing) for a SaaS site', () => {
    const questions = generateBuyerQuestions(base).questions.join('\n');
    expect(questions).toMatch(/alternatives/u);
    expect(questions).toMatch(/budget/u);
    expect(questions).toMatch(/look for when choosing/u);
    expect(questions).toMatch(/small businesses/u);
    expect(questions).toMatch(/integrations/u);
    expect(questions).toMatch(/cost/u);
  });

  it('asks vertical-specific questions: where to buy for a shop, near me / open now for a local business', () => {
    const shop = generateBuyerQuestions({ ...base, brand: 'Nike', category: 'running shoes', vertical: 'ecommerce' }).questions.join('\n');
    expect(shop).toMatch(/Where can I buy running shoes online/u);
    expect(shop).not.toMatch(/integrations/u);
    const local = generateBuyerQuestions({ ...base, brand: 'Sonrisas', category: 'dentists', vertical: 'local_business' }).questions.join('\n');
    expect(local).toMatch(/near me/u);
    expect(local).toMatch(/open now/u);
  });

  it('writes Spanish questions when the measurement language is Spanish', () => {
    const result = generateBuyerQuestions({ ...base, category: 'software de contabilidad', brand: 'Holded', language: 'es' });
    expect(result.questions.length).toBeGreaterThanOrEqual(6);
    expect(result.questions.length).toBeLessThanOrEqual(10);
    for (const question of result.questions) {
      expect(question).toMatch(/^¿|^Estoy en/u);
      expect(question).toContain('software de contabilidad');
      expect(namesBrand(question, 'Holded'), question).toBe(false);
      expect(classifyPrompt(question), question).toMatchObject({ kind: 'buyer_question', language: 'es', categoryId: 'accounting' });
    }
  });

  it('merges the location into the category as said to the models, in each language', () => {
    const english = generateBuyerQuestions({ ...base, location: 'Madrid' });
    expect(english.categoryLocalized).toBe('CRM software in Madrid');
    expect(english.questions.filter((question) => question.includes('Madrid')).length).toBe(english.questions.length);
    expect(english.questions).toContain("I'm in Madrid. Which CRM software do locals recommend most?");

    const spanish = generateBuyerQuestions({ ...base, category: 'software CRM', location: 'Madrid', language: 'es' });
    expect(spanish.categoryLocalized).toBe('software CRM en Madrid');
    expect(spanish.questions.some((question) => question.includes('software CRM en Madrid'))).toBe(true);

    // A category that already names the place is not told the place twice.
    expect(generateBuyerQuestions({ ...base, category: 'dentists in Madrid', location: 'madrid' }).categoryLocalized).toBe('dentists in Madrid');
    // Without a location no question is local.
    expect(generateBuyerQuestions(base).questions.join(' ')).not.toMatch(/I'm in|locals/u);
  });

  it('asks "near <location>" for a local business when a location is set', () => {
    const questions = generateBuyerQuestions({ ...base, brand: 'Sonrisas', category: 'dentists', vertical: 'local_business', location: 'Sevilla' }).questions;
    expect(questions.length).toBeLessThanOrEqual(10);
    expect(questions.join('\n')).toMatch(/near Sevilla/u);
    expect(questions.join('\n')).not.toMatch(/near me/u);
  });

  it('cuts the brand out of a category that contains it', () => {
    for (const category of ['HubSpot CRM software', 'CRM software like HubSpot', 'hubspot-style CRM software', 'Hub Spot alternatives in CRM software']) {
      const result = generateBuyerQuestions({ ...base, category });
      expect(result.questions.length, category).toBeGreaterThanOrEqual(6);
      for (const question of result.questions) expect(namesBrand(question, 'HubSpot'), `${category}: ${question}`).toBe(false);
    }
  });

  it('keeps a brand written as a domain, and the website domain, out of every question', () => {
    const result = generateBuyerQuestions({ ...base, brand: 'monday.com', category: 'monday.com-like project management tools' });
    expect(result.questions.length).toBeGreaterThanOrEqual(6);
    for (const question of result.questions) {
      expect(question.toLowerCase()).not.toContain('monday');
      expect(question).toContain('project management tools');
    }

    const crawl = crawlReport({ homepage: pageSummary({ h1: ['CRM for getacme.io power users', 'CRM for Acme fans', 'CRM for growing teams'] }) });
    const withDomain = generateBuyerQuestions({ ...base, brand: 'Acme', website: 'https://www.getacme.io/', crawl });
    for (const question of withDomain.questions) {
      expect(question.toLowerCase()).not.toContain('getacme');
      expect(question.toLowerCase()).not.toContain('acme');
    }
    // The brand-free segment of the same headings is still used.
    expect(withDomain.questions.some((question) => question.includes('growing teams'))).toBe(true);
  });

  it('uses the buyer segments the site names in its headings and description', () => {
    const crawl = crawlReport({
      homepage: pageSummary({ title: 'Acme | CRM For Small Agencies', description: 'Simple pipelines for freelance consultants and their clients.', h1: ['Built for you'] }),
    });
    const questions = generateBuyerQuestions({ ...base, brand: 'Acme', crawl }).questions;
    expect(questions).toContain('What is the best CRM software for small agencies?');
    expect(questions).toContain('What is the best CRM software for freelance consultants?');
    // "for you" names no buyer.
    expect(questions.join(' ')).not.toMatch(/for you\?/u);
    expect(questions.length).toBeLessThanOrEqual(10);
  });

  it('drops request words the templates already say, and only then the connectors they leave', () => {
    expect(generateBuyerQuestions({ ...base, category: 'best CRM software' }).categoryLocalized).toBe('CRM software');
    expect(generateBuyerQuestions({ ...base, brand: 'Acme', category: 'vitamin A supplements' }).categoryLocalized).toBe('vitamin A supplements');
    expect(generateBuyerQuestions({ ...base, brand: 'Acme', category: 'plan B' }).categoryLocalized).toBe('plan B');
  });

  it('is deterministic', () => {
    const crawl = crawlReport();
    expect(generateBuyerQuestions({ ...base, crawl, location: 'Austin' })).toEqual(generateBuyerQuestions({ ...base, crawl, location: 'Austin' }));
  });

  it('gives no questions and a reason when the category is empty or only names the brand', () => {
    for (const category of ['', '   ', 'HubSpot', 'hubspot.com', 'alternatives to HubSpot', 'HubSpot competitors']) {
      const result = generateBuyerQuestions({ ...base, category });
      expect(result.questions, category).toEqual([]);
      expect(result.reasonMissing, category).toMatch(/category/u);
    }
  });

  it('gives no questions and a reason when fewer than 6 can be written without the brand', () => {
    // A brand spelt like a word the templates use: every question with "which" is dropped.
    const result = generateBuyerQuestions({ ...base, brand: 'Which', vertical: 'other' });
    expect(result.questions).toEqual([]);
    expect(result.reasonMissing).toMatch(/^Only 2 buyer questions could be written for "CRM software" without naming the brand/u);
  });
});
