// Context knowledge as data: places, given names and surnames, nationalities, units, brands a
// maintained collection knows and everyday words (gazetteer.json, generated from maintained packages) and our reviewed word lists
// (terms.json). Loaded once, on first use.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The folder with the extractor's data files (the same from src/ and dist/). */
export const EXTRACTION_DATA_DIR = fileURLToPath(new URL('../../data/extraction/', import.meta.url));

export interface Knowledge {
  bigPlaces: ReadonlySet<string>;
  places: ReadonlySet<string>;
  givenNames: ReadonlySet<string>;
  surnames: ReadonlySet<string>;
  demonyms: ReadonlySet<string>;
  units: ReadonlySet<string>;
  /** Compact keys (lower-case letters and digits) of brands a maintained collection knows (simple-icons). */
  knownBrands: ReadonlySet<string>;
  /** Chain brands of shops, banks, restaurants and hotels (name-suggestion-index), by knownBrandKey. */
  chainBrands: ReadonlySet<string>;
  /** Comparatives, superlatives and adverbs (compromise's lexicon): a capitalised one before a lower-case word opens a sentence. */
  sentenceOpeners: ReadonlySet<string>;
  /** Everyday words of en, es, pt, fr, de: word → best (lowest) frequency rank in any of them. */
  commonRank: ReadonlyMap<string, number>;
  /** The 10,000 commonest words of English and Spanish (the languages brand names most often borrow from). */
  everydayEnglishSpanish: ReadonlySet<string>;
  /** The 10,000 commonest words of English. */
  everydayEnglish: ReadonlySet<string>;
  /** … less the ones other languages use more ("est", "dans"). */
  distinctlyEnglish: ReadonlySet<string>;
  /** The 10,000 commonest words of German, to tell its compound nouns ("Folgekosten"). */
  everydayGerman: ReadonlySet<string>;
  lists: Readonly<Record<TermList, ReadonlySet<string>>>;
  cues: Readonly<Record<CueList, readonly string[][]>>;
}

export const TERM_LISTS = [
  'functionWords',
  'imperatives',
  'labelWords',
  'everydayWords',
  'calendarWords',
  'platforms',
  'integrationPlatforms',
  'stores',
  'parentCompanies',
  'reviewSources',
  'techTerms',
  'placeWords',
  'properAdjectives',
  'placeSuffixes',
  'placePrefixes',
  'personTitles',
  'businessWords',
  'featureNouns',
  'planSuffixes',
  'modelTierWords',
  'subjectVerbs',
  'nameColumnHeaders',
  'nonNameColumnWords',
  'makerColumnHeaders',
  'modelColumnHeaders',
  'adviceSectionWords',
  'sourceSectionWords',
] as const;
export type TermList = (typeof TERM_LISTS)[number];

export const CUE_LISTS = ['locative', 'platform', 'store', 'source', 'reco', 'person', 'feature'] as const;
export type CueList = (typeof CUE_LISTS)[number];

interface GazetteerFile {
  bigPlaces: string[];
  places: string[];
  givenNames: string[];
  surnames: string[];
  demonyms: string[];
  units: string[];
  knownBrands: string[];
  chainBrands: string[];
  sentenceOpeners: string[];
  commonWords: Record<string, string[]>;
}

type TermsFile = Record<TermList, string[]> & { cues: Record<CueList, string[]> };

let loaded: Knowledge | undefined;

/** Folds for look-ups: lower case, no diacritics, straight apostrophes. */
export function fold(text: string): string {
  if (/^[\x00-\x7F]*$/u.test(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(/\p{M}+/gu, '').replace(/[\u2018\u2019\u02BC]/gu, "'").toLowerCase();
}

/** The key known brands are looked up by: folded, letters and digits only ("AT&T" → "att"). */
export function knownBrandKey(text: string): string {
  return fold(text).replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The extractor's knowledge, read from its data files on first use. */
export function knowledge(): Knowledge {
  if (loaded !== undefined) return loaded;
  const gazetteer = JSON.parse(readFileSync(`${EXTRACTION_DATA_DIR}gazetteer.json`, 'utf8')) as GazetteerFile;
  const terms = JSON.parse(readFileSync(`${EXTRACTION_DATA_DIR}terms.json`, 'utf8')) as TermsFile;
  const commonRank = new Map<string, number>();
  for (const words of Object.values(gazetteer.commonWords)) {
    words.forEach((word, rank) => {
      const key = fold(word);
      const known = commonRank.get(key);
      if (known === undefined || rank < known) commonRank.set(key, rank);
    });
  }
  const set = (values: readonly string[]): ReadonlySet<string> => new Set(values.map(fold));
  const lists = Object.fromEntries(TERM_LISTS.map((name) => [name, set(terms[name] ?? [])])) as Record<TermList, ReadonlySet<string>>;
  const cues = Object.fromEntries(
    CUE_LISTS.map((name) => [name, (terms.cues[name] ?? []).map((cue) => fold(cue).split(/\s+/u))]),
  ) as Record<CueList, string[][]>;
  const everydayEnglishSpanish = new Set([...(gazetteer.commonWords.en ?? []), ...(gazetteer.commonWords.es ?? [])].map(fold));
  loaded = {
    everydayEnglishSpanish,
    everydayEnglish: new Set((gazetteer.commonWords.en ?? []).map(fold)),
    distinctlyEnglish: englishOnly(gazetteer.commonWords),
    everydayGerman: new Set((gazetteer.commonWords.de ?? []).map(fold)),
    bigPlaces: set(gazetteer.bigPlaces),
    places: set(gazetteer.places),
    givenNames: set(gazetteer.givenNames),
    surnames: set(gazetteer.surnames),
    demonyms: set(gazetteer.demonyms),
    units: set(gazetteer.units),
    knownBrands: new Set(gazetteer.knownBrands.map(knownBrandKey).filter((key) => key.length > 1)),
    chainBrands: new Set(gazetteer.chainBrands.map(knownBrandKey).filter((key) => key.length > 1)),
    sentenceOpeners: set(gazetteer.sentenceOpeners),
    commonRank,
    lists,
    cues,
  };
  return loaded;
}

/**
 * English's 10,000 commonest words, less the ones other languages use more: the subtitle lists
 * carry "est" and "dans" in English too. A word of another language's first thousand stays only
 * if it is among English's first 300 ("no", "a").
 */
function englishOnly(commonWords: Record<string, string[]>): Set<string> {
  const foreign = new Set<string>();
  for (const [language, words] of Object.entries(commonWords)) if (language !== 'en') for (const word of words.slice(0, 1000)) foreign.add(fold(word));
  return new Set((commonWords.en ?? []).map(fold).filter((word, rank) => rank < 300 || !foreign.has(word)));
}
