// Decides what a run of capitalised words in running text is: a name (accepted), a possible name
// that needs support from elsewhere (weak), or not a name at all (null).

import {
  continuesList,
  isAppositiveAfter,
  isContextAfter,
  isContextBefore,
  isFeatureAttribute,
  isPersonBefore,
  isRecommendBefore,
  isSentenceInitial,
  lastClause,
  lastWord,
} from './context-cues.js';
import {
  BUSINESS_WORDS,
  CALENDAR_WORDS,
  IMPERATIVE_VERBS,
  PARENT_COMPANIES,
  PLACE_PREFIXES,
  PLATFORM_NAMES,
  STORE_NAMES,
  SUBJECT_VERBS,
  foldWord,
} from './lexicon.js';
import type { MarkdownLayout } from './markdown-structure.js';
import type { Mention, TextRegion, Verdict } from './mention.js';
import {
  endsLikeRoute,
  inLexicon,
  isAllGeneric,
  isCommonWord,
  isFunctionWord,
  isGenericWord,
  isPersonTitle,
  isPlaceName,
  isReferenceOrTerm,
  looksLikePerson,
} from './name-shape.js';
import type { Token } from './tokens.js';
import { hasStrongShape, isModelNumber, isPossessive, stripPossessive } from './tokens.js';

/** Joining words kept inside a run: "Ciudad de México", "Bank of America". */
export const RUN_CONNECTORS: ReadonlySet<string> = new Set(['of', 'de', 'del']);

const ARTICLES = new Set(['the', 'a', 'an', 'el', 'la', 'los', 'las', 'un', 'una', 'i']);
// Words that may follow a name at the head of a list item: "- Todoist for simple lists".
const ITEM_HEAD_FOLLOWERS = new Set(['for', 'if', 'when', 'because', 'since', 'but', 'or', 'and', 'para', 'si']);

/** What the previous runs of a region said, for names listed after a cue ("with A, B and C"). */
export interface RunState {
  contextEnd: number;
  personEnd: number;
}

