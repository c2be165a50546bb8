// Features of one candidate: where it stands in the structure, its shape, what the knowledge files
// say of its words, the words around it, and how often and where the answer repeats it. Every
// feature is named, so a decision can be explained from the weights that drove it.

import { compactBrandKey } from './brand-key.js';
import type { Candidate } from './candidates.js';
import { CUE_LISTS, fold, knowledge, knownBrandKey, type CueList, type Knowledge } from './knowledge.js';
import { isGermanCompound } from './words.js';

export type Features = Map<string, number>;

/**
 * Every feature also counts separately for name slots (`S|name`) and running text (`P|name`), where
 * the same clue means different things (a capital proves little in a heading, much mid-sentence).
 * The copies are not stored: the model adds both weights (model.ts), the fit expands them.
 */
/** Features with no slot-or-prose copy: the bias, and context words (few rows each already). */
export const UNGROUPED = /^(?:bias$|prev=|next=|enum_prev=|enum_next=|intro=)/u;

export function groupOf(features: Features): 'S|' | 'P|' {
  return features.has('slot:prose') ? 'P|' : 'S|';
}

/**
 * A fitted name read back as the feature it weighs and which copy: 0 the plain feature, 1 its `S|`
 * copy, 2 its `P|` copy (the order the model's and the trees' lookup tables keep them in).
 */
export function featureCopy(name: string): [base: string, copy: 0 | 1 | 2] {
  if (name.startsWith('S|')) return [name.slice(2), 1];
  if (name.startsWith('P|')) return [name.slice(2), 2];
  return [name, 0];
}

/** The features with their slot-or-prose copies written out, as the fit sees them. */
export function expandFeatures(features: Features): Features {
  const group = groupOf(features);
  const out: Features = new Map(features);
  for (const [name, value] of features) if (!UNGROUPED.test(name)) out.set(group + name, value);
  return out;
}

/** Context words taken as features: only everyday ones (the 1,000 commonest of a language), never names. */
const CONTEXT_WORD_RANK = 1000;
const KNOWN_FEATURES = /^(?:list:(?!some_label_words|business_word|plan_suffix_last|feature_noun_last)|gaz:(?!known_brand|chain_brand)|common:(?:single|all))/u;
const SUPERLATIVES = new Set(['best', 'top', 'most', 'great', 'ideal', 'cheapest', 'fastest', 'mejor', 'mejores', 'melhor', 'melhores', 'meilleur', 'meilleure', 'beste', 'bester', 'bestes', 'ideal', 'ideales']);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}'’&+.-]*/gu;
const UNIT = /^\d+(?:[.,]\d+)?\s?(?:k?w|kwh|wh|mah|nm|mm|cm|m|km|kg|g|lb|lbs|oz|in|ft|hz|khz|mhz|ghz|gb|tb|mb|mbps|gbps|mp|fps|db|v|a|l|ml|mph|kph|km\/h|psi|rpm|k|p|x)$/iu;
const DOMAIN = /^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.(?:com|io|ai|co|app|net|org|de|es|fr|pt|mx|br|uk|co\.uk|ly|so|dev|tv|me|us|eu|ca|au)$/iu;

export interface AnswerContext {
  /** Folded answer text, to tell words the answer also writes in lower case. */
  lowerText: string;
  /** Per compact key: how many candidates, how many in name slots, in prose, at sentence starts. */
  keys: Map<string, { count: number; structural: number; prose: number; midSentence: number; formatted: number; locative: number; address: number }>;
  /** Compact keys of every candidate, word by word, to tell makers ("Acme" in "Acme Runner"). */
  firstWords: Map<string, number>;
  brandKey: string | undefined;
  /** The answer's language, guessed from its most frequent words. */
  language: string;
  /** The candidates of each block, in order, to find a candidate's neighbours. */
  byBlock: Map<object, Candidate[]>;
  /** How many list heads, headings and name-column cells the answer has: 0 for an answer in prose. */
  slots: number;
  /** Per compact key: how many name slots write it as a field label, a colon after it (`**Price:** …`). */
  fieldLabels: Map<string, number>;
  /** The candidates an address follows ("…, rue des Martyrs"). */
  addressed: ReadonlySet<Candidate>;
}

