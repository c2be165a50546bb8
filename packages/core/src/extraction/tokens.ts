// Word tokens and their shapes: what looks like part of a name ("Garmin", "iPhone", "Q39", "acme.io"),
// what is a model number ("265"), and what is a unit or an adjective ("4K", "Android-based").

/** A word of the answer with its offsets. */
export interface Token {
  text: string;
  start: number;
  end: number;
}

// Letters and digits, joined by an apostrophe, dot, hyphen, ampersand or plus when a letter or digit follows.
const TOKEN = /[\p{L}\p{N}](?:[\p{L}\p{N}\p{M}]|['\u2019.\-&+](?=[\p{L}\p{N}]))*\+?/gu;
const UNIT = /^\d+(?:[.,]\d+)?(?:k|g|p|hz|khz|mhz|ghz|gb|tb|mb|kb|mp|w|kw|v|mah|mm|cm|m|km|in|ft|lb|lbs|kg|oz|ml|l|x|th|st|nd|rd|s|am|pm|h|hr|hrs|min|mo|yr|yo)$/iu;
const DOMAIN = /^(?:www\.)?[\p{L}\p{N}-]+\.(?:com|io|ai|co|app|net|org|dev|so|me|tv|us|uk|es|mx|de|fr|it|ca|au|ar|cl|br|gg|xyz|tech|shop|store|cloud|page|site|studio|ly|to|fm|health|money|travel)(?:\.[a-z]{2})?$/iu;

/** Splits a range of text into word tokens with absolute offsets. */
export function tokenize(text: string, start = 0, end = text.length): Token[] {
  const slice = text.slice(start, end);
  const tokens: Token[] = [];
  for (const match of slice.matchAll(TOKEN)) {
    tokens.push({ text: match[0], start: start + match.index, end: start + match.index + match[0].length });
  }
  return tokens;
}

/** "Android-based", "GDPR-friendly", "mid-range": a hyphenated word whose last part is a lowercase word. */
export function isHyphenAdjective(word: string): boolean {
  const parts = word.split('-');
  const last = parts[parts.length - 1] ?? '';
  return parts.length > 1 && /^\p{Ll}{2,}$/u.test(last);
}

/** "4K", "144Hz", "3rd": numbers with a unit. */
export function isUnitToken(word: string): boolean {
  return UNIT.test(word.replace(/\+$/u, ''));
}

/** "acme.com", "www.notion.so". */
export function isDomainToken(word: string): boolean {
  return DOMAIN.test(word);
}

/** "iPhone", "edX", "PostgreSQL", "GoHenry": a capital after a lowercase letter inside the word. */
export function isCamelCase(word: string): boolean {
  return /\p{Ll}-?\p{Lu}/u.test(word);
}

/** "Q39", "S90D", "TM6", "AP-1512HH": letters and digits in one word. */
export function isAlphanumericModel(word: string): boolean {
  return /\p{L}/u.test(word) && /\p{N}/u.test(word) && !isUnitToken(word);
}

/** "265", "5500-2", "10": a bare model or version number. */
export function isModelNumber(word: string): boolean {
  return /^\p{N}[\p{N}.,-]*$/u.test(word);
}

/** Every cased letter is upper case: "GEICO", "HEPA", "USAA". */
export function isAllCaps(word: string): boolean {
  return /\p{Lu}/u.test(word) && !/\p{Ll}/u.test(word.replace(/'s$/u, ''));
}

/** A shape no ordinary word has: camel case, letters with digits, or a domain. */
export function hasStrongShape(word: string): boolean {
  return isCamelCase(word) || isAlphanumericModel(word) || isDomainToken(word);
}

/** Whether a word can be part of a name in running text. */
export function isNameLikeToken(word: string): boolean {
  if (isHyphenAdjective(word) || isUnitToken(word)) return false;
  if (/^\p{Lu}/u.test(word)) return true;
  if (isCamelCase(word) || isDomainToken(word)) return true;
  return /^\p{N}/u.test(word) && isAlphanumericModel(stripPossessive(word));
}

/** The word without a trailing possessive: "Garmin's" → "Garmin". */
export function stripPossessive(word: string): string {
  return word.replace(/['\u2019]s$/u, '');
}

/** Whether the word ends in a possessive "'s". */
export function isPossessive(word: string): boolean {
  return /['\u2019]s$/u.test(word);
}