/** Judges one run of name-like tokens found in a prose or description region. */
export function judgeRun(layout: MarkdownLayout, region: TextRegion, run: readonly Token[], state: RunState): Mention | null {
  const startsSentence = run[0] !== undefined && isSentenceInitial(layout.plain, region.start, run[0].start);
  const { words, trimmedFront } = trimRun(run, startsSentence);
  const head = words[0];
  const tail = words[words.length - 1];
  if (head === undefined || tail === undefined) return null;

  const texts = words.map((word) => word.text);
  const initial = !trimmedFront && startsSentence;
  const after = layout.plain.slice(tail.end, Math.min(region.end, tail.end + 80));
  const before = layout.plain.slice(Math.max(region.start, head.start - 120), head.start);
  // Cues are short, so the last 64 characters of the clause are enough and keep the regexes cheap.
  const clauseBefore = foldWord(lastClause(before).slice(-64));
  // "Amazon's ecosystem" is a genitive; "Arthur Bryant's, the legendary spot" and "Vito & Nick's is"
  // are names that end in a possessive.
  const wordAfter = /^\s+(\p{Ll}[\p{L}'’-]*)/u.exec(after)?.[1] ?? '';
  const genitive =
    isPossessive(tail.text) && wordAfter !== '' && !SUBJECT_VERBS.has(foldWord(wordAfter)) && !isFunctionWord(wordAfter);
  const surface = layout.source
    .slice(head.start, genitive ? tail.end - 2 : tail.end)
    .replace(/\s+/gu, ' ')
    .trim();
  if (surface === '') return null;
  const make = (verdict: Verdict): Mention => ({ surface, start: head.start, source: region.kind, verdict });
  const appositive = isAppositiveAfter(after);

  if (isAllGeneric(texts.map(stripPossessive))) {
    // "Step, a fee-free account": an appositive makes even an everyday word a name.
    return appositive && texts.length === 1 && !isFunctionWord(head.text) ? make('accept') : null;
  }
  if (isPerson(layout, texts, before, clauseBefore, head, isPossessive(tail.text) && !genitive, state)) {
    state.personEnd = tail.end;
    return null;
  }
  if (isPlaceName(surface) || isPlaceName(stripPossessive(surface)) || endsLikeRoute(surface) || isReferenceOrTerm(surface)) {
    return null;
  }
  if (texts.length >= 2 && PLACE_PREFIXES.has(foldWord(texts[0] ?? ''))) return null;
  const listedAfterContext = state.contextEnd !== -1 && continuesList(layout.plain.slice(state.contextEnd, head.start));
  if (listedAfterContext || isContextBefore(clauseBefore) || isContextAfter(after)) {
    state.contextEnd = tail.end;
    return null;
  }
  if (!genitive && isFeatureAttribute(after)) return null;
  // "MVNOs", "URLs": plural acronyms are categories; weekdays and months are capitalised anyway.
  if (texts.length === 1 && (/^\p{Lu}{2,}s$/u.test(head.text) || CALENDAR_WORDS.has(foldWord(head.text)))) return null;

  const nextWord = genitive ? '' : (/^\s+([\p{L}'’-]+)/u.exec(after)?.[1] ?? '');
  const subject = nextWord !== '' && SUBJECT_VERBS.has(foldWord(nextWord));
  // Platforms, stores and parents count only when the answer discusses them ("Etsy is…").
  if (isContextCompany(surface)) return subject ? make('accept') : null;
  if (texts.length === 1 && !initial && isGenericWord(head.text)) return appositive ? make('accept') : null;

  const strong = texts.some((word) => hasStrongShape(word));
  const allCommon = texts.every((word) => isCommonWord(word));
  let verdict: Verdict = 'accept';
  if (initial && texts.length === 1) {
    // "- Todoist for simple lists": a list item's first word sits where names go, unless a verb
    // follows ("- Integrates with Slack").
    const itemHead =
      region.listItem === true &&
      head.start === firstLetterAt(layout.plain, region) &&
      (nextWord === '' || ITEM_HEAD_FOLLOWERS.has(foldWord(nextWord)) || subject);
    // "Asana's free plan": an owner's possessive at a sentence start is a name, unlike "Today's".
    const owner = genitive && !allCommon;
    const evidence = strong || owner || (itemHead && !allCommon) || (appositive && !isFunctionWord(head.text)) || (subject && !allCommon);
    verdict = evidence ? 'accept' : 'weak';
  } else if (initial) {
    verdict = !allCommon || subject ? 'accept' : 'weak';
  }
  // In a description of another item, only strong evidence makes a new entry.
  if (region.kind === 'description' && verdict === 'accept' && !strong && !appositive && !isRecommendBefore(clauseBefore)) {
    verdict = 'weak';
  }
  // A name inside a question to the reader ("Do you own Canon or Sony lenses?") is not a pick.
  if (verdict === 'accept' && endsAsQuestion(layout.plain, tail.end, region.end)) verdict = 'weak';
  return make(verdict);
}

// Drops words that open a run without being part of the name ("The", "If", "I'd", an imperative at
// a sentence start, a leading number) and trailing connectors, and a maker's possessive before a
// product ("Apple's MacBook Air M3" → "MacBook Air M3", "Vanguard's VTSAX" → "VTSAX").
function trimRun(run: readonly Token[], startsSentence: boolean): { words: Token[]; trimmedFront: boolean } {
  let first = 0;
  while (first < run.length && isLeadingNoise(run[first]?.text ?? '', startsSentence)) first += 1;
  let last = run.length - 1;
  while (last > first && RUN_CONNECTORS.has(foldWord(run[last]?.text ?? ''))) last -= 1;
  let words = run.slice(first, last + 1);
  const owner = words.findIndex((word, index) => index < words.length - 1 && isPossessive(word.text));
  if (owner !== -1) {
    const possessor = words.slice(0, owner + 1).map((word) => stripPossessive(word.text)).join(' ');
    const product = words[owner + 1];
    // An all-caps ticker or model closing the run counts too ("VTSAX"), but not a business word ("Slap's BBQ").
    const closingCode =
      product !== undefined &&
      owner + 1 === words.length - 1 &&
      /^\p{Lu}{2,}$/u.test(product.text) &&
      !BUSINESS_WORDS.has(foldWord(product.text)) &&
      !isGenericWord(product.text);
    const productLike = product !== undefined && (hasStrongShape(product.text) || closingCode);
    if (product !== undefined && (isContextCompany(possessor) || productLike)) words = words.slice(owner + 1);
  }
  return { words, trimmedFront: words[0] !== run[0] };
}

// Capitals prove nothing at a sentence start, so "If", "Only" or "Start" there are dropped; elsewhere
// only articles are, since a capitalised "Just" mid-sentence is part of a name ("Just Eat").
function isLeadingNoise(word: string, startsSentence: boolean): boolean {
  if (isModelNumber(word)) return true;
  if (hasStrongShape(word)) return false;
  if (startsSentence && IMPERATIVE_VERBS.has(foldWord(word))) return true;
  if (!isFunctionWord(word)) return false;
  return startsSentence || ARTICLES.has(foldWord(word)) || /['’]/u.test(word);
}

function isPerson(
  layout: MarkdownLayout,
  texts: readonly string[],
  before: string,
  clauseBefore: string,
  head: Token,
  standalonePossessive: boolean,
  state: RunState,
): boolean {
  // "Chef José Avillez", "writer Calvin Trillin", "hosted by Conan O'Brien".
  if (texts.length >= 2 && isPersonTitle(texts[0] ?? '')) return true;
  if (isPersonTitle(lastWord(before)) || isPersonBefore(clauseBefore)) return true;
  if (looksLikePerson(texts, standalonePossessive)) return true;
  // "Gordon Ramsay and Serena Williams": a name-shaped run listed right after a person.
  const nextToPerson = state.personEnd !== -1 && continuesList(layout.plain.slice(state.personEnd, head.start));
  return nextToPerson && texts.length >= 2 && texts.length <= 3 && texts.every((word) => /^\p{Lu}\p{Ll}/u.test(word));
}

function isContextCompany(name: string): boolean {
  return inLexicon(PLATFORM_NAMES, name) || inLexicon(STORE_NAMES, name) || inLexicon(PARENT_COMPANIES, name);
}

// Whether the sentence that goes on at `from` ends with "?", ignoring quoted speech ("Hi, may I help you?").
function endsAsQuestion(plain: string, from: number, to: number): boolean {
  const rest = plain.slice(from, Math.min(to, from + 400)).replace(/"[^"\n]*"|“[^”\n]*”/gu, '');
  return /^[^.!?\n]*\?/u.test(rest);
}

function firstLetterAt(plain: string, region: TextRegion): number {
  const match = /[\p{L}\p{N}]/u.exec(plain.slice(region.start, region.end));
  return match === null ? -1 : region.start + match.index;
}
