import { describe, expect, it } from 'vitest';
import { parseBlindList, parseRecognitionAnswer, parseRecommendationAnswer } from './parse-answers.js';

describe('parseRecognitionAnswer', () => {
  it.each([
    ['Yes — Pipedrive is a pipeline-focused CRM that small sales teams find easy to adopt.', 'Pipedrive is a pipeline-focused CRM that small sales teams find easy to adopt.'],
    ['Yes, Acme is a maker of anvils and rocket skates.', 'Acme is a maker of anvils and rocket skates.'],
    ['Yes. Acme sells anvils.', 'Acme sells anvils.'],
    ['**Yes** — Acme sells anvils.', 'Acme sells anvils.'],
    ['**Yes.** Acme sells **anvils** to coyotes.', 'Acme sells **anvils** to coyotes.'],
    ['YES - Acme sells anvils.', 'Acme sells anvils.'],
    ['Sí — Alegra es un software de contabilidad en la nube.', 'Alegra es un software de contabilidad en la nube.'],
    ['Si, Alegra es un software contable.', 'Alegra es un software contable.'],
    ['Yes — I know Pipedrive. It\'s a CRM, and it comes up often.', 'I know Pipedrive. It\'s a CRM, and it comes up often.'],
  ])('knows the brand and keeps the description verbatim: %s', (answer, description) => {
    expect(parseRecognitionAnswer(answer)).toEqual({ knows: true, description });
  });

  it('keeps an answer without a marker whole, when it describes the brand', () => {
    const answer = 'Acme is a family-run maker of anvils. I don\'t have information about its current prices.';
    expect(parseRecognitionAnswer(answer)).toEqual({ knows: true, description: answer });
  });

  it.each([
    'No — I\'m not familiar with a brand called "Zorblax". It may be a small company.',
    'No, I don\'t know that brand.',
    '**No.** I have no record of it.',
    'Nope.',
    'No — no conozco una marca llamada «Zorblax».',
    'I\'m not familiar with a brand called "Zorblax". Could you share its website?',
    'I don\'t have any reliable information about "Zorblax".',
    'I\'m sorry, but I don\'t have information about a brand named Zorblax.',
    'As of my knowledge cutoff, I couldn\'t find any brand called Zorblax.',
    'I haven\'t heard of Zorblax before.',
    'Not that I know of — Zorblax doesn\'t appear in what I learned.',
    'No tengo información sobre «Zorblax».',
    'Desconozco esa marca.',
    '',
  ])('does not know the brand and leaves the description empty: %s', (answer) => {
    expect(parseRecognitionAnswer(answer)).toEqual({ knows: false, description: '' });
  });

  it('does not read "Notion" or "No-code" as a No', () => {
    expect(parseRecognitionAnswer('Notion is an all-in-one workspace.').knows).toBe(true);
    expect(parseRecognitionAnswer('No-code builders like Acme let anyone ship apps.').knows).toBe(true);
  });

  it('does not read a Spanish conditional "Si" as a yes marker', () => {
    expect(parseRecognitionAnswer('Si buscas una marca llamada Zorblax, no tengo información sobre ella.')).toEqual({ knows: false, description: '' });
  });
});

describe('parseRecommendationAnswer', () => {
  it.each([
    ['Yes — Pipedrive is a solid choice for CRM software.', 'yes', 'Pipedrive is a solid choice for CRM software.'],
    ['Yes, it is easy to adopt.', 'yes', 'it is easy to adopt.'],
    ['Yes. It is easy to adopt.', 'yes', 'It is easy to adopt.'],
    ['**Yes** — it is easy to adopt.', 'yes', 'it is easy to adopt.'],
    ['**Yes.** It is easy to adopt.', 'yes', 'It is easy to adopt.'],
    ['**Answer:** Yes. It is easy to adopt.', 'yes', 'It is easy to adopt.'],
    ['Verdict: **No** — too expensive for small teams.', 'no', 'too expensive for small teams.'],
    ['No — Nike is a sportswear brand, not CRM software.', 'no', 'Nike is a sportswear brand, not CRM software.'],
    ['no, it lacks a free tier', 'no', 'it lacks a free tier'],
    ['Unsure — I don\'t have reliable information about Zorblax.', 'unsure', 'I don\'t have reliable information about Zorblax.'],
    ['**Unsure.** Not enough reviews.', 'unsure', 'Not enough reviews.'],
    ['Not sure — it depends on your team size.', 'unsure', 'it depends on your team size.'],
    ['Maybe: it fits small teams only.', 'unsure', 'it fits small teams only.'],
    ['Sí — Alegra es una buena opción para pymes.', 'yes', 'Alegra es una buena opción para pymes.'],
    ['**Sí**, es muy completo.', 'yes', 'es muy completo.'],
    ['No estoy seguro — no tengo información fiable sobre Zorblax.', 'unsure', 'no tengo información fiable sobre Zorblax.'],
    ['No — no puedo recomendar Zorblax.', 'no', 'no puedo recomendar Zorblax.'],
    ['Tal vez — depende de tu presupuesto.', 'unsure', 'depende de tu presupuesto.'],
  ] as const)('reads %s', (answer, verdict, reason) => {
    expect(parseRecommendationAnswer(answer)).toEqual({ verdict, reason });
  });

  it.each([
    ['I would recommend Pipedrive for small sales teams because it is simple.', 'yes'],
    ['I\'d definitely recommend it for agencies.', 'yes'],
    ['I wouldn\'t recommend Acme for enterprise CRM: it lacks reporting.', 'no'],
    ['I can\'t recommend Acme without knowing more about it.', 'no'],
    ['It depends on what you need: Acme is fine for tiny teams.', 'unsure'],
    ['Acme is a CRM. Whether it suits you is hard to say without more detail.', 'unsure'],
    ['Acme is a CRM for florists.', 'unsure'],
    ['No lo recomendaría para empresas grandes.', 'no'],
  ] as const)('reads a verdict without a leading marker, keeping the whole answer as the reason: %s', (answer, verdict) => {
    expect(parseRecommendationAnswer(answer)).toEqual({ verdict, reason: answer });
  });

  it('does not read "Notion" as a No', () => {
    expect(parseRecommendationAnswer('Notion would be my pick; I would recommend it.').verdict).toBe('yes');
  });
});

