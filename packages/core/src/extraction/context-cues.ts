// The words around a capitalised run that tell what it is: something the product works with or is
// sold on ("syncs with Strava"), a person ("writer Calvin Trillin"), a recommendation ("pair it
// with"), a named feature ("the Steer Clear program"). Cue texts are folded (lower case, no accents).

import { FEATURE_NOUNS, SUBJECT_VERBS } from './lexicon.js';
import { isFunctionWord } from './name-shape.js';

const ARTICLE_AFTER_CUE = String.raw`\s+(?:the\s+|your\s+|an?\s+|el\s+|la\s+|los\s+|las\s+|tu\s+)?$`;

// Before a name that only gives context: platforms, integrations, parents, stores, sources, places.
const CONTEXT_CUES = [
  String.raw`(?:syncs?|synced|syncing|works?|worked|working|compatible|integrat(?:es|ed|ing|ions?)|connects?|connected|connecting|plays?\s+(?:nicely|well)|talks?)\s+(?:well\s+|directly\s+|natively\s+|seamlessly\s+|fine\s+)?(?:with|to|into)`,
  String.raw`built[- ]in|built\s+into|powered\s+by|runs?\s+on|running\s+on`,
  String.raw`part\s+of|owned\s+by|subsidiary\s+of|acquired\s+by|made\s+by|backed\s+by`,
  String.raw`(?:sold|available|listed|stocked)\s+(?:exclusively\s+|only\s+|online\s+)?(?:at|on|through|via|from|in)`,
  String.raw`(?:sell|selling|sells|book|booking|buy|buying|shop|shopping|stream|streaming|watch|watching|download|downloading)\b[^,;]{0,30}?\b(?:through|via|on|at|from)`,
  String.raw`(?:compare|comparing)\s+(?:\w+\s+){0,2}(?:on|at|using)`,
  String.raw`(?:free|included|bundled|offered)\s+(?:through|via|with)`,
  String.raw`(?:stores?|shops?|retailers?|marketplaces?)\s+(?:like|such\s+as|including)`,
  String.raw`according\s+to|(?:reports?|reviews?|ratings?|rankings?|measurements|tests?)\s+(?:from|by|on|at)`,
  String.raw`(?:firms?|sources?|sites?|outlets?|publications?)\s+(?:like|such\s+as)`,
  String.raw`(?:stay|staying|located|based|situated)\s+(?:in|near|around)`,
  String.raw`(?:neighbou?rhoods?|areas?|districts?|partners?)\s+(?:like|such\s+as|including)`,
  // Spanish
  String.raw`(?:compatible|integra(?:cion)?|funciona|sincroniza)\s+con|(?:disponible|vendido|se\s+vende)\s+en`,
  String.raw`a\s+traves\s+de|parte\s+de|cerca\s+de|(?:barrios?|zonas?|tiendas?)\s+como`,
  String.raw`(?:compara|comparar)\s+(?:\w+\s+){0,2}(?:en|con)|(?:gratis|incluido)\s+(?:con|a\s+traves\s+de)`,
];
const CONTEXT_BEFORE = new RegExp(String.raw`\b(?:${CONTEXT_CUES.join('|')})${ARTICLE_AFTER_CUE}`, 'u');

