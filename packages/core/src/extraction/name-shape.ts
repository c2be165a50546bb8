// Whether a piece of text reads as a brand or product name, and which word lists rule it out.

import { normalizeBrandKey } from './brand-key.js';
import {
  BUSINESS_WORDS,
  COMMON_WORDS,
  FUNCTION_WORDS,
  GENERIC_WORDS,
  GIVEN_NAMES,
  PERSON_TITLES,
  PLACE_NAMES,
  PLACE_SUFFIXES,
  PROPER_ADJECTIVES_AND_EVENTS,
  REVIEW_SOURCES,
  TECHNICAL_TERMS,
  foldWord,
  hasWord,
} from './lexicon.js';
import { hasStrongShape, isAlphanumericModel, isHyphenAdjective, isModelNumber, isNameLikeToken, isUnitToken, stripPossessive, tokenize } from './tokens.js';

// Lowercase words allowed inside a multi-word name: "Amazon RDS for PostgreSQL", "Ciudad de México".
const INNER_CONNECTORS = new Set(['for', 'of', 'de', 'del', 'la', 'el', '&', 'and', 'the', 'by', 'on', 'in', 'y', 'at']);
const HONORIFICS = new Set(['mr', 'mrs', 'ms', 'dr', 'sr', 'sra', 'srta', 'mx', 'prof']);
const MAX_NAME_TOKENS = 8;

/** True for a word from the function-word list ("The", "If", "Both"). */
export function isFunctionWord(word: string): boolean {
  return FUNCTION_WORDS.has(foldWord(stripPossessive(word)));
}

/** True for a label or category word ("Pros", "Budget", "Laptop") or a function word or number. */
export function isGenericWord(word: string): boolean {
  const bare = stripPossessive(word);
  return isFunctionWord(bare) || hasWord(GENERIC_WORDS, bare) || isModelNumber(bare) || isUnitToken(bare);
}

/** True for an everyday word, generic word or function word, with light suffix stripping. */
export function isCommonWord(word: string): boolean {
  const bare = foldWord(stripPossessive(word));
  if (isGenericWord(bare) || hasWord(COMMON_WORDS, bare)) return true;
  for (const [suffix, replacement] of [['ing', ''], ['ing', 'e'], ['ed', ''], ['ed', 'e'], ['ly', ''], ['er', '']] as const) {
    if (bare.length > suffix.length + 2 && bare.endsWith(suffix)) {
      if (COMMON_WORDS.has(bare.slice(0, -suffix.length) + replacement)) return true;
    }
  }
  return false;
}

/** Every word is a label, category, function word or number: "Best Budget Pick", "Running Shoes". */
export function isAllGeneric(words: readonly string[]): boolean {
  return words.length > 0 && words.every((word) => isGenericWord(word));
}

const MAX_CACHED_FORMS = 20_000;
const formCache = new Map<string, readonly string[]>();

/** The ways a name is looked up in the word lists: as written, as a key, without possessive or version. */
export function lexiconForms(name: string): readonly string[] {
  const cached = formCache.get(name);
  if (cached !== undefined) return cached;
  const forms = computeLexiconForms(name);
  if (formCache.size >= MAX_CACHED_FORMS) formCache.clear();
  formCache.set(name, forms);
  return forms;
}

