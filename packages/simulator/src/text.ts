/** Lowercases and strips accents, so "Contabilidad" and "contabilidad" (or "México"/"mexico") compare equal. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** Folds a word and drops a plural "s", so "shoes"/"shoe" and "escritorios"/"escritorio" meet. */
export function stemWord(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** The folded, stemmed words of a text, for keyword matching. */
export function matchWords(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map(stemWord);
}

/** Whether the phrase's words appear, contiguous and in order, among the text's words. */
export function containsWords(textWords: readonly string[], phraseWords: readonly string[]): boolean {
  if (phraseWords.length === 0 || phraseWords.length > textWords.length) return false;
  outer: for (let start = 0; start + phraseWords.length <= textWords.length; start++) {
    for (let offset = 0; offset < phraseWords.length; offset++) {
      if (textWords[start + offset] !== phraseWords[offset]) continue outer;
    }
    return true;
  }
  return false;
}

/** Where the phrase's words first appear among the text's words, or -1. */
export function indexOfWords(textWords: readonly string[], phraseWords: readonly string[]): number {
  for (let start = 0; start + phraseWords.length <= textWords.length; start++) {
    if (phraseWords.every((word, offset) => textWords[start + offset] === word)) return start;
  }
  return -1;
}

/** A rough token count (~4 characters a token), never below 1, as the vendors' usage fields need. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Cuts text to about `maxTokens` tokens at a word boundary, the way a max-tokens stop looks. */
export function truncateToTokens(text: string, maxTokens: number): { text: string; truncated: boolean } {
  const limit = Math.max(1, Math.floor(maxTokens)) * 4;
  if (text.length <= limit) return { text, truncated: false };
  const cut = text.slice(0, limit);
  const lastSpace = cut.lastIndexOf(' ');
  return { text: (lastSpace > limit / 2 ? cut.slice(0, lastSpace) : cut).trimEnd(), truncated: true };
}

/** Upper-cases the first letter. */
export function capitalizeFirst(text: string): string {
  return text.length === 0 ? text : text.charAt(0).toUpperCase() + text.slice(1);
}

/** Drops a leading indefinite article ("an all-in-one CRM" → "all-in-one CRM"), for list-item reasons. */
export function dropLeadingArticle(text: string): string {
  return text.replace(/^(?:an?|un|una)\s+/iu, '');
}

/** Ends a sentence with a full stop unless it already has closing punctuation. */
export function withFullStop(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Joins names as prose: "A", "A and B", "A, B and C" (or "y" in Spanish). */
export function joinNames(names: readonly string[], conjunction: string): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${conjunction} ${names[names.length - 1]}`;
}