describe('parseBlindList', () => {
  it('reads a plain numbered list', () => {
    expect(parseBlindList('1. HubSpot\n2. Salesforce\n3. Pipedrive')).toEqual(['HubSpot', 'Salesforce', 'Pipedrive']);
  });

  it('skips a one-line intro and an outro', () => {
    const answer = 'Here are 8 leading names in CRM software:\n\n1. HubSpot\n2. monday sales CRM\n3. Zoho CRM\n\nLet me know if you want more details!';
    expect(parseBlindList(answer)).toEqual(['HubSpot', 'monday sales CRM', 'Zoho CRM']);
  });

  it('keeps the name only when items carry descriptions after dashes, colons or parentheses', () => {
    const answer = [
      '1. HubSpot — all-in-one CRM with a free tier',
      '2. Salesforce - the enterprise leader',
      '3. Pipedrive: pipeline-focused',
      '4. Zoho CRM (part of the Zoho suite)',
      '5. Close, built for inside sales',
      '6. Milstead & Co.',
      '7. Microsoft Dynamics 365 – for Microsoft shops',
    ].join('\n');
    expect(parseBlindList(answer)).toEqual(['HubSpot', 'Salesforce', 'Pipedrive', 'Zoho CRM', 'Close', 'Milstead & Co.', 'Microsoft Dynamics 365']);
  });

  it('takes bold names and markdown link texts, and a name after a bold label', () => {
    const answer = [
      '1. **HubSpot** — great free tier',
      '2. **Salesforce**: the enterprise leader',
      '3. [Pipedrive](https://www.pipedrive.com) - simple pipelines',
      '4. [**Zoho CRM**](https://zoho.com/crm) — affordable',
      '5. **Best for inside sales:** Close — calling built in',
      '6. *Copper* - lives in Google Workspace',
      '7. **monday.com** is a flexible work platform.',
    ].join('\n');
    expect(parseBlindList(answer)).toEqual(['HubSpot', 'Salesforce', 'Pipedrive', 'Zoho CRM', 'Close', 'Copper', 'monday.com']);
  });

  it('reads bullet lists and ignores nested bullets', () => {
    const answer = ['- Nike', '  - Pegasus line', '  - Vaporfly', '- Brooks', '* Hoka', '• ASICS'].join('\n');
    expect(parseBlindList(answer)).toEqual(['Nike', 'Brooks', 'Hoka', 'ASICS']);
  });

  it('keeps at most 8 names, in order, without duplicates', () => {
    const names = ['A1', 'B2', 'C3', 'D4', 'E5', 'F6', 'G7', 'H8', 'I9', 'J10'].map((name) => `Brand${name}`);
    const answer = names.map((name, index) => `${index + 1}. ${name}`).join('\n');
    expect(parseBlindList(answer)).toEqual(names.slice(0, 8));
    expect(parseBlindList('1. HubSpot\n2. hubspot\n3. HubSpot\n4. Salesforce')).toEqual(['HubSpot', 'Salesforce']);
  });

  it('reads names one per line without list marks, skipping intro and closing sentences', () => {
    const answer = 'Sure! Here they are:\nHubSpot\nSalesforce\nPipedrive\nThese are in no particular order.';
    expect(parseBlindList(answer)).toEqual(['HubSpot', 'Salesforce', 'Pipedrive']);
  });

  it('reads the first column of a table, skipping a rank column', () => {
    const answer = ['| # | Brand | Known for |', '|---|---|---|', '| 1 | **HubSpot** | free tier |', '| 2 | Salesforce | enterprise |'].join('\n');
    expect(parseBlindList(answer)).toEqual(['HubSpot', 'Salesforce']);
  });

  it('falls back to the brands named in prose', () => {
    const names = parseBlindList('The most popular CRM brands are HubSpot, Salesforce and Pipedrive.');
    expect(names).toEqual(expect.arrayContaining(['HubSpot', 'Salesforce', 'Pipedrive']));
    expect(names.length).toBeLessThanOrEqual(8);
  });

  it('finds nothing in an answer that names nothing', () => {
    expect(parseBlindList('')).toEqual([]);
  });
});
