import { describe, expect, it } from 'vitest';
import { classifyPrompt } from './classify.js';
import type { PromptClassification } from './classify.js';

type Expected = Partial<PromptClassification> & Pick<PromptClassification, 'kind' | 'language'>;

const CASES: readonly [string, Expected][] = [
  // recognition, English
  ['Do you know the brand "Acme"? If you do, describe it in one sentence; if not, say so.', { kind: 'recognition', language: 'en', brand: 'Acme' }],
  ['Do you know the brand "HubSpot"? Answer yes or no, then describe it.', { kind: 'recognition', language: 'en', brand: 'HubSpot', categoryId: 'crm' }],
  ['What is Pipedrive?', { kind: 'recognition', language: 'en', brand: 'Pipedrive', categoryId: 'crm' }],
  ['Have you heard of Holded?', { kind: 'recognition', language: 'en', brand: 'Holded', categoryId: 'accounting' }],
  ['Are you familiar with the company Acme Analytics?', { kind: 'recognition', language: 'en', brand: 'Acme Analytics' }],
  ['Tell me about monday.com', { kind: 'recognition', language: 'en', brand: 'monday.com', categoryId: 'project_management' }],
  // recognition, Spanish
  ['¿Conoces la marca "Holded"? Si la conoces, descríbela en una frase.', { kind: 'recognition', language: 'es', brand: 'Holded', categoryId: 'accounting' }],
  ['¿Conoces la marca Alegra? Responde sí o no.', { kind: 'recognition', language: 'es', brand: 'Alegra' }],
  ['¿Qué es Siigo?', { kind: 'recognition', language: 'es', brand: 'Siigo' }],
  ['¿Has oído hablar de la empresa «Zapatos Luna»?', { kind: 'recognition', language: 'es', brand: 'Zapatos Luna' }],
  // blind list
  ['List the 8 best CRM software brands for small businesses, one per line.', { kind: 'blind_list', language: 'en', listSize: 8, categoryId: 'crm', category: 'CRM software' }],
  ['Name up to 5 running shoe brands. Names only.', { kind: 'blind_list', language: 'en', listSize: 5, categoryId: 'running_shoes' }],
  ['What are the top 10 VPN brands?', { kind: 'blind_list', language: 'en', listSize: 10, categoryId: 'vpn' }],
  ['List the best standing desk brands, one per line.', { kind: 'blind_list', language: 'en', listSize: 8, categoryId: 'standing_desks' }],
  ['Enumera las 6 mejores marcas de software de contabilidad, una por línea.', { kind: 'blind_list', language: 'es', listSize: 6, categoryId: 'accounting', category: 'software de contabilidad' }],
  ['Nombra hasta diez apps de delivery de comida en México.', { kind: 'blind_list', language: 'es', listSize: 10, categoryId: 'food_delivery' }],
  // recommendation
  ['Would you recommend Acme for CRM software? Answer yes, no or unsure, then give your reason.', { kind: 'recommendation', language: 'en', brand: 'Acme', category: 'CRM software', categoryId: 'crm' }],
  ['Would you recommend the brand "Notion" for note-taking apps? Answer yes, no or unsure.', { kind: 'recommendation', language: 'en', brand: 'Notion', categoryId: 'note_taking' }],
  ['Is Surfshark a good choice for a VPN?', { kind: 'recommendation', language: 'en', brand: 'Surfshark', categoryId: 'vpn' }],
  ['Should I use Salesforce CRM?', { kind: 'recommendation', language: 'en', brand: 'Salesforce CRM', categoryId: 'crm' }],
  ['¿Recomendarías la marca "Holded" para software de contabilidad? Responde sí, no o no estoy seguro, y explica por qué.', { kind: 'recommendation', language: 'es', brand: 'Holded', categoryId: 'accounting' }],
  ['¿Recomendarías Rappi para pedir comida en Bogotá?', { kind: 'recommendation', language: 'es', brand: 'Rappi', categoryId: 'food_delivery' }],
  // buyer questions
  ['What is the best CRM for a small agency?', { kind: 'buyer_question', language: 'en', category: 'CRM', categoryId: 'crm', audience: 'a small agency' }],
  ['Can you recommend a CRM for a small agency?', { kind: 'buyer_question', language: 'en', categoryId: 'crm' }],
  ['What is CRM software?', { kind: 'buyer_question', language: 'en', categoryId: 'crm' }],
  ['Which project management tool should I use?', { kind: 'buyer_question', language: 'en', categoryId: 'project_management' }],
  ['Best coffee shops in Seattle?', { kind: 'buyer_question', language: 'en', categoryId: 'coffee_seattle' }],
  ['What are the best underwater drones for beginners?', { kind: 'buyer_question', language: 'en', category: 'underwater drones', audience: 'beginners' }],
  ['¿Cuál es el mejor software de contabilidad para pymes en México?', { kind: 'buyer_question', language: 'es', category: 'software de contabilidad', categoryId: 'accounting', audience: 'pymes en México' }],
  ['¿Qué escritorio elevable me recomiendas para trabajar desde casa?', { kind: 'buyer_question', language: 'es', categoryId: 'standing_desks' }],
  ['¿Cuáles son las mejores cafeterías en Madrid?', { kind: 'buyer_question', language: 'es', categoryId: 'coffee_madrid' }],
];

describe('classifyPrompt', () => {
  it.each(CASES)('reads %j', (prompt, expected) => {
    expect(classifyPrompt(prompt)).toMatchObject(expected);
  });

  it('leaves the brand out of buyer questions and blind lists', () => {
    expect(classifyPrompt('What is the best CRM for a small agency?').brand).toBeUndefined();
    expect(classifyPrompt('List the 8 best VPN brands, one per line.').brand).toBeUndefined();
  });

  it('does not mistake a description for a brand name', () => {
    for (const prompt of ['Do you know a good CRM for agencies?', 'Would you recommend some running shoes for flat feet?', 'Is it a good idea to buy a standing desk?']) {
      const classification = classifyPrompt(prompt);
      expect(classification.kind, prompt).toBe('buyer_question');
      expect(classification.brand, prompt).toBeUndefined();
    }
  });

  it('never throws, even on empty or odd input', () => {
    for (const prompt of ['', '   ', '???', '"', '¿¡', 'x'.repeat(10_000), '1. 2. 3.']) {
      expect(() => classifyPrompt(prompt)).not.toThrow();
      expect(classifyPrompt(prompt).kind).toBe('buyer_question');
    }
  });
});