/** What the whole answer says about each candidate's key: read once per answer. */
export function answerContext(answer: string, candidates: readonly Candidate[], brand?: string, language = guessLanguage(answer)): AnswerContext {
  const keys: AnswerContext['keys'] = new Map();
  const firstWords = new Map<string, number>();
  const fieldLabels = new Map<string, number>();
  const addressed = new Set<Candidate>();
  const locative = knowledge().cues.locative;
  for (const candidate of candidates) {
    const key = compactBrandKey(candidate.surface);
    if (candidate.slot !== 'prose' && followedByColon(candidate)) fieldLabels.set(key, (fieldLabels.get(key) ?? 0) + 1);
    const entry = keys.get(key) ?? { count: 0, structural: 0, prose: 0, midSentence: 0, formatted: 0, locative: 0, address: 0 };
    entry.count += 1;
    if (candidate.slot === 'prose' && endsWithCue(wordsBefore(candidate, 3), locative)) entry.locative += 1;
    if (followedByAddress(candidate)) {
      entry.address += 1;
      addressed.add(candidate);
    }
    if (candidate.slot === 'prose') entry.prose += 1;
    else entry.structural += 1;
    if (candidate.slot === 'prose' && !candidate.sentenceStart) entry.midSentence += 1;
    if (candidate.formatted) entry.formatted += 1;
    keys.set(key, entry);
    const first = fold(candidate.surface.split(/\s+/u)[0] ?? '');
    if (candidate.surface.includes(' ')) firstWords.set(first, (firstWords.get(first) ?? 0) + 1);
  }
  return {
    lowerText: ` ${lowerOnly(answer)} `,
    keys,
    firstWords,
    brandKey: brand === undefined || brand.trim() === '' ? undefined : compactBrandKey(brand),
    language,
    byBlock: groupByBlock(candidates),
    slots: candidates.filter((candidate) => candidate.slot === 'list_head' || candidate.slot === 'heading' || candidate.slot === 'table_cell').length,
    fieldLabels,
    addressed,
  };
}

