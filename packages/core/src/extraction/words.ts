// Word classes the brand matcher and the extractor ask about, from the extractor's knowledge files.

import { fold, knowledge } from './knowledge.js';

function bare(word: string): string {
  return fold(word).replace(/['’]s$/u, '');
}

/** Articles, pronouns, conjunctions and other grammar words (en, es, pt, fr, de). */
export function isFunctionWord(word: string): boolean {
  return knowledge().lists.functionWords.has(bare(word));
}

/** A word of everyday English or Spanish (10,000 commonest, our everyday list, label, calendar and grammar words), so a brand spelt like it ("Notion", "Square") needs evidence of use as a name. */
export function isCommonWord(word: string): boolean {
  const key = bare(word);
  const k = knowledge();
  if (k.lists.functionWords.has(key) || k.lists.labelWords.has(key) || k.lists.everydayWords.has(key) || k.lists.calendarWords.has(key)) return true;
  return k.everydayEnglishSpanish.has(key) || k.everydayEnglishSpanish.has(key.replace(/e?s$/u, ''));
}

/** Days and months. */
export function isCalendarWord(word: string): boolean {
  return knowledge().lists.calendarWords.has(bare(word));
}

/** Verbs that follow a sentence's subject: "Etsy is", "Step offers". */
export function isSubjectVerb(word: string): boolean {
  return knowledge().lists.subjectVerbs.has(fold(word));
}

/** Words that, written right after a brand, close a maker + plan alias ("Acme Pro", "Globex One"). */
export function isPlanSuffix(word: string): boolean {
  return knowledge().lists.planSuffixes.has(fold(word));
}

/** Words that make a model a tier of its own ("Vista 7 Pro", "Acme X5 Mini"), not the same model described ("Acme X5 Electric"). */
export function isModelTierWord(word: string): boolean {
  return knowledge().lists.modelTierWords.has(fold(word));
}

/**
 * A German noun made of everyday words, or one inflected: "Folgekosten" (Folge + Kosten),
 * "Datenschutz", "Teppiche" (Teppich + e). German writes every noun with a capital, so these are
 * the capitalised words of a German answer that name nothing.
 */
export function isGermanCompound(word: string, everyday: ReadonlySet<string>): boolean {
  if (word.length < 6 || everyday.has(word)) return false;
  const known = (part: string): boolean => everyday.has(part) || /(?:e|en|n|s|er|se|es)$/u.test(part) && everyday.has(part.replace(/(?:e|en|n|s|er|se|es)$/u, ''));
  // an inflected everyday noun
  for (const ending of ['e', 'en', 'n', 's', 'es', 'er', 'se', 'nen']) if (word.endsWith(ending) && everyday.has(word.slice(0, -ending.length))) return true;
  for (let cut = 3; cut <= word.length - 3; cut += 1) {
    const left = word.slice(0, cut);
    const right = word.slice(cut);
    if (!known(right)) continue;
    if (everyday.has(left) || (/(?:s|n|en|es|e)$/u.test(left) && everyday.has(left.replace(/(?:s|n|en|es|e)$/u, '')))) return true;
  }
  return false;
}
