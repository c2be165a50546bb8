export type SiteLanguage = 'en' | 'es';

export interface LanguageDetection {
  language: SiteLanguage | undefined;
  /** Where the answer came from. */
  source: 'html-lang' | 'content-language' | 'text' | undefined;
}

// Frequent function words that the other language does not share ("a", "de" and "no" are left out on purpose).
const ENGLISH_WORDS = new Set(['the', 'and', 'of', 'to', 'is', 'for', 'with', 'your', 'you', 'our', 'that', 'this', 'are', 'from', 'it', 'we', 'can', 'be', 'have', 'more', 'all', 'how', 'what', 'get']);
const SPANISH_WORDS = new Set(['el', 'la', 'los', 'las', 'que', 'y', 'en', 'para', 'con', 'por', 'una', 'del', 'es', 'su', 'tu', 'más', 'nuestro', 'nuestra', 'nuestros', 'sus', 'al', 'como', 'somos', 'está', 'también', 'sobre']);

/** Minimum function-word hits before the text heuristic answers at all. */
const MIN_HITS = 8;
/** How far ahead one language must be for the text heuristic to answer. */
const MIN_RATIO = 2;
/** Stronger evidence needed for the text to override a declared language (templates often ship lang="en"). */
const OVERRIDE_HITS = 40;
const OVERRIDE_RATIO = 4;

/** Maps a language tag such as "es-ES" or "en_US" to en/es; undefined for any other language. */
export function languageFromTag(tag: string | undefined): SiteLanguage | undefined {
  const primary = tag?.trim().toLowerCase().split(/[-_,;\s]/)[0];
  return primary === 'en' || primary === 'es' ? primary : undefined;
}

/** Counts English and Spanish function words in visible text. */
export function countLanguageHints(text: string): { en: number; es: number } {
  let en = 0;
  let es = 0;
  for (const word of text.toLowerCase().slice(0, 50_000).split(/[^\p{L}]+/u)) {
    if (ENGLISH_WORDS.has(word)) en += 1;
    else if (SPANISH_WORDS.has(word)) es += 1;
  }
  return { en, es };
}

function textLanguage(hints: { en: number; es: number }, minimumHits: number, ratio: number): SiteLanguage | undefined {
  if (hints.en >= minimumHits && hints.en >= hints.es * ratio) return 'en';
  if (hints.es >= minimumHits && hints.es >= hints.en * ratio) return 'es';
  return undefined;
}

/**
 * The site's language: `<html lang>`, else the Content-Language header, else a function-word count of the
 * visible text. A declared language is overridden only when the text is overwhelmingly the other one.
 */
export function detectLanguage(input: { htmlLang: string | undefined; contentLanguage: string | undefined; text: string }): LanguageDetection {
  const hints = countLanguageHints(input.text);
  for (const [declared, source] of [
    [input.htmlLang, 'html-lang'],
    [input.contentLanguage, 'content-language'],
  ] as const) {
    if (declared === undefined || declared.trim() === '') continue;
    const language = languageFromTag(declared);
    const overwhelming = textLanguage(hints, OVERRIDE_HITS, OVERRIDE_RATIO);
    if (overwhelming !== undefined && overwhelming !== language) return { language: overwhelming, source: 'text' };
    return { language, source };
  }
  const language = textLanguage(hints, MIN_HITS, MIN_RATIO);
  return { language, source: language === undefined ? undefined : 'text' };
}
