// Reads the check's three answers. Real models answer more loosely than asked ("**Yes**,", "I'm not
// familiar with…", a list with an intro, descriptions after dashes and an outro), so every reader
// tolerates markdown and looks for structure before falling back to phrases.

import { explainExtraction, normalizeBrandKey } from '../extraction/index.js';
import { BLIND_LIST_SIZE } from './prompts.js';

export type RecommendVerdict = 'yes' | 'no' | 'unsure';

export interface RecognitionReading {
  knows: boolean;
  /** The model's own words minus the leading Yes/No marker; empty when it does not know the brand. */
  description: string;
}

export interface RecommendationReading {
  verdict: RecommendVerdict;
  /** The model's reason, verbatim (minus the leading verdict word). */
  reason: string;
}

/** A leading word and what it decides; `strip` says whether the word is a marker to drop or part of a sentence. */
interface Opener<T> {
  pattern: RegExp;
  value: T;
  strip: boolean;
}

// Markdown, quotes and list marks that may come before the first word: "**Yes**", "> Yes", "# Yes".
const LEADING_NOISE = /^[\s>#*_"'“‘`]*/u;
// A label some models put before the verdict: "**Answer:** Yes", "Verdict: No".
const VERDICT_LABEL =
  /^(?:short\s+answer|my\s+answer|answer|verdict|recommendation|respuesta\s+corta|respuesta|veredicto|recomendaci[oó]n)\s*[*_]*\s*[:：]\s*[*_]*\s*/iu;
// A word ends at a non-letter; "No-code" and "Notion" are not "No".
const WORD_END = String.raw`(?![\p{L}\p{N}]|-[\p{L}\p{N}])`;
// "Si" without its accent opens Spanish conditionals ("Si buscas…"): it counts only before punctuation.
const BARE_SI = String.raw`si(?=\s*[,.;:!—–*]|\s+-\s|\s*$)`;

function opener<T>(source: string, value: T, strip: boolean): Opener<T> {
  return { pattern: new RegExp(`^(?:${source})${WORD_END}`, 'iu'), value, strip };
}

const RECOGNITION_OPENERS: readonly Opener<boolean>[] = [
  opener(`yes|yeah|yep|yup|sí|${BARE_SI}`, true, true),
  opener('no|nope', false, true),
];

// Phrases that say the model does not know the brand, for answers without a Yes/No marker.
const DOES_NOT_KNOW: readonly RegExp[] = [
  /\bnot\s+(?:familiar|aware|acquainted)\b/iu,
  /\b(?:do\s+not|don['’]t|does\s+not|doesn['’]t)\s+(?:have|possess|hold)\s+(?:any\s+|specific\s+|reliable\s+|detailed\s+|enough\s+|verified\s+|concrete\s+)*(?:information|knowledge|details|data|records?)\b/iu,
  /\b(?:do\s+not|don['’]t|can\s*not|can['’]t|could\s+not|couldn['’]t|am\s+unable\s+to|['’]m\s+unable\s+to)\s+(?:know|recogni[sz]e|find|identify|locate|confirm|verify)\b/iu,
  /\b(?:have\s+not|haven['’]t|never)\s+(?:heard|come\s+across)\b/iu,
  /\bno\s+(?:information|knowledge|record|records|details|data)\s+(?:about|on|of|regarding)\b/iu,
  /\bdoes(?:\s+not|n['’]t)\s+ring\s+a\s+bell\b/iu,
  /\bnot\s+sure\s+(?:what|which|who)\b/iu,
  /\bnot\s+that\s+i\s+(?:know|am\s+aware|['’]m\s+aware)\b/iu,
  /\bnot\s+that\s+i\s+(?:know|am\s+aware|['’]m\s+aware)\b/iu,
  /\bno\s+(?:conozco|reconozco|me\s+suena|estoy\s+familiarizad[oa]|tengo\s+(?:informaci[oó]n|datos|conocimiento|registro)|he\s+o[ií]do|encuentro|dispongo)/iu,
  /\bdesconozco\b/iu,
];

/** Reads "do you know the brand?": Yes/No markers first, then phrases such as "I'm not familiar with…". */
export function parseRecognitionAnswer(text: string): RecognitionReading {
  const answer = text.trim();
  if (answer === '') return { knows: false, description: '' };
  const opened = readOpener(answer, RECOGNITION_OPENERS);
  if (opened !== null) return opened.value ? { knows: true, description: opened.rest } : { knows: false, description: '' };
  // Without a marker, the opening sentences decide, up to the first that describes something ("X is a …"):
  // a description may go on to say the model lacks details such as current prices.
  for (const sentence of openingSentences(answer)) {
    if (DOES_NOT_KNOW.some((pattern) => pattern.test(sentence))) return { knows: false, description: '' };
    if (DESCRIBES.test(sentence)) break;
  }
  return { knows: true, description: answer };
}

const DESCRIBES = /\b(?:is|are|was|were|es|son|fue|era)\s+(?:a|an|the|one|un|una|uno|el|la|los|las)\b/iu;

/** The first few sentences of an answer, within its first 300 characters. */
function openingSentences(answer: string): string[] {
  return (answer.slice(0, 300).match(/[^.!?\n]+(?:[.!?]+|$)/gu) ?? []).slice(0, 4);
}

const RECOMMENDATION_OPENERS: readonly Opener<RecommendVerdict>[] = [
  // Unsure before no: "No estoy seguro", "Not sure" start like a no.
  opener(String.raw`no\s+estoy\s+segur[oa]|not\s+sure|unsure|uncertain|maybe|perhaps|possibly|tal\s+vez|quiz[aá]s?|depende|depends|incierto|incierta`, 'unsure', true),
  opener(String.raw`yes\s+and\s+no|s[ií]\s+y\s+no|it\s+depends|hard\s+to\s+say|difficult\s+to\s+say|(?:i['’]m|i\s+am)\s+not\s+sure|no\s+lo\s+s[eé]`, 'unsure', false),
  opener('no|nope', 'no', true),
  opener(
    String.raw`not\s+really|not\s+recommended|i\s+would\s+not|i\s+wouldn['’]t|i\s+do\s+not\s+recommend|i\s+don['’]t\s+recommend|i\s+can\s*not\s+recommend|i\s+can['’]t\s+recommend`,
    'no',
    false,
  ),
  opener(`yes|yeah|yep|yup|sí|${BARE_SI}`, 'yes', true),
  opener(String.raw`definitely|absolutely|certainly|i\s+would\s+recommend|i['’]d\s+recommend|i\s+recommend|highly\s+recommended|recommended`, 'yes', false),
];

// For answers that open without a verdict: what the first sentences say, negative readings first.
const SAYS_NO: readonly RegExp[] = [
  /\b(?:would\s+not|wouldn['’]t|can\s*not|can['’]t|do\s+not|don['’]t|could\s+not|couldn['’]t)\s+(?:personally\s+|really\s+)?recommend\b/iu,
  /\bnot\s+recommend(?:ed)?\b/iu,
  /\bno\s+(?:l[oa]\s+)?(?:recomendar[ií]a|recomiendo|puedo\s+recomendar)/iu,
];
const SAYS_UNSURE: readonly RegExp[] = [
  /\b(?:not\s+sure|unsure|uncertain|it\s+depends|depends\s+(?:on|heavily)|hard\s+to\s+say|difficult\s+to\s+say|can['’]t\s+say|cannot\s+say)\b/iu,
  /\b(?:no\s+estoy\s+segur[oa]|depende\s+de|no\s+puedo\s+(?:decir|asegurar))/iu,
];
const SAYS_YES: readonly RegExp[] = [
  /\b(?:would|['’]d|do|can|could)\s+(?:definitely\s+|certainly\s+|strongly\s+|highly\s+)?recommend\b/iu,
  /\b(?:highly|strongly)\s+recommend/iu,
  /\b(?:s[ií],?\s+)?(?:l[oa]\s+)?(?:recomendar[ií]a|recomiendo)\b/iu,
];

/** Reads "would you recommend it?": the leading Yes/No/Unsure (any case, bold, Spanish), then phrases. */
export function parseRecommendationAnswer(text: string): RecommendationReading {
  const answer = text.trim();
  const opened = readOpener(answer, RECOMMENDATION_OPENERS, { keepSentence: true });
  if (opened !== null) return { verdict: opened.value, reason: opened.rest };
  const opening = answer.slice(0, 240);
  // A model that will not commit is recorded as unsure: that is what the answer amounts to for a buyer.
  const verdict: RecommendVerdict = SAYS_NO.some((pattern) => pattern.test(opening))
    ? 'no'
    : SAYS_UNSURE.some((pattern) => pattern.test(opening))
      ? 'unsure'
      : SAYS_YES.some((pattern) => pattern.test(opening))
        ? 'yes'
        : 'unsure';
  return { verdict, reason: answer };
}

/**
 * Finds a leading marker after markdown and an optional "Answer:" label; returns its value and the rest
 * verbatim. With `keepSentence`, a marker that runs straight into its sentence ("No lo recomendaría…",
 * "Yes I would") is kept as part of it.
 */
function readOpener<T>(
  answer: string,
  openers: readonly Opener<T>[],
  options: { keepSentence?: boolean } = {},
): { value: T; rest: string } | null {
  let offset = LEADING_NOISE.exec(answer)?.[0].length ?? 0;
  const label = VERDICT_LABEL.exec(answer.slice(offset));
  if (label !== null) offset += label[0].length;
  const head = answer.slice(offset);
  for (const candidate of openers) {
    const match = candidate.pattern.exec(head);
    if (match === null) continue;
    if (!candidate.strip) return { value: candidate.value, rest: answer };
    if (options.keepSentence === true && /^\s+\p{L}/u.test(head.slice(match[0].length))) return { value: candidate.value, rest: answer };
    return { value: candidate.value, rest: afterMarker(head.slice(match[0].length)) };
  }
  return null;
}

// Closing bold, the dash or comma after the marker, and the space: "**Yes.** — Acme is…" -> "Acme is…".
function afterMarker(text: string): string {
  return text.replace(/^(?:[*_]+|[\s.,:;!—–-]+)+/u, '').trim();
}

// ---------------------------------------------------------------------------------------------------
// Blind lists

// "1. Name", "2) Name", "- Name", "* Name", "• Name"; group 1 is the indentation.
const LIST_ITEM = /^([ \t]*)(?:\d{1,2}[.)]|[-*+•·])[ \t]+(.+)$/u;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/u;
// Where a description starts after a name: a spaced dash, a colon, a parenthesis or a comma.
const DESCRIPTION_START = /\s+[—–-]\s|[—–]|:\s|:$|\s\(|,\s|\s+\|/u;
// Abbreviations whose full stop belongs to the name ("Milstead & Co.").
const KEEPS_FULL_STOP = /(?:^|\s)(?:Co|Inc|Ltd|Corp|Jr|Sr|St|S\.A|S\.L)\.$/u;
const MAX_NAME_WORDS = 8;

/**
 * The names of a blind list, in order, at most `limit`, each the brand or product name only: list items
 * first (intros, outros and nested bullets ignored), else a table's first column, else short lines, else
 * the brands the extractor finds in prose.
 */
export function parseBlindList(text: string, limit: number = BLIND_LIST_SIZE): string[] {
  const lines = text.replace(/\r\n?/gu, '\n').split('\n');
  const candidates = listItems(lines) ?? tableCells(lines) ?? plainLines(lines) ?? proseNames(text);
  const names: string[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    const name = cleanName(candidate);
    if (name === null) continue;
    const key = normalizeBrandKey(name);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    names.push(name);
    if (names.length >= limit) break;
  }
  return names;
}

/**
 * The names of a list written as a sentence ("The most popular are HubSpot, Salesforce and Pipedrive."):
 * every candidate the extractor does not drop, brand names being what the question asked for. The bar
 * is the one a name must pass to join an entry, not to make one: a blind list holds nothing but names.
 */
function proseNames(text: string): string[] {
  const { candidates } = explainExtraction(text, { namesExpected: true });
  return candidates
    .filter((candidate) => candidate.decision !== 'dropped')
    .sort((left, right) => left.start - right.start)
    .map((candidate) => candidate.surface);
}

function listItems(lines: readonly string[]): string[] | null {
  const items = lines
    .map((line) => LIST_ITEM.exec(line))
    .filter((match): match is RegExpExecArray => match !== null && !isRule(match[0]))
    .map((match) => ({ indent: indentWidth(match[1] ?? ''), body: match[2] ?? '' }));
  if (items.length === 0) return null;
  // Only the outermost level: nested bullets are details about the item above them.
  const outer = Math.min(...items.map((item) => item.indent));
  return items.filter((item) => item.indent <= outer + 1).map((item) => item.body);
}

function tableCells(lines: readonly string[]): string[] | null {
  const separator = lines.findIndex((line) => TABLE_SEPARATOR.test(line) && line.includes('|'));
  if (separator === -1) return null;
  const cells: string[] = [];
  for (const line of lines.slice(separator + 1)) {
    if (!line.trim().startsWith('|')) break;
    const row = line.trim().replace(/^\||\|$/gu, '').split('|').map((cell) => cell.trim());
    // A leading rank column ("1", "#1") is not the name.
    const cell = row.find((value) => value !== '' && !/^#?\d{1,2}\.?$/u.test(value));
    if (cell !== undefined) cells.push(cell);
  }
  return cells.length > 0 ? cells : null;
}

// Names one per line without list marks: every short line that is not an intro, a heading or a sentence.
function plainLines(lines: readonly string[]): string[] | null {
  const names = lines
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !/[:：]\s*[*_]*$/u.test(line) && !isRule(line))
    .filter((line) => !looksLikeSentence(line));
  return names.length >= 2 ? names : null;
}

function looksLikeSentence(line: string): boolean {
  const name = cutDescription(stripMarkdown(line));
  const words = name.split(/\s+/u).filter((word) => word !== '');
  if (words.length > 6) return true;
  // "Hope this helps!" or "Sure! Here they are"; a lone "Yahoo!" is still a name.
  if (/[!?]\s/u.test(line) || (/[!?]$/u.test(name) && words.length >= 2)) return true;
  // "These are in no particular order." ends in a lowercase word; "Milstead & Co." does not.
  return /\.$/u.test(name) && words.length >= 3 && /^\p{Ll}/u.test(words[words.length - 1] ?? '');
}

/** The brand or product name of one list entry, or null when the entry holds none. */
function cleanName(entry: string): string | null {
  let text = entry.trim();
  // "**Best for small teams:** Pipedrive — …": a bold label ending in a colon; the name follows it.
  const label = /^(?:\*\*|__)[^*_]+:\s*(?:\*\*|__)\s*(\S.*)$/u.exec(text);
  if (label?.[1] !== undefined) text = label[1];
  // "**HubSpot** is the best…" or "[HubSpot](https://…) — …": the emphasised or linked words are the name.
  const lead = /^(?:\*\*|__)\s*(?:\[([^\]]+)\]\([^)]*\)|([^*_]+?))\s*(?:\*\*|__)|^\[(?:\*\*|__)?([^\]]+?)(?:\*\*|__)?\]\([^)]*\)/u.exec(text);
  const emphasised = lead?.[1] ?? lead?.[2] ?? lead?.[3];
  let name = emphasised !== undefined ? stripMarkdown(emphasised) : cutDescription(stripMarkdown(text));
  name = name
    .replace(/^["'“‘]+|["'”’]+$/gu, '')
    .replace(/\s*[:;,]+$/u, '')
    .trim();
  if (/\.$/u.test(name) && !KEEPS_FULL_STOP.test(name)) name = name.slice(0, -1).trim();
  if (!/[\p{L}\p{N}]/u.test(name)) return null;
  if (name.split(/\s+/u).length > MAX_NAME_WORDS) return null;
  return name;
}

function stripMarkdown(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/gu, '$1')
    .replace(/<(https?:\/\/[^>]+)>/gu, '$1')
    .replace(/\*\*|__|`/gu, '')
    .replace(/(^|\s)[*_]+|[*_]+(?=\s|$|[.,:;!?])/gu, '$1')
    .trim();
}

function cutDescription(text: string): string {
  const match = DESCRIPTION_START.exec(text);
  return (match === null ? text : text.slice(0, match.index)).trim();
}

function isRule(line: string): boolean {
  return /^\s*(?:[-*_]\s*){3,}$/u.test(line);
}

function indentWidth(indent: string): number {
  return indent.replace(/\t/gu, '    ').length;
}