function computeLexiconForms(name: string): string[] {
  const written = foldWord(name)
    .replace(/\s+/gu, ' ')
    .replace(/^[\s"'“(]+|[\s.,;:!?"'”)]+$/gu, '');
  const spaced = written.replace(/'s$/u, '');
  const unversioned = spaced.replace(/(?:\s+v?\d[\d.]*\+?)+$/u, '');
  return [...new Set([written, spaced, unversioned, normalizeBrandKey(name), normalizeBrandKey(unversioned)])];
}

/** Whether any lookup form of the name is in the set. */
export function inLexicon(set: ReadonlySet<string>, name: string): boolean {
  return lexiconForms(name).some((form) => set.has(form));
}

/** Whether the name is a country, region, state or city. */
export function isPlaceName(name: string): boolean {
  return inLexicon(PLACE_NAMES, name);
}

/** Whether the phrase ends like a street, line or station ("Lincoln Avenue", "JR Yamanote Line"). */
export function endsLikeRoute(name: string): boolean {
  const words = normalizeBrandKey(name).split(' ');
  const last = words[words.length - 1] ?? '';
  return words.length >= 2 && PLACE_SUFFIXES.has(last) && !words.some((word) => BUSINESS_WORDS.has(word));
}

/** Whether the name is a review source, research firm, standard, technical term, nationality or holiday. */
export function isReferenceOrTerm(name: string): boolean {
  return (
    inLexicon(REVIEW_SOURCES, name) || inLexicon(TECHNICAL_TERMS, name) || inLexicon(PROPER_ADJECTIVES_AND_EVENTS, name)
  );
}

/** Whether the words name a person: an honorific or a given name and surname, with no business word. */
export function looksLikePerson(words: readonly string[], endsAsStandalonePossessive: boolean): boolean {
  const folded = words.map((word) => foldWord(stripPossessive(word)).replace(/\.$/u, ''));
  if (folded.some((word) => BUSINESS_WORDS.has(word))) return false;
  const first = folded[0] ?? '';
  if (HONORIFICS.has(first)) return words.length >= 2;
  if (words.length < 2 || words.length > 3 || endsAsStandalonePossessive) return false;
  if (!GIVEN_NAMES.has(first)) return false;
  return words.slice(1).every((word) => /^\p{Lu}\p{Ll}/u.test(word) && !isGenericWord(word));
}

/** Whether the word before a name says a person follows: "writer", "Chef", "Dr.". */
export function isPersonTitle(word: string): boolean {
  return PERSON_TITLES.has(foldWord(word).replace(/\.$/u, ''));
}

/**
 * Cleans a structural span (a list head, heading, bold span, table cell) into the names it holds:
 * drops numbering, a "Label:" prefix, parentheticals and trailing punctuation, and splits
 * "A and B". Returns [] for labels, sentences, questions and lexicon words.
 */
export function structuralNames(raw: string): string[] {
  let text = raw.replace(/\s+/gu, ' ').trim();
  text = text.replace(/^(?:\d{1,3}[.)]|[#>•-])\s+/u, '').replace(/^\*+|\*+$/gu, '').trim();
  if (text === '' || /\?\s*["'”’)]*$/u.test(text)) return [];
  const colon = text.search(/:(?!\/\/)/u);
  if (colon !== -1) {
    const left = text.slice(0, colon).trim();
    const right = text.slice(colon + 1).trim();
    text = right !== '' && cleanName(right) !== null ? right : left;
  }
  const whole = cleanName(text);
  if (whole !== null) return [whole];
  // "Canva – easiest for beginners" or "Best for teams – Figma": a name on one side of a dash.
  const dashed = /\s[–—-]{1,2}\s/u.exec(text);
  if (dashed !== null) {
    const left = structuralNames(text.slice(0, dashed.index));
    return left.length > 0 ? left : structuralNames(text.slice(dashed.index + dashed[0].length));
  }
  const parts = text.split(/\s+(?:and|or|y|o|&|vs\.?|versus)\s+|\s*[,/]\s*/u);
  if (parts.length < 2) return [];
  const names = parts.map((part) => cleanName(part));
  return names.every((name) => name !== null) ? (names as string[]) : [];
}

// Words that open a pick label rather than a name: "Best Cordless Alternative", "Top Budget Choice".
const LABEL_OPENERS = new Set(['best', 'top', 'most', 'our', 'my', "editor's", 'editors', 'honorable', 'honourable', 'runner-up', 'mejor', 'mejores']);

function cleanName(raw: string): string | null {
  const text = raw
    .replace(/\s*\([^)]*\)/gu, '')
    .replace(/\s*\[[^\]]*\]/gu, '')
    .replace(/^[\s"'“‘«]+|[\s.,;:!–—\-"'”’»]+$/gu, '')
    .trim();
  // Put back a closing quote whose opening one stays inside: 'Coway Airmega "Mighty"'.
  const balanced = (text.match(/"/gu) ?? []).length % 2 === 1 ? `${text}"` : text;
  if (text === '' || hasWord(GENERIC_WORDS, text) || !isNameShaped(text)) return null;
  if (isPlaceName(text) || isReferenceOrTerm(text)) return null;
  const words = tokenize(text).map((token) => token.text);
  if (LABEL_OPENERS.has(foldWord(words[0] ?? '')) && !words.some((word) => hasStrongShape(word))) return null;
  if (looksLikePerson(words, false) && HONORIFICS.has(foldWord(words[0] ?? '').replace(/\.$/u, ''))) return null;
  return balanced;
}

/** Whether a short text is shaped like a name: capitalised words, model numbers, few connectors. */
export function isNameShaped(text: string): boolean {
  const tokens = tokenize(text);
  if (tokens.length === 0 || tokens.length > MAX_NAME_TOKENS) return false;
  const words = tokens.map((token) => token.text);
  if (isAllGeneric(words)) return false;
  if (words.length === 1) {
    const only = words[0] ?? '';
    if (isNameLikeToken(only)) return true;
    // A lone lowercase word is a stylised name ("italki", "eero") unless it is an everyday word.
    return /\p{L}/u.test(only) && !isCommonWord(only) && !isUnitToken(only) && !isHyphenAdjective(only);
  }
  return words.every((word, index) => {
    if (isNameLikeToken(word)) return true;
    if (index > 0 && (isModelNumber(word) || isUnitToken(word) || isAlphanumericModel(word))) return true;
    const folded = foldWord(word);
    if (index > 0 && index < words.length - 1 && INNER_CONNECTORS.has(folded)) return true;
    return index === 0 && folded === 'the';
  });
}
