import { classifyPrompt } from '@visibility/simulator';
import { describe, expect, it } from 'vitest';
import { checkQuestions } from '../operations/check-brand-recognition.js';
import { blindListCategoryPhrase, CHECK_PROMPTS, promptMentionsBrand } from './prompts.js';

describe('the check prompts', () => {
  it('are worded the way the simulator (and a buyer) asks, in English and Spanish', () => {
    const expectations = [
      [CHECK_PROMPTS.en.recognition('Acme'), 'recognition'],
      [CHECK_PROMPTS.en.blindList('CRM software'), 'blind_list'],
      [CHECK_PROMPTS.en.recommendation('Acme', 'CRM software'), 'recommendation'],
      [CHECK_PROMPTS.en.recommendation('Acme'), 'recommendation'],
      [CHECK_PROMPTS.es.recognition('Acme'), 'recognition'],
      [CHECK_PROMPTS.es.blindList('software de contabilidad'), 'blind_list'],
      [CHECK_PROMPTS.es.recommendation('Acme', 'software de contabilidad'), 'recommendation'],
    ] as const;
    for (const [prompt, kind] of expectations) expect(classifyPrompt(prompt).kind, prompt).toBe(kind);
    expect(CHECK_PROMPTS.en.recognition('Acme')).toBe('Do you know the brand "Acme"? If you do, describe it in one sentence.');
    expect(CHECK_PROMPTS.en.blindList('CRM software')).toBe('List the 8 best CRM software brands, one per line.');
    expect(CHECK_PROMPTS.en.recommendation('Acme', 'CRM software')).toBe(
      'Would you recommend "Acme" for CRM software? Answer yes, no or unsure, then give your reason.',
    );
    expect(classifyPrompt(CHECK_PROMPTS.es.recognition('Acme')).language).toBe('es');
  });

  it('quote the brand safely when it contains double quotes', () => {
    expect(CHECK_PROMPTS.en.recognition('The "Best" Co')).toBe('Do you know the brand "The \'Best\' Co"? If you do, describe it in one sentence.');
  });
});

describe('blindListCategoryPhrase', () => {
  it('leaves a category without the brand as the user wrote it', () => {
    expect(blindListCategoryPhrase('  CRM   software ', 'Pipedrive')).toBe('CRM software');
  });

  it.each([
    ['Pipedrive CRM software', 'Pipedrive', 'CRM software'],
    ['CRM software like pipedrive', 'Pipedrive', 'CRM software'],
    ["HubSpot's CRM tools", 'HubSpot', 'CRM tools'],
    ['hub spot style CRM', 'HubSpot', 'style CRM'],
    ['acme.com anvils', 'Acme', 'anvils'],
    ['Café Comercial alternatives in Madrid', 'Cafe Comercial', 'alternatives in Madrid'],
    ['monday project boards', 'Monday', 'project boards'],
    ['Monday.com-style project management tools', 'monday.com', 'project management tools'],
  ])('cuts the brand out of %s', (category, brand, expected) => {
    const phrase = blindListCategoryPhrase(category, brand);
    expect(phrase).toBe(expected);
    expect(promptMentionsBrand(CHECK_PROMPTS.en.blindList(phrase ?? ''), brand)).toBe(false);
  });

  it('gives null when nothing but the brand is left', () => {
    expect(blindListCategoryPhrase('Notion', 'Notion')).toBeNull();
    expect(blindListCategoryPhrase('alternatives to Notion', 'notion')).toBe('alternatives');
    expect(blindListCategoryPhrase('(Notion)', 'Notion')).toBeNull();
  });
});

describe('checkQuestions', () => {
  it('asks all three questions with a category, and never names the brand in the blind list', () => {
    const questions = checkQuestions('Pipedrive', 'Pipedrive-like CRM software');
    expect(questions.blindList).toBe('List the 8 best CRM software brands, one per line.');
    expect(promptMentionsBrand(questions.blindList ?? '', 'Pipedrive')).toBe(false);
    expect(questions.recognition).toContain('"Pipedrive"');
    expect(questions.recommendation).toBe('Would you recommend "Pipedrive" for CRM software? Answer yes, no or unsure, then give your reason.');
  });

  it('skips the blind list without a category, or when the template itself would name the brand', () => {
    expect(checkQuestions('Acme').blindList).toBeNull();
    expect(checkQuestions('Acme').recommendation).toBe('Would you recommend "Acme"? Answer yes, no or unsure, then give your reason.');
    expect(checkQuestions('Notion', 'Notion').blindList).toBeNull();
    // "List the 8 best … brands" contains the word "best".
    expect(checkQuestions('Best', 'electronics stores').blindList).toBeNull();
    expect(checkQuestions('Best', 'electronics stores').recommendation).toContain('for electronics stores');
  });
});