const ADDRESS_LEAD = /^['’]?s?\s*(?:[,(—–-]\s*)?(?:(?:on|at|off|in|near|en|em|na|no|à|au|sur|dans|am|an der|auf der|in der|im)\s+)?(?:the\s+)?(?:\d+[a-z]?,?\s+)?/iu;
const STREET_SUFFIX = /^\p{Lu}\p{Ll}+(?:straße|strasse|gasse|platz|allee|damm|ufer|weg|ring|markt)\b/u;

/**
 * An address right after the candidate: "Acme Café, rue des Martyrs", "Globex Books on Queen Street",
 * "Acme (Hauptstraße 12)". Businesses are placed on streets; streets and districts are not.
 */
function followedByAddress(candidate: Candidate): boolean {
  const rest = candidate.block.text.slice(candidate.to, candidate.to + 60);
  if (!/^['’]?s?[\s,(—–-]/u.test(rest)) return false;
  const after = rest.slice(ADDRESS_LEAD.exec(rest)?.[0].length ?? 0);
  if (STREET_SUFFIX.test(after)) return true;
  const tokens = after.match(WORD) ?? [];
  if (STREET_PREFIXES.has(fold(tokens[0] ?? ''))) return true;
  // a street named by its capitalised words and then its kind: "Queen Street East", "Elm St"
  for (let index = 1; index < Math.min(tokens.length, 5); index += 1) {
    if (!/^[\p{Lu}\p{N}]/u.test(tokens[index - 1] ?? '')) return false;
    if (STREET_SUFFIXES.has(fold(tokens[index] ?? '').replace(/\.$/u, ''))) return true;
  }
  return false;
}

/** Kinds of street written before or after the street's name. */
const STREET_PREFIXES = new Set(['rue', 'avenue', 'boulevard', 'bd', 'calle', 'avenida', 'av', 'rua', 'carrer', 'paseo', 'passeig', 'via', 'viale', 'corso', 'largo', 'travessa', 'quai', 'chaussee', 'chaussée', 'allee']);
const STREET_SUFFIXES = new Set(['street', 'st', 'avenue', 'ave', 'road', 'rd', 'boulevard', 'blvd', 'lane', 'ln', 'drive', 'dr', 'way', 'row', 'place', 'pl', 'square', 'sq', 'terrace', 'parade', 'crescent', 'highway', 'hwy', 'pike', 'strasse', 'straße', 'gasse', 'platz', 'allee']);

/** A colon right after the candidate: `**Price:** …`, `Best for: …`. */
function followedByColon(candidate: Candidate): boolean {
  return /^\s*:/u.test(candidate.block.text.slice(candidate.to, candidate.to + 3));
}

function groupByBlock(candidates: readonly Candidate[]): Map<object, Candidate[]> {
  const out = new Map<object, Candidate[]>();
  for (const candidate of candidates) {
    const list = out.get(candidate.block) ?? [];
    list.push(candidate);
    out.set(candidate.block, list);
  }
  for (const list of out.values()) list.sort((left, right) => left.from - right.from);
  return out;
}

/** Whether two neighbouring candidates of one block stand in one enumeration ("A, B or C"). */
export function enumerated(left: Candidate, right: Candidate): boolean {
  return left.block === right.block && left.to <= right.from && ENUMERATION_GAP.test(left.block.text.slice(left.to, right.from));
}

const ENUMERATION_GAP = /^['’]?s?\s*(?:,|;|\s(?:or|and|y|o|ou|e|et|und|oder|&|vs\.?|versus|to))\s*(?:the\s|el\s|la\s)?$|^\s*(?:,|\/)\s*$/u;

const LANGUAGE_MARKERS: Record<string, ReadonlySet<string>> = {
  en: new Set(['the', 'and', 'is', 'for', 'with', 'you', 'are', 'it', 'of', 'to']),
  es: new Set(['el', 'los', 'las', 'es', 'para', 'con', 'que', 'una', 'del', 'por']),
  pt: new Set(['o', 'os', 'as', 'é', 'para', 'com', 'que', 'uma', 'do', 'da', 'não', 'em']),
  fr: new Set(['le', 'les', 'est', 'pour', 'avec', 'que', 'une', 'des', 'du', 'et', 'vous']),
  de: new Set(['der', 'die', 'das', 'ist', 'für', 'mit', 'und', 'eine', 'ein', 'nicht', 'sie', 'auf']),
};

const MARKER_LANGUAGES = new Map<string, string[]>();
for (const [language, markers] of Object.entries(LANGUAGE_MARKERS)) {
  for (const marker of markers) MARKER_LANGUAGES.set(marker, [...(MARKER_LANGUAGES.get(marker) ?? []), language]);
}

/** The language whose commonest words the answer uses most. */
export function guessLanguage(answer: string): string {
  const counts = new Map<string, number>();
  for (const word of answer.toLowerCase().split(/[^\p{L}]+/u)) {
    const languages = MARKER_LANGUAGES.get(word);
    if (languages === undefined) continue;
    for (const language of languages) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  let best = 'en';
  for (const [language, count] of counts) if (count > (counts.get(best) ?? 0)) best = language;
  return best;
}

/** The answer's words that are written in lower case, space-joined: " running shoes for ... ". */
function lowerOnly(answer: string): string {
  const words: string[] = [];
  for (const match of answer.matchAll(WORD)) {
    const word = match[0];
    words.push(/^\p{Ll}/u.test(word) && !/\p{Lu}/u.test(word) ? fold(word) : '|');
  }
  return words.join(' ');
}

/** The features of one candidate. */
export function candidateFeatures(candidate: Candidate, context: AnswerContext): Features {
  const k = knowledge();
  const f: Features = new Map();
  const set = (name: string, value = 1): void => {
    if (value !== 0) f.set(name, value);
  };
  const words = candidate.surface.match(WORD) ?? [];
  const folded = words.map(fold);
  const whole = fold(candidate.surface);
  const key = compactBrandKey(candidate.surface);
  const structural = candidate.slot !== 'prose';

  set('bias');
  if (context.language !== 'en') set(`lang:${context.language}`);
  if (context.language === 'de' && words.length === 1) {
    set('lang:de_single_word');
    if (isGermanCompound(folded[0] ?? '', k.everydayGerman)) set('lang:de_everyday_compound');
    // a word German capitalises as a noun is an everyday one; one no word list knows is likelier a name
    else if (k.commonRank.get(folded[0] ?? '') === undefined && !k.everydayGerman.has(folded[0] ?? '')) set('lang:de_unknown_word');
  }
  // German writes its adjectives in lower case: two capitalised words in a row mid-sentence are a name
  if (context.language === 'de' && words.length > 1 && !candidate.sentenceStart) set('lang:de_multiword');
  set(`slot:${candidate.slot}`);
  if (candidate.plainHead) set('slot:list_head_plain');
  if (candidate.cut !== 'whole') set(`cut:${candidate.cut}`);
  if (candidate.formatted) set('formatted');
  set(`words:${Math.min(words.length, 4)}`);
  if (candidate.dropped.length > 0) set('dropped_leading_word');

  // shape
  if (words.some((word) => /\p{N}/u.test(word))) set('shape:digit');
  if (/^\p{N}+$/u.test(candidate.surface.replace(/\s/gu, ''))) set('shape:only_digits');
  if (words.length > 0 && words.every((word) => !/\p{Ll}/u.test(word)) && /\p{Lu}.*\p{Lu}/u.test(candidate.surface)) set('shape:all_caps');
  if (words.some((word) => /\p{Ll}\p{Lu}/u.test(word) || /^\p{Ll}+\p{Lu}/u.test(word))) set('shape:inner_cap');
  if (/^\p{Ll}/u.test(candidate.surface)) set('shape:lower_start');
  if (DOMAIN.test(candidate.surface)) set('shape:domain');
  if (words.some((word) => UNIT.test(word)) || UNIT.test(candidate.surface)) set('shape:unit');
  if (candidate.surface.length > 40) set('shape:long');
  if (candidate.surface.replace(/[^\p{L}\p{N}]/gu, '').length <= 2) set('shape:tiny');
  // a version or model mark in lower case ("v2", "mk3", "x1") is part of a name, not a lower-case word of a phrase
  const lowerWords = words.filter((word, index) => /^\p{Ll}/u.test(word) && !/\p{N}/u.test(word) && !k.lists.functionWords.has(fold(word)) && index > 0);
  if (lowerWords.length > 0) set('shape:lower_word_inside');
  if (folded.some((word, index) => index > 0 && index < folded.length - 1 && k.lists.functionWords.has(word))) set('shape:function_word_inside');
  if (/[!?]/u.test(candidate.surface)) set('shape:sentence_mark');
  if (/-\p{Ll}+$/u.test(candidate.surface)) set('shape:hyphen_lower_suffix');
  if (/^\p{Lu}{2,}s$/u.test(candidate.surface)) set('shape:acronym_plural');
  const lastWord = folded.at(-1) ?? '';
  if (/(?:s|es)$/u.test(lastWord) && lastWord.length > 3 && !k.commonRank.has(lastWord) && (k.commonRank.has(lastWord.replace(/e?s$/u, '')) || k.demonyms.has(lastWord.replace(/s$/u, '')))) set('shape:plural_of_everyday_word');
  const opened = candidate.block.text.lastIndexOf('(', candidate.from);
  if (opened !== -1 && candidate.block.text.indexOf(')', opened) >= candidate.to) set('in_parentheses');
  if (/\p{Extended_Pictographic}/u.test(candidate.block.text.slice(Math.max(0, candidate.from - 3), candidate.from))) set('emoji_before');

  // knowledge: gazetteers
  if (k.bigPlaces.has(whole)) set('gaz:big_place');
  else if (k.places.has(whole)) set('gaz:place');
  else if (words.length > 1 && folded.some((word) => k.bigPlaces.has(word))) set('gaz:place_word');
  if (folded.some((word) => k.demonyms.has(word) || k.lists.properAdjectives.has(word))) set('gaz:demonym');
  if (k.units.has(whole)) set('gaz:unit');
  const [firstWord = '', secondWord = ''] = folded;
  if (words.length === 1 && k.givenNames.has(firstWord)) set('gaz:given_name_only');
  if (words.length >= 2 && words.length <= 3 && k.givenNames.has(firstWord)) {
    set('gaz:given_name_first');
    const lastWord = folded.at(-1) ?? '';
    if (k.surnames.has(lastWord) || !k.commonRank.has(lastWord)) set('gaz:person_shape');
  }
  if (words.length >= 2 && k.surnames.has(folded.at(-1) ?? '') && !k.commonRank.has(secondWord)) set('gaz:surname_last');

  // knowledge: our lists
  const inList = (name: keyof Knowledge['lists']): boolean => k.lists[name].has(whole) || k.lists[name].has(key);
  for (const name of ['platforms', 'stores', 'parentCompanies', 'reviewSources', 'techTerms', 'placeWords', 'calendarWords'] as const) {
    if (inList(name)) set(`list:${name}`);
  }
  // Apps that others integrate with (Slack, Shopify, HubSpot) are products in their own answers:
  // only the context of an integration makes them context.
  const integration = inList('integrationPlatforms');
  if (words.length > 1 && folded.some((word) => k.lists.techTerms.has(word))) set('list:tech_word');
  if (words.length > 1 && (k.lists.stores.has(firstWord) || k.lists.platforms.has(firstWord))) set('list:platform_first_word');
  const labelish = folded.filter((word) => k.lists.labelWords.has(word) || k.lists.functionWords.has(word) || /^\p{N}+$/u.test(word));
  if (labelish.length === folded.length && folded.length > 0) set('list:all_label_words');
  else if (labelish.length > 0) set('list:some_label_words', labelish.length / folded.length);
  if (folded.length > 0 && folded.every((word) => k.lists.functionWords.has(word) || k.lists.imperatives.has(word))) set('list:function_only');
  if (k.lists.imperatives.has(firstWord)) set('list:imperative_first');
  if (folded.some((word) => k.lists.businessWords.has(word))) set('list:business_word');
  if (k.lists.featureNouns.has(folded.at(-1) ?? '') && words.length > 1) set('list:feature_noun_last');
  if (k.lists.placeSuffixes.has(folded.at(-1) ?? '') && words.length > 1) set('list:place_suffix_last');
  if (k.lists.placePrefixes.has(firstWord) && words.length > 1) set('list:place_prefix_first');
  if (k.lists.planSuffixes.has(folded.at(-1) ?? '') && words.length > 1) set('list:plan_suffix_last');

  // everyday words
  const ranks = folded.map((word) => commonRank(k, word));
  const common = ranks.filter((rank) => rank !== undefined).length;
  if (folded.length > 0 && common === folded.length) set(words.length === 1 ? 'common:single' : 'common:all');
  if (common === 0) set('common:none');
  else set('common:fraction', common / Math.max(folded.length, 1));
  if (ranks.some((rank) => rank !== undefined && rank < 1000)) set('common:very_common_word');
  if (context.lowerText.includes(` ${folded.join(' ')} `)) set('written_lower_elsewhere');

  // a brand a maintained collection knows (simple-icons), or a chain that trades in many towns
  // (name-suggestion-index, weaker: its names include everyday words): strong evidence unless it is
  // also an everyday word, and none when our own lists or the gazetteer also know it as a platform,
  // store, place or term ("Android", "Iceland")
  const listedAsContext = f.has('gaz:big_place') || (['platforms', 'stores', 'reviewSources', 'techTerms', 'parentCompanies', 'placeWords'] as const).some((name) => f.has(`list:${name}`));
  const brandKey = knownBrandKey(whole);
  const collection = k.knownBrands.has(brandKey) ? 'gaz:known_brand' : k.chainBrands.has(brandKey) ? 'gaz:chain_brand' : undefined;
  if (collection !== undefined) set(listedAsContext ? `${collection}_listed_as_context` : words.length === 1 && ranks[0] !== undefined ? `${collection}_everyday_word` : collection);
  if (collection !== 'gaz:known_brand' && words.length > 1 && k.knownBrands.has(knownBrandKey(firstWord))) set(ranks[0] === undefined ? 'gaz:known_brand_first_word' : 'gaz:known_brand_everyday_first_word');

  // context around it
  const before = wordsBefore(candidate, 3);
  const after = wordsAfter(candidate, 2);
  // the other names of its enumeration ("A, B or C")
  const neighbours = context.byBlock.get(candidate.block) ?? [];
  const enumeration = enumerationOf(neighbours, neighbours.indexOf(candidate));
  // The words before the first name of an enumeration stand before all of it: "such as A, B and C",
  // "in Shibuya, Ginza or Asakusa".
  const heads = [before, ...enumerationHeads(candidate, enumeration.before)];
  for (const cue of CUE_LISTS) {
    if (heads.some((words) => endsWithCue(words, k.cues[cue]))) set(`before:${cue}`);
  }
  if (integration && f.has('before:platform')) set('integration_in_context');
  if (before.length === 0) set('before:nothing');
  // The everyday words right around it, as words: "in", "at", "with", "offers", "app" say a lot.
  const contextWord = (name: string, word: string | undefined): void => {
    if (word !== undefined && (k.commonRank.get(word) ?? Infinity) < CONTEXT_WORD_RANK) set(`${name}=${word}`);
  };
  contextWord('prev', before.at(-1));
  contextWord('next', after[0]);
  // An enumeration's members share what stands around all of it: "brands like A or B", "the A and B
  // integrations", "joins A, B and C calls".
  const opener = enumeration.before.at(-1);
  if (opener !== undefined) contextWord('enum_prev', wordsBefore(opener, 1)[0]);
  const closer = enumeration.after.at(-1);
  if (closer !== undefined) contextWord('enum_next', wordsAfter(closer, 1)[0]);
  // The noun an enumeration is introduced by stands for all of it: "brands like A, B and C", "a tool
  // such as A", "neighbourhoods like A or B".
  const noun = introducingNoun(enumeration.before.at(-1) ?? candidate);
  if (noun !== undefined) {
    set('intro:any');
    const singular = noun.replace(/(?<=[^s])s$/u, '');
    const nounIn = (list: ReadonlySet<string>): boolean => list.has(noun) || list.has(singular);
    if (nounIn(k.lists.businessWords)) set('intro:business');
    if (nounIn(k.lists.placeWords) || nounIn(k.lists.placeSuffixes) || k.cues.locative.some((cue) => cue.length === 1 && (cue[0] === noun || cue[0] === singular))) set('intro:place');
    if (nounIn(k.lists.featureNouns)) set('intro:feature');
    if (nounIn(k.lists.labelWords)) set('intro:label');
    const rank = commonRank(k, noun) ?? commonRank(k, singular);
    if (rank !== undefined && rank < INTRO_NOUN_RANK) set(`intro=${singular}`);
  }
  if (k.lists.personTitles.has(before.at(-1) ?? '')) set('before:person_title');
  if (before.at(-1) === 'the') set('before:the');
  const next = after[0] ?? '';
  if (k.lists.subjectVerbs.has(next)) set('after:verb');
  if (k.cues.feature.some((cue) => cue[0] === next)) set('after:feature_noun');
  const tail = candidate.block.text.slice(candidate.to, candidate.to + 3);
  if (/^['’]s\b/u.test(tail)) set('after:possessive');
  if (followedByColon(candidate)) {
    set('after:colon');
    // the same `**Label:**` opening two or more items is a field of each pick, not a pick
    if ((context.fieldLabels.get(key) ?? 0) >= 2) set('repeat:field_label');
  }
  if (context.addressed.has(candidate)) set('after:address');
  if (/^\s*\(/u.test(tail)) set('after:paren');
  if (/^\s*[–—-]\s/u.test(tail)) set('after:dash');
  if (candidate.beforeSentence === true) set(candidate.sentenceStart ? 'prose:lost_head' : 'prose:before_sentence');
  if (candidate.slot === 'prose' && candidate.sentenceStart) {
    set('prose:sentence_start');
    if (words.length === 1) set('prose:sentence_start_single');
  }
  if (/\?\s*$/u.test(sentenceAround(candidate))) set('in_question');

  // structure
  const section = fold(candidate.block.section);
  if (section !== '' && containsAny(section, k.lists.adviceSectionWords)) set('section:advice');
  // a "Sources:" line is a sources section of its own
  const sourcesLine = /^\W*\p{L}+\s*:/u.test(candidate.block.text) && containsAny(fold(candidate.block.text.slice(0, 14)), k.lists.sourceSectionWords);
  if (sourcesLine || (section !== '' && containsAny(section, k.lists.sourceSectionWords))) set('section:sources');
  if (/^\s*(?:\[\d+\]|\d+\.)?\s*\S*https?:\/\//u.test(candidate.block.text) || /\[\d+\]/u.test(candidate.block.text.slice(candidate.to, candidate.to + 6))) {
    set('citation_nearby');
  }
  // a citation: `Name — "Title" (domain.com)`
  const rest = candidate.block.text.slice(candidate.to, candidate.to + 200);
  if (/^\s*(?:[—–:,-]\s*)?["“«„]/u.test(rest) || /\((?:https?:\/\/)?(?:www\.)?[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?:\/[^)\s]*)?\)\s*$/u.test(rest)) set('cites_title');
  if (candidate.url !== undefined) {
    const host = hostOf(candidate.url);
    if (host !== '' && key.length >= 3 && host.replace(/[^a-z0-9]/gu, '').includes(key.slice(0, Math.min(key.length, 8)))) set('link:own_domain');
    else if (host !== '') set('link:other_domain');
  }
  if (candidate.block.list !== undefined) {
    if (candidate.block.list.depth > 0) set('list:nested');
    if (candidate.block.list.ordered) set('list:ordered');
    if (candidate.block.list.hasSublist && candidate.block.list.firstParagraph) set(candidate.block.list.sublist === 'details' ? 'list:detailed_head' : 'list:group_head');
  }
  if (candidate.slot === 'heading' && (candidate.block.depth ?? 3) <= 2) set('heading:top_level');
  // a heading over deeper headings or a list of names labels a group; over details or text it heads one pick
  if (candidate.block.over !== undefined) set(`heading:over_${candidate.block.over}`);
  const table = candidate.block.table;
  if (table !== undefined) {
    const header = fold(table.header);
    if (table.column === 0) set(table.row === 0 ? 'table:corner' : 'table:first_column');
    if (containsAny(header, k.lists.nameColumnHeaders)) set('table:name_header');
    if (containsAny(header, k.lists.nonNameColumnWords)) set('table:non_name_header');
    if (containsAny(header, k.lists.makerColumnHeaders)) set('table:maker_header');
  }

  // recurrence
  const seen = context.keys.get(key);
  if (seen !== undefined) {
    set('repeat:log_count', Math.log2(seen.count));
    if (structural && seen.prose > 0) set('repeat:also_in_prose');
    if (!structural && seen.structural > 0) set('repeat:also_in_slot');
    if (seen.midSentence > 0) set('repeat:mid_sentence_somewhere');
    if (seen.formatted > 0 && !candidate.formatted) set('repeat:formatted_elsewhere');
    // placed on a street somewhere (a business), or after "in"/"à"/"em" somewhere (often a district)
    if (seen.address > 0) set('repeat:address_somewhere');
    if (seen.locative > 0) set('repeat:after_locative_somewhere');
  }
  if (words.length === 1 && (context.firstWords.get(firstWord) ?? 0) > 0) set('maker_of_other_candidate');
  if (context.brandKey !== undefined && key === context.brandKey) set('is_audited_brand');

  // enumerations: "Acme Fiber, Globex Net or Initech Broadband"
  const textBefore = candidate.block.text.slice(Math.max(0, candidate.from - 40), candidate.from);
  const textAfter = candidate.block.text.slice(candidate.to, candidate.to + 12);
  const listedBefore = /[\p{Lu}\p{N}][\p{L}\p{N}.'’&+-]*\)?\s*(?:,|\s(?:or|and|y|o|ou|e|et|und|oder|&))\s+$/u.test(textBefore);
  const listedAfter = /^['’]?s?\s*(?:,|\s(?:or|and|y|o|ou|e|et|und|oder|&))\s+[\p{Lu}\p{N}]/u.test(textAfter);
  if (listedBefore || listedAfter) set('enumerated');
  if (listedBefore && listedAfter) set('enumerated_both_sides');
  if (!structural && !candidate.sentenceStart) set('prose:mid_sentence');
  // what the other members of its enumeration are: a name listed with known brands, or with places
  for (const member of [...enumeration.before, ...enumeration.after]) {
    const memberKey = knownBrandKey(member.surface);
    if (k.knownBrands.has(memberKey)) set('listed_with_known_brand');
    const memberWhole = fold(member.surface);
    if (k.bigPlaces.has(memberWhole) || k.places.has(memberWhole)) set('listed_with_place');
  }
  // its next names on either side
  for (const neighbour of [enumeration.before[0], enumeration.after[0]]) {
    if (neighbour === undefined) continue;
    set('listed_with_candidate');
    const other = context.keys.get(compactBrandKey(neighbour.surface));
    if (other !== undefined && other.structural > 0 && other.formatted > 0) set('listed_with_slot_name');
  }
  if (!structural) {
    if (candidate.block.list !== undefined) set('prose:in_list_item');
    if (candidate.block.table !== undefined) set('prose:in_table');
    if (candidate.block.kind === 'heading') set('prose:in_heading');
    if (context.slots === 0) set('prose:answer_without_slots');
    else if (candidate.block.list === undefined && candidate.block.table === undefined) set('prose:free_paragraph');
  }
  // clean evidence of a name: nothing in the knowledge files knows these words
  let known = false;
  for (const name of f.keys()) {
    if (KNOWN_FEATURES.test(name)) {
      known = true;
      break;
    }
  }
  if (!known) {
    set('unknown_words');
    if (!structural && !candidate.sentenceStart) set('prose:unknown_mid_sentence');
    if (!structural && candidate.sentenceStart && f.has('after:verb')) set('prose:unknown_subject');
  }
  if (SUPERLATIVES.has(firstWord)) set('shape:superlative_first');
  // a title: "Best Noise-Cancelling Headphones", "Top Picks", "Budget Laptops"
  if (words.length > 1 && (SUPERLATIVES.has(firstWord) || k.lists.labelWords.has(firstWord)) && /\p{Ll}{2,}s$/u.test(lastWord) && (commonRank(k, lastWord) !== undefined || commonRank(k, lastWord.replace(/e?s$/u, '')) !== undefined)) set('shape:title_phrase');
  else if (/^\p{L}{3,}est$/u.test(firstWord) && (k.commonRank.has(firstWord.slice(0, -3)) || k.commonRank.has(firstWord.slice(0, -2)) || k.commonRank.has(`${firstWord.slice(0, -4)}y`))) set('shape:superlative_first');


  return f;
}

/** A word's rank among everyday words; a hyphenated word is everyday when all its parts are. */
function commonRank(k: Knowledge, word: string): number | undefined {
  const bare = word.replace(/['’]s$/u, '');
  const rank = k.commonRank.get(bare);
  if (rank !== undefined || !bare.includes('-')) return rank;
  const parts = bare.split('-').map((part) => k.commonRank.get(part));
  return parts.every((part) => part !== undefined) ? Math.max(...(parts as number[])) : undefined;
}

const phraseCache = new Map<string, boolean>();

/** Whether the text holds one of the phrases (of up to three words) as whole words. Cached. */
function containsAny(text: string, phrases: ReadonlySet<string>): boolean {
  const cacheKey = `${phrases.size}\u0000${text}`;
  const cached = phraseCache.get(cacheKey);
  if (cached !== undefined) return cached;
  const words = text.match(/[\p{L}\p{N}'’?]+/gu) ?? [];
  let found = false;
  for (let index = 0; index < words.length && !found; index += 1) {
    let phrase = '';
    for (let length = 0; length < 3 && index + length < words.length; length += 1) {
      phrase = length === 0 ? (words[index] ?? '') : `${phrase} ${words[index + length] ?? ''}`;
      if (phrases.has(phrase)) {
        found = true;
        break;
      }
    }
  }
  if (phraseCache.size > 5000) phraseCache.clear();
  phraseCache.set(cacheKey, found);
  return found;
}

function wordsBefore(candidate: Candidate, count: number): string[] {
  const text = candidate.block.text.slice(Math.max(0, candidate.from - 60), candidate.from);
  const sentence = text.split(/[.!?;:\n]\s/u).at(-1) ?? '';
  return (sentence.match(WORD) ?? []).slice(-count).map(fold);
}

/** Words that introduce examples after a noun: "brands like", "tools such as", "marques comme". */
const INTRODUCERS: readonly string[][] = [['like'], ['such', 'as'], ['including'], ['from'], ['namely'], ['wie'], ['etwa'], ['comme'], ['como'], ['tipo'], ['tels', 'que'], ['telles', 'que'], ['tales', 'como'], ['incluindo'], ['incluyendo'], ['notamment'], ['inklusive']];
/** Nouns before an introducer taken as words of their own: the 5,000 commonest (never a name). */
const INTRO_NOUN_RANK = 5000;

/** The lower-case noun before "like", "such as", "including"… that introduces the candidate, if any. */
function introducingNoun(first: Candidate): string | undefined {
  const before = wordsBefore(first, 4);
  for (const introducer of INTRODUCERS) {
    if (!endsWithCue(before, [introducer])) continue;
    const noun = before[before.length - introducer.length - 1];
    return noun !== undefined && /^\p{L}{3,}$/u.test(noun) ? noun : undefined;
  }
  return undefined;
}

function wordsAfter(candidate: Candidate, count: number): string[] {
  const text = candidate.block.text.slice(candidate.to, candidate.to + 40);
  if (/^[^\p{L}\p{N}\s]/u.test(text) && !/^['’]s/u.test(text)) return [];
  return (text.match(WORD) ?? []).slice(0, count).map(fold);
}

/** The words before each earlier name (up to eight, nearest first) of the enumeration the candidate closes ("such as A, B and C"). */
function enumerationHeads(candidate: Candidate, earlier: readonly Candidate[]): string[][] {
  return earlier
    .slice(0, 8)
    .map((previous) => {
      const text = candidate.block.text.slice(Math.max(0, previous.from - 40), previous.from);
      return (text.split(/[.!?;:\n]\s/u).at(-1)?.match(WORD) ?? []).slice(-3).map(fold);
    });
}

function endsWithCue(before: readonly string[], cues: readonly string[][]): boolean {
  return cues.some((cue) => cue.length <= before.length && cue.every((word, index) => before[before.length - cue.length + index] === word));
}

function sentenceAround(candidate: Candidate): string {
  const text = candidate.block.text;
  const end = text.slice(candidate.to).search(/[.!?](?:\s|$)/u);
  return end === -1 ? text.slice(candidate.to) : text.slice(candidate.to, candidate.to + end + 1);
}

function hostOf(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/iu.exec(url);
  return match?.[1]?.toLowerCase().replace(/^www\./u, '') ?? '';
}

export type { CueList };

/** The other candidates of the enumeration a candidate stands in ("A, B or C"): those before it and those after it, nearest first. */
function enumerationOf(neighbours: readonly Candidate[], position: number): { before: Candidate[]; after: Candidate[] } {
  const walk = (step: -1 | 1): Candidate[] => {
    const members: Candidate[] = [];
    let current = position;
    for (;;) {
      const here = neighbours[current];
      const next = neighbours[current + step];
      if (here === undefined || next === undefined) break;
      if (!(step > 0 ? enumerated(here, next) : enumerated(next, here))) break;
      members.push(next);
      current += step;
    }
    return members;
  };
  return { before: walk(-1), after: walk(1) };
}