// After a name: a component or integration ("OverDrive built in", "Alexa support").
const CONTEXT_AFTER =
  /^(?:['’]s)?\s*(?:built[- ]in\b|integrations?\b|compatibility\b|support\b|-compatible|-certified|certified\b|certification\b)/u;

// Before a name in a description: the answer points the reader at it.
const RECOMMEND_CUES = [
  String.raw`try|trying|consider|considering|use|using|buy|buying|choose|choosing|pick|skip|avoid|recommend`,
  String.raw`pair(?:s|ed|ing)?(?:\s+(?:it|them|this|that))?(?:\s+(?:well|nicely))?\s+with|look\s+at|check\s+out`,
  String.raw`go(?:ing)?\s+with|opt\s+for|than|vs\.?|versus|instead\s+of|compared\s+(?:to|with)`,
  String.raw`alternatives?(?:\s+(?:to|like|such\s+as))?|like|such\s+as|including|competitors?(?:\s+to)?|rivals?`,
  String.raw`prueba|considera|usa|como|frente\s+a|en\s+lugar\s+de|en\s+vez\s+de`,
];
const RECOMMEND_BEFORE = new RegExp(String.raw`\b(?:${RECOMMEND_CUES.join('|')})${ARTICLE_AFTER_CUE}`, 'u');

const PERSON_BEFORE =
  /\b(?:created|narrated|founded|hosted|written|led|run|designed|curated|taught|directed|voiced|read|creado|fundado|dirigido)\s+(?:by|por)\s+$/u;
const APPOSITIVE_AFTER = /^\s*,\s*(?:a|an|the|un|una|el|la)\s/iu;
const CONTINUED_LIST = /^[\s,]*(?:(?:and|or|y|o|&|plus|as\s+well\s+as)\s+)?$/u;
const LIST_JOIN = /^\s*(?:,\s*(?:(?:and|or|y|o)\s+)?|(?:and|or|y|o|&)\s+)$/u;
const CLAUSE_BREAK = /[.;:!?()\n—–→|]/u;
const ABBREVIATIONS = /(?:^|[\s(])(?:mr|mrs|ms|dr|st|vs|e\.g|i\.e|approx|incl|no|sr|sra|jr)$/iu;

/** Whether the folded clause before a name makes it context ("works with", "sold at", "stores like"). */
export function isContextBefore(clauseBefore: string): boolean {
  return CONTEXT_BEFORE.test(clauseBefore);
}

/** Whether the text after a name makes it a component or integration ("built in", "support"). */
export function isContextAfter(after: string): boolean {
  return CONTEXT_AFTER.test(after.toLowerCase());
}

/** Whether the folded clause before a name points the reader at it ("try", "pair it with", "than"). */
export function isRecommendBefore(clauseBefore: string): boolean {
  return RECOMMEND_BEFORE.test(clauseBefore);
}

/** Whether the folded clause before a name introduces a person ("created by", "hosted by"). */
export function isPersonBefore(clauseBefore: string): boolean {
  return PERSON_BEFORE.test(clauseBefore);
}

/** Whether an appositive follows the name: "Step, a fee-free card". */
export function isAppositiveAfter(after: string): boolean {
  return APPOSITIVE_AFTER.test(after);
}

/** Whether the gap continues a list begun by the previous name ("with A, B and C"). */
export function continuesList(gap: string): boolean {
  return CONTINUED_LIST.test(gap);
}

/** Whether the gap joins two names of one list: ", ", " and ", ", or ". */
export function joinsList(gap: string): boolean {
  return LIST_JOIN.test(gap);
}

/** "Steer Clear program", "Z-Man sandwich", "Snapshot usage-based program": a named feature or dish. */
export function isFeatureAttribute(after: string): boolean {
  const words = /^\s+(\p{Ll}[\p{Ll}-]*)(?:\s+(\p{Ll}[\p{Ll}-]*))?/u.exec(after);
  if (words === null) return false;
  const first = words[1] ?? '';
  const second = words[2] ?? '';
  if (FEATURE_NOUNS.has(first)) return true;
  // One modifier, then the noun ("lounge access"); a first word in -s is likelier a verb ("adds buttons").
  const modifier = first.includes('-') || !first.endsWith('s');
  return modifier && FEATURE_NOUNS.has(second) && !SUBJECT_VERBS.has(first) && !isFunctionWord(first);
}

/** Whether the word at `position` starts a sentence, where a capital proves nothing. */
export function isSentenceInitial(plain: string, regionStart: number, position: number): boolean {
  let index = position - 1;
  // Quotes, markup leftovers and symbols such as emoji bullets ("✅ Pair it with…") are skipped.
  while (index >= regionStart && /[ \t"“‘'¡¿*_\p{So}\p{Sk}\uFE0F\u200D]/u.test(plain[index] ?? '')) index -= 1;
  if (index < regionStart) return true;
  const previous = plain[index] ?? '';
  if (/[!?:;\n—–→|•]/u.test(previous)) return true;
  if (previous === '-') return /\s/u.test(plain[index - 1] ?? ' ');
  if (previous !== '.') return false;
  return !ABBREVIATIONS.test(plain.slice(Math.max(regionStart, index - 8), index));
}

/** The text after the last clause break (".", ";", ":", "—", …). */
export function lastClause(text: string): string {
  let index = text.length - 1;
  while (index >= 0 && !CLAUSE_BREAK.test(text[index] ?? '')) index -= 1;
  return text.slice(index + 1);
}

/** The last word of a text, ignoring trailing spaces. */
export function lastWord(text: string): string {
  let end = text.length;
  while (end > 0 && /\s/u.test(text[end - 1] ?? '')) end -= 1;
  let start = end;
  while (start > 0 && /[\p{L}.'’-]/u.test(text[start - 1] ?? '')) start -= 1;
  return text.slice(start, end);
}
