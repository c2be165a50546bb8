// The three questions of checkBrandRecognition, worded as a buyer would ask them. The check asks in
// English; the Spanish wording is kept here so a later Spanish check reads the same way.

import { createBrandMatcher, normalizeBrandKey } from '../extraction/index.js';

export type PromptLanguage = 'en' | 'es';

/** How many names the blind list asks for (the spec's limit on `recommendations`). */
export const BLIND_LIST_SIZE = 8;

export interface CheckPrompts {
  /** "Do you know the brand …?": answered with Yes/No and a one-sentence description. */
  recognition(brand: string): string;
  /** "List the 8 best … brands": never mentions the brand being checked. */
  blindList(category: string): string;
  /** "Would you recommend …?": answered yes, no or unsure, then a reason. */
  recommendation(brand: string, category?: string): string;
}

/** The check's questions, per language. */
export const CHECK_PROMPTS: Readonly<Record<PromptLanguage, CheckPrompts>> = {
  en: {
    recognition: (brand) => `Do you know the brand ${quoted(brand)}? If you do, describe it in one sentence.`,
    blindList: (category) => `List the ${BLIND_LIST_SIZE} best ${category} brands, one per line.`,
    recommendation: (brand, category) =>
      `Would you recommend ${quoted(brand)}${category === undefined ? '' : ` for ${category}`}? Answer yes, no or unsure, then give your reason.`,
  },
  es: {
    recognition: (brand) => `¿Conoces la marca ${quoted(brand)}? Si la conoces, descríbela en una frase.`,
    blindList: (category) => `Enumera las ${BLIND_LIST_SIZE} mejores marcas de ${category}, una por línea.`,
    recommendation: (brand, category) =>
      `¿Recomendarías la marca ${quoted(brand)}${category === undefined ? '' : ` para ${category}`}? Responde sí, no o no estoy seguro, y explica por qué.`,
  },
};

/** Collapses runs of whitespace to one space and trims: how questions, brands and categories are asked. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

// Connectors left dangling once a brand is cut out ("alternatives to Acme" -> "alternatives to").
const DANGLING_WORDS = new Set([
  'for', 'to', 'like', 'vs', 'versus', 'and', 'or', 'by', 'from', 'with', 'than', 'of', 'the', 'a', 'an',
  'de', 'del', 'para', 'como', 'y', 'o', 'con', 'que', 'la', 'el', 'los', 'las',
]);

/**
 * The category phrase the blind list may use: the category with every mention of the brand (any case,
 * accents, spacing or `acme.com` form) cut out, so the list is asked blind. Null when nothing is left.
 */
export function blindListCategoryPhrase(category: string, brand: string): string | null {
  let phrase = normalizeWhitespace(category);
  // The everyday-word caution is for reading answers; here any use of the word would give the brand away.
  const matcher = createBrandMatcher(normalizeWhitespace(brand), { commonWord: false });
  const matches = matcher.findAll(phrase).sort((left, right) => right.index - left.index);
  for (const match of matches) {
    let end = match.index + match.matched.length;
    // The matcher reports "Acme's" as "Acme"; the possessive goes with it, and so does a suffix that only
    // makes sense attached to the brand ("Acme-style", "Acme-like").
    const attached = /^(?:['’]s(?![\p{L}\p{N}])|-[\p{L}]+)/u.exec(phrase.slice(end));
    if (attached !== null) end += attached[0].length;
    phrase = `${phrase.slice(0, match.index)} ${phrase.slice(end)}`;
  }
  // The user's own wording is kept untouched unless something had to be cut out of it.
  if (matches.length > 0) phrase = tidyPhrase(phrase);
  return /[\p{L}\p{N}]/u.test(phrase) ? phrase : null;
}

/** Whether a prompt names the brand in any written form: the guard that keeps the blind list blind. */
export function promptMentionsBrand(prompt: string, brand: string): boolean {
  const name = normalizeWhitespace(brand);
  if (createBrandMatcher(name, { commonWord: false }).mentions(prompt)) return true;
  // A second, independent test on normalised words, in case the matcher's variants miss a spelling.
  const brandKey = normalizeBrandKey(name);
  return brandKey !== '' && ` ${normalizeBrandKey(prompt)} `.includes(` ${brandKey} `);
}

function tidyPhrase(text: string): string {
  let phrase = normalizeWhitespace(text.replace(/\(\s*\)|\[\s*\]|"\s*"|“\s*”/gu, ' '));
  for (;;) {
    const before = phrase;
    phrase = phrase.replace(/^[\s,;:/&+\-–—.]+|[\s,;:/&+\-–—]+$/gu, '');
    const words = phrase.split(' ');
    if (words.length > 0 && DANGLING_WORDS.has((words[0] ?? '').toLowerCase())) words.shift();
    if (words.length > 0 && DANGLING_WORDS.has((words[words.length - 1] ?? '').toLowerCase())) words.pop();
    phrase = words.join(' ').trim();
    if (phrase === before) return phrase;
  }
}

// Double quotes inside the name would end the quotation early, so they become single ones.
function quoted(brand: string): string {
  return `"${normalizeWhitespace(brand).replace(/["“”«»]/gu, "'")}"`;
}
