// Every place an answer may name a brand, read from the parsed structure (list-item heads, headings,
// table cells, bold spans, link texts) and from running text (runs of capitalised words). Nothing
// is decided here: each candidate carries where it stood and what surrounds it, and the scored
// model (features.ts, model.ts) decides.

import type { InlineSpan, TextBlock } from './answer-blocks.js';
import { fold, knowledge, knownBrandKey } from './knowledge.js';
import { isCommonWord, isGermanCompound, isModelTierWord, isPlanSuffix } from './words.js';

export type Slot = 'list_head' | 'heading' | 'table_header' | 'table_cell' | 'bold' | 'link' | 'prose';

/** How the candidate was cut from its slot's text. */
export type Cut = 'whole' | 'before_separator' | 'after_label' | 'list_part';

export interface Candidate {
  surface: string;
  /** Offset in the answer. */
  start: number;
  slot: Slot;
  cut: Cut;
  block: TextBlock;
  /** Block-text range. */
  from: number;
  to: number;
  /** Bold or link formatting around it. */
  formatted: boolean;
  /** A list head written without formatting. */
  plainHead: boolean;
  /** Its first word is where a sentence (or an item) begins, so its capital proves nothing. */
  sentenceStart: boolean;
  /** A prose run that ended where the next sentence opens at once ("Acme The most popular…"): a heading or bold head whose line break was lost. */
  beforeSentence?: boolean;
  /** Leading words dropped from a capitalised run ("Try", "The"). */
  dropped: string[];
  url?: string;
}

const NUMBERING = /^(?:\s|#\d+\b|\d{1,2}[.)](?!\d)|[\d#*]\uFE0F?\u20E3|\(?[a-h][.)]\s|[IVX]{1,4}\.\s|[^\p{L}\p{N}"'“¿¡(]+)*/u;
const TRAILING = /[\s:;,.!?*_–—-]+$/u;
const LABEL_COLON = /^([^:]{1,40}):\s+(\S.*)$/u;
const SEPARATOR = /\s+(?:—|–|--|-|\||·|→|->)\s+|\s*[—–]\s*(?=\p{Lu})/u;
const PARENTHETICAL = /\s*[([][^)\]]*[)\]]?\s*$/u;
const LIST_JOINERS = /\s*(?:,|;|\/|\s(?:and|or|vs\.?|versus|y|e|o|ou|et|und|oder|plus)\s)\s*/u;
const PLAIN_HEAD_END = /\s+(?:—|–|--|-|→)\s+|:\s|\s\(|,\s|\.\s|\s+is\s|\s+es\s|\s*\n/u;
const MAX_NAME_WORDS = 8;

/** Reads every candidate of the answer's blocks, in reading order. */
export function readCandidates(blocks: readonly TextBlock[], options: { language?: string; restored?: boolean; oneLine?: boolean } = {}): Candidate[] {
  const out: Candidate[] = [];
  for (const block of blocks) {
    const covered: Array<[number, number]> = [];
    const take = (slot: Slot, from: number, to: number, formatted: boolean, plainHead: boolean, url?: string): void => {
      covered.push([from, to]);
      // a link's text is one name ("Car and Driver"); other slots may list several
      for (const part of nameParts(block.text, from, to, url === undefined)) {
        out.push(candidate(block, slot, part, formatted, plainHead, url));
      }
    };

    if (block.kind === 'heading') {
      take('heading', 0, block.text.length, false, false);
    } else if (block.kind === 'cell' && block.table !== undefined && wordCount(block.text) <= MAX_NAME_WORDS) {
      take(block.table.row === 0 ? 'table_header' : 'table_cell', 0, block.text.length, block.spans.length > 0, false);
    } else {
      // A list item's head: the formatted span it opens with, else its words up to a separator.
      if (block.list?.firstParagraph === true) {
        const lead = leadingSpan(block);
        if (lead !== undefined) {
          take('list_head', lead.start, lead.end, true, false, lead.url);
          // "**Best overall:** Name – …": the name after a label span is a head too.
          const after = block.text.slice(lead.end);
          if (/^[\s:]*$/u.test(after.slice(0, 1)) && /[:]\s*$/u.test(block.text.slice(lead.start, lead.end + 1))) {
            const rest = lead.end + (after.match(/^[\s:]*/u)?.[0].length ?? 0);
            const next = block.spans.find((span) => span.start >= rest && span.start <= rest + 1 && span.kind !== 'code');
            if (next !== undefined) take('list_head', next.start, next.end, true, false, next.url);
            else {
              const end = plainHeadEnd(block, rest);
              const head = block.text.slice(rest, end);
              if (end > rest && wordCount(head) <= 6 && /^[\p{Lu}\p{N}]/u.test(head)) take('list_head', rest, end, false, true);
            }
          }
        } else {
          const begin = block.text.match(NUMBERING)?.[0].length ?? 0;
          const end = plainHeadEnd(block, begin);
          if (end > begin && wordCount(block.text.slice(begin, end)) <= 6) take('list_head', begin, end, false, true);
        }
      }
      for (const span of block.spans) {
        if (span.kind === 'code' || span.kind === 'emphasis') continue;
        if (covered.some(([from, to]) => span.start < to && span.end > from)) continue;
        take(span.kind === 'link' ? 'link' : 'bold', span.start, span.end, true, false, span.url);
      }
    }
    // Running text: everything not read as a slot (long table cells included).
    for (const part of proseRuns(block, covered)) out.push(part);
  }
  const runs = splitMergedRuns(out);
  // only where line breaks were lost (a restored answer was on one line): in an answer with its lines,
  // a heading is a block of its own
  const placed = options.oneLine === true ? splitPlaceBeforeName(runs) : runs;
  // … and a noun and a name meet within a sentence
  return options.language === 'de' && options.restored === true ? placed.flatMap(splitGermanNounBeforeName) : placed;
}

/**
 * A group's heading (a district, a town; a label such as "Honorable mentions") runs into the first
 * name under it once line breaks are lost: "Acmeville Globex Coffee Roasters – …", "Honorable mentions
 * Initech Notes — …". In such an answer a run or a list item's head that opens with a place the
 * gazetteer knows (and that is no everyday word or brand) is cut after it, and a head that opens with
 * label words after it (labelCut). Not when the whole run is a brand the gazetteers know, nor when a
 * place and one business word are all of it ("Acmeville Bakery" is one name).
 */
function splitPlaceBeforeName(candidates: Candidate[]): Candidate[] {
  const k = knowledge();
  // a place the gazetteer knows that is no everyday word and no brand ("Orange", "Mobile" are towns too)
  const isPlace = (words: string): boolean => {
    if ((!k.places.has(words) && !k.bigPlaces.has(words)) || k.commonRank.has(words)) return false;
    const key = knownBrandKey(words);
    return !k.knownBrands.has(key) && !k.chainBrands.has(key);
  };
  const out: Candidate[] = [];
  for (const candidate of candidates) {
    const cut = candidate.slot === 'heading' || candidate.slot === 'link' || candidate.slot === 'table_cell' || candidate.slot === 'table_header' ? undefined : (placeCut(candidate, isPlace) ?? labelCut(candidate));
    if (cut === undefined) {
      out.push(candidate);
      continue;
    }
    out.push(...splitAt(candidate, cut));
  }
  return out;
}

/** A candidate cut in two: the left part ends at `cut[0]`, the right part starts at `cut[1]`. */
function splitAt(candidate: Candidate, cut: [number, number]): [Candidate, Candidate] {
  const text = candidate.block.text;
  return [
    { ...candidate, surface: text.slice(candidate.from, cut[0]), to: cut[0] },
    { ...candidate, surface: text.slice(cut[1], candidate.to), start: candidate.block.offsets[cut[1]] ?? candidate.start, from: cut[1], sentenceStart: false, dropped: [] },
  ];
}

/**
 * A group's label and the first name under it, run together in a list item's head: "Honorable mentions
 * Acme Notes — …", "Budget pick Globex X1 — …". Cut after the label's last lower-case word when every
 * word up to it is an everyday or label word and every word after it is capitalised.
 */
function labelCut(candidate: Candidate): [number, number] | undefined {
  if (candidate.slot !== 'list_head' && candidate.slot !== 'bold') return undefined;
  const k = knowledge();
  const words = [...candidate.surface.matchAll(/\S+/gu)];
  let last = -1;
  words.forEach((word, index) => {
    if (/^\p{Ll}/u.test(word[0]) && !INNER_JOINERS.has(word[0])) last = index;
  });
  if (last < 1 || last === words.length - 1 || !/^\p{Lu}/u.test(words[0]?.[0] ?? '')) return undefined;
  const label = words.slice(0, last + 1).map((word) => fold(word[0].replace(/[:,]$/u, '')));
  if (!label.every((word) => k.commonRank.has(word) || k.lists.labelWords.has(word))) return undefined;
  if (!words.slice(last + 1).every((word) => /^[\p{Lu}\p{N}]/u.test(word[0]) || INNER_JOINERS.has(word[0]))) return undefined;
  const end = candidate.from + (words[last]?.index ?? 0) + (words[last]?.[0].length ?? 0);
  return [end, candidate.from + (words[last + 1]?.index ?? 0)];
}

/** Where a run that opens with a place splits (the end of the place, the start of the name), if it does. */
function placeCut(candidate: Candidate, isPlace: (words: string) => boolean): [number, number] | undefined {
  const k = knowledge();
  const words = [...candidate.surface.matchAll(/\S+/gu)];
  if (words.length < 2) return undefined;
  const key = knownBrandKey(candidate.surface);
  if (k.knownBrands.has(key) || k.chainBrands.has(key)) return undefined;
  // the longest opening of up to three words that is a place, with at least one word after it
  for (let length = Math.min(3, words.length - 1); length >= 1; length -= 1) {
    const place = words.slice(0, length).map((word) => word[0].replace(/[,/]$/u, '')).join(' ');
    if (!isPlace(fold(place))) continue;
    const rest = words.slice(length);
    const first = rest[0]?.[0] ?? '';
    if (!/^[\p{Lu}\p{N}]/u.test(first)) return undefined;
    // "Acmeville Bakery", "Globex Hotel": a place and a business word are one name
    if (rest.length === 1 && k.lists.businessWords.has(fold(first))) return undefined;
    const end = candidate.from + (words[length - 1]?.index ?? 0) + (words[length - 1]?.[0].length ?? 0);
    return [end, candidate.from + (rest[0]?.index ?? 0)];
  }
  return undefined;
}

/**
 * German capitalises every noun, so a noun that ended a line, a label or a table cell runs into the
 * name after it once line breaks are lost: "Leistungen Acme Direkt", "Aufpreis Globex Mobil",
 * "Innenstadt Initech Bar". A run whose first word is an everyday German noun (or one made of
 * everyday words) and whose second word is not is cut after the noun; not after a business word or a
 * title ("Hotel Globex", "Frau Acme"), a brand the gazetteers know (a known "Acme Direct"), a proper
 * adjective ("Deutsche Globex"), or a word English uses too ("Green Acme Energy").
 */
function splitGermanNounBeforeName(candidate: Candidate): Candidate[] {
  if (candidate.slot === 'link' || candidate.slot === 'heading' || candidate.formatted) return [candidate];
  const words = [...candidate.surface.matchAll(/\S+/gu)];
  const [first, second] = words;
  if (first === undefined || second === undefined || !/^\p{Lu}\p{Ll}+$/u.test(first[0]) || !/^\p{L}/u.test(second[0])) return [candidate];
  const k = knowledge();
  const noun = fold(first[0]);
  const next = fold(second[0].replace(/[.,;:]$/u, ''));
  const germanNoun = (word: string): boolean => k.everydayGerman.has(word) || isGermanCompound(word, k.everydayGerman);
  if (!germanNoun(noun) || germanNoun(next) || k.everydayEnglish.has(noun) || k.lists.businessWords.has(noun) || k.lists.personTitles.has(noun)) return [candidate];
  const brandKey = knownBrandKey(noun);
  if (k.knownBrands.has(brandKey) || k.chainBrands.has(brandKey) || k.demonyms.has(noun) || k.lists.properAdjectives.has(noun)) return [candidate];
  return splitAt(candidate, [candidate.from + first[0].length, candidate.from + (second.index ?? 0)]);
}

/**
 * Two names written next to each other read as one capitalised run once markdown and line breaks
 * are lost ("Acme Cloud Globex Drive", "Acme Acme Cloud"). A run is cut where both sides stand
 * alone elsewhere in the same answer, or where a word is repeated at once.
 */
function splitMergedRuns(candidates: Candidate[]): Candidate[] {
  const keyOf = (value: string): string => value.toLowerCase().replace(/['’]s$/u, '').replace(/[^\p{L}\p{N}]+/gu, '');
  const counts = new Map<string, number>();
  for (const candidate of candidates) {
    // only where a capital says "name": slots, and runs inside a sentence
    if (candidate.slot === 'prose' && atSentenceStart(candidate.block.text, candidate.from)) continue;
    const key = keyOf(candidate.surface);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const out: Candidate[] = [];
  for (const candidate of candidates) {
    const cut = candidate.slot === 'prose' ? mergedRunCut(candidate, (value) => (counts.get(keyOf(value)) ?? 0) > 0) : undefined;
    if (cut === undefined) {
      out.push(candidate);
      continue;
    }
    out.push(...splitAt(candidate, cut));
  }
  return out;
}

/** Where a merged run splits in two (end of the left part, start of the right part), if anywhere. */
function mergedRunCut(candidate: Candidate, standsAlone: (value: string) => boolean): [number, number] | undefined {
  const text = candidate.block.text;
  const words = [...text.slice(candidate.from, candidate.to).matchAll(/\S+/gu)].map((match) => ({
    word: match[0],
    from: candidate.from + match.index,
    to: candidate.from + match.index + match[0].length,
  }));
  if (words.length < 2) return undefined;
  for (let index = 1; index < words.length; index += 1) {
    const before = words[index - 1];
    const at = words[index];
    if (before === undefined || at === undefined) continue;
    if (before.word.toLowerCase() === at.word.toLowerCase()) return [before.to, at.from];
    const left = text.slice(candidate.from, before.to);
    const right = text.slice(at.from, candidate.to);
    if (standsAlone(left) && standsAlone(right)) return [before.to, at.from];
  }
  return undefined;
}

function candidate(block: TextBlock, slot: Slot, part: Part, formatted: boolean, plainHead: boolean, url?: string): Candidate {
  const value: Candidate = {
    surface: part.text,
    start: block.offsets[part.from] ?? 0,
    slot,
    cut: part.cut,
    block,
    from: part.from,
    to: part.to,
    formatted,
    plainHead,
    sentenceStart: false,
    dropped: [],
  };
  if (url !== undefined) value.url = url;
  return value;
}

function leadingSpan(block: TextBlock): InlineSpan | undefined {
  const begin = block.text.match(NUMBERING)?.[0].length ?? 0;
  return block.spans.find((span) => span.kind !== 'code' && span.kind !== 'emphasis' && span.start <= begin + 1 && span.end > begin);
}

/** Where a list item's unformatted head ends: at a separator, or where formatting starts (`Acme Pro *Best for: …*`). */
function plainHeadEnd(block: TextBlock, begin: number): number {
  const formatted = block.spans.find((span) => span.start > begin && span.kind !== 'link');
  const text = formatted === undefined ? block.text : block.text.slice(0, formatted.start);
  const rest = text.slice(begin);
  const match = PLAIN_HEAD_END.exec(rest);
  const end = match === null ? rest.length : match.index;
  return begin + rest.slice(0, end).trimEnd().length;
}

function wordCount(text: string): number {
  return text.split(/\s+/u).filter((word) => word !== '').length;
}

interface Part {
  text: string;
  from: number;
  to: number;
  cut: Cut;
}

/** Cuts a slot's text into the names it may hold: numbering, emoji and taglines dropped. */
export function nameParts(text: string, from: number, to: number, mayList = true): Part[] {
  const trimmed = trimRange(text, from, to);
  if (trimmed === null) return [];
  const [start, end] = trimmed;
  const slice = text.slice(start, end);
  const parts: Part[] = [];
  const label = LABEL_COLON.exec(slice);
  if (label?.[1] !== undefined && label[2] !== undefined) {
    const head = label[1];
    parts.push(...headParts(text, start, start + head.length, 'before_separator', mayList));
    const tailStart = start + slice.indexOf(label[2], head.length);
    parts.push(...headParts(text, tailStart, end, 'after_label', mayList));
    return parts;
  }
  const separator = SEPARATOR.exec(slice);
  if (separator !== null && separator.index > 0) {
    parts.push(...headParts(text, start, start + separator.index, 'before_separator', mayList));
    return parts;
  }
  return headParts(text, start, end, 'whole', mayList);
}

function headParts(text: string, from: number, to: number, cut: Cut, mayList: boolean): Part[] {
  let end = to;
  const inner = text.slice(from, end);
  const separator = SEPARATOR.exec(inner);
  if (separator !== null && separator.index > 0) end = from + separator.index;
  // "Acme Mixer X2 (Globex)": the parenthetical belongs to the name but is not part of it.
  const paren = PARENTHETICAL.exec(text.slice(from, end));
  if (paren !== null && paren.index > 0) end = from + paren.index;
  const trimmed = trimRange(text, from, end);
  if (trimmed === null) return [];
  const [start, titled] = trimmed;
  const stop = start + shoppingTitleEnd(text.slice(start, titled));
  const slice = text.slice(start, stop);
  const pieces = mayList ? splitList(slice) : [{ text: slice, offset: 0 }];
  if (pieces.length > 1) {
    return pieces.flatMap((piece) => {
      const range = trimRange(text, start + piece.offset, start + piece.offset + piece.text.length);
      return range === null ? [] : [{ text: text.slice(range[0], range[1]), from: range[0], to: range[1], cut: 'list_part' as const }];
    });
  }
  return [{ text: slice, from: start, to: stop, cut }];
}

/** Capacities, sizes and pack counts: "256GB", "50H", "4K", "140x190", "2-Pack" (not inches: "Acme 65-Inch Q9" is a model; not "5G": "Acme A56 5G" is one). */
const SPEC_TOKEN = /^(?:\d+(?:[.,]\d+)?(?:gb|tb|mb|mah|wh|kwh|h|w|hz|k|p|pa|l|ml|kg|lbs?|oz|qt|pcs|pack|count|ct)|\d+(?:[.,]\d+)?[x×]\d+(?:[.,]\d+)?(?:[x×]\d+)?(?:cm|mm)?|\d+-(?:pack|piece|count))$/iu;
/** Words a model's name keeps after its number: "Series 10", "3200 Series", "Gen 2". */
const MODEL_WORDS = new Set(['series', 'edition', 'gen', 'generation', 'model', 'mark', 'mk']);

/**
 * Where a shop's product title stops naming the product: "Acme X5 Pro Noise Cancelling Wireless
 * Headphones, 50H Playtime" is "Acme X5 Pro". The name ends at a model number (or a tier after
 * it) followed by everyday or tech words, with a long tail; or at a size or capacity ("256GB").
 * Returns the length of the slice to keep (all of it when it is no such title).
 */
export function shoppingTitleEnd(slice: string): number {
  // both cuts need a number: a model's, a size's or a capacity's
  if (!/\p{N}/u.test(slice)) return slice.length;
  const tokens = [...slice.matchAll(/[^\s,]+/gu)].map((match) => ({ word: match[0], from: match.index, to: match.index + match[0].length }));
  if (tokens.length < 4) return slice.length;
  const k = knowledge();
  const isModel = (word: string): boolean => /\p{N}/u.test(word) || isModelTierWord(word) || MODEL_WORDS.has(fold(word));
  const isDescriptor = (word: string): boolean => {
    const key = fold(word);
    if (MODEL_WORDS.has(key) || isModelTierWord(key) || isPlanSuffix(key)) return false;
    if (k.lists.techTerms.has(key) || k.lists.platforms.has(key)) return true;
    // an everyday word written as one ("Wireless", "running"), not a code ("DC", "Di")
    return word.length > 2 && /^\p{L}\p{Ll}+(?:-\p{L}+)?$/u.test(word) && (isCommonWord(word) || k.commonRank.has(key));
  };
  const isSpec = (index: number): boolean => {
    const word = tokens[index]?.word ?? '';
    if (SPEC_TOKEN.test(word)) return true;
    // "750 Wh", "24 Days": a number and its unit
    return /^\d+(?:[.,]\d+)?$/u.test(word) && SPEC_TOKEN.test(`1${tokens[index + 1]?.word ?? ''}`);
  };
  // the name ends before the cut and before the describing words in front of it: "Acme X5 GPS 256GB",
  // and before a size or capacity "Acme Duo Air Fryer, 8 Qt"
  const firstNumber = tokens.findIndex((item) => /\p{N}/u.test(item.word));
  const kept = (index: number, describing: boolean): number => {
    let at = index;
    while (at > 2 && isDescriptor(tokens[at - 1]?.word ?? '') && (describing || isModel(tokens[at - 2]?.word ?? ''))) at -= 1;
    return slice.slice(0, tokens[at - 1]?.to ?? slice.length).replace(/[\s,]+$/u, '').length;
  };
  for (let index = 2; index < tokens.length; index += 1) {
    const token = tokens[index];
    const previous = tokens[index - 1];
    if (token === undefined || previous === undefined) continue;
    if (isSpec(index)) return kept(index, true);
    const modelBefore = isModel(previous.word) && firstNumber !== -1 && firstNumber < index;
    if (modelBefore && isDescriptor(token.word) && tokens.length - index >= 3) return kept(index, false);
  }
  return slice.length;
}

/** "Notion, Obsidian and Bear": several names in one slot, when each piece starts like a name. */
function splitList(slice: string): Array<{ text: string; offset: number }> {
  const pieces: Array<{ text: string; offset: number }> = [];
  const pattern = new RegExp(LIST_JOINERS.source, 'gu');
  let last = 0;
  for (const match of slice.matchAll(pattern)) {
    pieces.push({ text: slice.slice(last, match.index), offset: last });
    last = match.index + match[0].length;
  }
  pieces.push({ text: slice.slice(last), offset: last });
  if (pieces.length < 2) return [{ text: slice, offset: 0 }];
  const nameLike = pieces.every((piece) => /^[\p{Lu}\p{N}]/u.test(piece.text.trim()) && wordCount(piece.text) <= 5);
  return nameLike ? pieces : [{ text: slice, offset: 0 }];
}

function trimRange(text: string, from: number, to: number): [number, number] | null {
  let start = from;
  const lead = text.slice(from, to).match(NUMBERING)?.[0].length ?? 0;
  start += lead;
  let end = to;
  const tail = text.slice(start, end).match(TRAILING);
  if (tail !== null) end -= tail[0].length;
  // unbalanced quotes or brackets at the edges
  while (end > start && /["'“”’)\]]/u.test(text[end - 1] ?? '') && !balanced(text.slice(start, end))) end -= 1;
  while (start < end && /["'“”‘([]/u.test(text[start] ?? '')) start += 1;
  if (end <= start || !/[\p{L}\p{N}]/u.test(text.slice(start, end))) return null;
  return [start, end];
}

function balanced(value: string): boolean {
  return (value.match(/\(/gu)?.length ?? 0) === (value.match(/\)/gu)?.length ?? 0) && (value.match(/"/gu)?.length ?? 0) % 2 === 0;
}

// --- running text -----------------------------------------------------------------------------

const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}'’+]*(?:[.\-&/][\p{L}\p{N}][\p{L}\p{N}\p{M}'’+]*)*/gu;
/** Lower-case words a name keeps between its capitalised ones ("Bank of America", "El Corte Inglés"). */
export const CONNECTORS: ReadonlySet<string> = new Set(['of', 'de', 'del', 'du', 'des', 'da', 'do', 'dos', 'la', 'le', 'les', 'los', 'las', 'for', 'the', 'von', 'van', 'di', 'der']);
/** Lower-case words a name keeps inside it: "Bank of America", "Acme and Sons", "Casa da Globex". */
const INNER_JOINERS: ReadonlySet<string> = new Set([...CONNECTORS, 'y', 'e', 'et', 'and', 'und', 'a', 'an', '&', '+']);
const LEADING_DROPS = new Set([
  'its', 'their', 'our', 'your', 'my', 'his', 'her', 'this', 'that', 'these', 'those', 'some', 'many', 'most', 'all', 'every', 'each', 'any', 'while', 'when', 'since', 'because', 'although', 'unlike',
  'the', 'a', 'an', 'and', 'or', 'but', 'if', 'for', 'with', 'in', 'on', 'at', 'to', 'from', 'by', 'of', 'as', 'so', 'then', 'also', 'both',
  'el', 'la', 'los', 'las', 'un', 'una', 'y', 'o', 'con', 'en', 'para', 'por', 'de', 'del', 'al', 'le', 'les', 'des', 'une', 'et', 'ou', 'avec', 'pour',
  'der', 'die', 'das', 'den', 'dem', 'ein', 'eine', 'und', 'oder', 'mit', 'für', 'im', 'vom', 'beim', 'zum', 'zur', 'auch', 'aus', 'nach', 'o', 'os', 'as', 'um', 'uma', 'e', 'com', 'em', 'no', 'na', 'nos', 'nas',
]);

/** Titles before a person's name ("Chef", "Founder", "Dr."): not part of any name, and a cue for the model. */
const PERSON_TITLES = new Set(['founder', 'co-founder', 'cofounder', 'ceo', 'chef', 'dr', 'doctor', 'professor', 'prof', 'mr', 'mrs', 'ms', 'author', 'writer', 'host', 'president', 'senator', 'governor', 'mayor', 'coach', 'fundador', 'fundadora', 'chefe', 'docteur', 'herr', 'frau']);

interface Token {
  text: string;
  start: number;
  end: number;
}

function isCapToken(token: string): boolean {
  const code = token.charCodeAt(0);
  if (code >= 65 && code <= 90) return true; // A-Z, the common case
  if (code >= 48 && code <= 57) return false;
  if (code >= 97 && code <= 122 && !/[A-Z.]/u.test(token)) return false;
  return /^\p{Lu}/u.test(token) || /^\p{Ll}+\p{Lu}/u.test(token) || /^\p{L}[\p{L}\p{N}-]*\.(?:com|io|ai|co|app|net|org|de|es|fr|pt|mx|br|ly|so|dev)$/iu.test(token);
}

function isNumberToken(token: string): boolean {
  return /^\p{N}/u.test(token);
}

/** Runs of capitalised words in the block's text outside the ranges already read as slots. */
function proseRuns(block: TextBlock, covered: ReadonlyArray<[number, number]>): Candidate[] {
  const text = block.text;
  const tokens: Token[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index;
    const end = start + match[0].length;
    if (covered.some(([from, to]) => start < to && end > from)) {
      tokens.push({ text: '\u0000', start, end }); // a boundary
      continue;
    }
    const code = block.spans.some((span) => span.kind === 'code' && start >= span.start && end <= span.end);
    tokens.push({ text: code ? '\u0000' : match[0], start, end });
  }
  const out: Candidate[] = [];
  const imperatives = knowledge().lists.imperatives;
  let index = 0;
  while (index < tokens.length) {
    const first = tokens[index];
    if (first === undefined) break;
    if (first.text === '\u0000' || !isCapToken(first.text)) {
      index += 1;
      continue;
    }
    let last = index;
    let next = index + 1;
    let beforeSentence = false;
    while (next < tokens.length) {
      const token = tokens[next];
      const previous = tokens[next - 1];
      if (token === undefined || previous === undefined || token.text === '\u0000') break;
      const gap = text.slice(previous.end, token.start);
      const abbreviation = gap === '. ' && /^(?:Dr|St|Mr|Mrs|Ms|Jr|Sr|Mt)$/u.test(previous.text);
      if (!/^(?: |\s&\s|\s\+\s)$/u.test(gap) && !abbreviation) break;
      // "Acme's Turbo Plan", "Acme Airways' Turbo Class": the owner and the owned are two runs
      const possessive = /['’]s$|s['’]$/u.test(previous.text);
      // … unless a business word follows: "Spellbound Children's Bookshop"
      if (possessive && previous !== first && !namesBusiness(tokens, next)) break;
      // … unless what follows names a business: "Acme's Pizza", "Globex's Bakery & Café" are one name
      if (possessive && previous === first && /^\p{Lu}/u.test(token.text) && !namesBusiness(tokens, next)) break;
      // a capitalised function word inside a run opens the next sentence whose full stop was lost
      // ("Acme CRM The most popular choice…"); a name keeps its articles in lower case ("House of the Globex"),
      // and a word after "&" never opens a sentence ("Barnes & Noble at …")
      if (!/[&+]/u.test(gap) && lostSentenceStart(token, previous, text)) {
        beforeSentence = true;
        break;
      }
      if (isCapToken(token.text) || (isNumberToken(token.text) && next - index < MAX_NAME_WORDS)) {
        last = next;
        next += 1;
        continue;
      }
      // a connector inside a name: "Bank of America", "El Corte Inglés"
      const after = tokens[next + 1];
      // "Best for Acme Cloud" is a label and a name, not one name
      const labelBefore = token.text === 'for' && knowledge().lists.labelWords.has(previous.text.toLowerCase());
      if (!labelBefore && CONNECTORS.has(token.text.toLowerCase()) && after !== undefined && after.text !== '\u0000' && isCapToken(after.text) && /^ $/u.test(text.slice(token.end, after.start))) {
        last = next + 1;
        next += 2;
        continue;
      }
      break;
    }
    const run = tokens.slice(index, last + 1);
    index = last + 1;
    // drop leading function words: "The Verge" stays a name only if the rest is
    const dropped: string[] = [];
    // leading function words ("The", "Its", "Try") are dropped where capitals are automatic
    const opensSentence = atSentenceStart(text, first.start);
    while (run.length > 1 && PERSON_TITLES.has((run[0]?.text ?? '').toLowerCase().replace(/\.$/u, ''))) dropped.push(run.shift()?.text ?? '');
    while (run.length > 1 && (opensSentence || (run[0]?.text ?? '') !== (run[0]?.text ?? '').toLowerCase()) && (LEADING_DROPS.has((run[0]?.text ?? '').toLowerCase()) || (opensSentence && imperatives.has((run[0]?.text ?? '').toLowerCase()))) && (opensSentence || !/^(?:la|le|el|les|los|las|the)$/iu.test(run[0]?.text ?? ''))) dropped.push(run.shift()?.text ?? '');
    // "Using the Acme adapter", "Replaces the Globex Stick": a sentence's verb and its article, not a name's
    let verbDropped = false;
    while (opensSentence && run.length > 2 && run[1]?.text === 'the' && /^\p{Lu}\p{Ll}+$/u.test(run[0]?.text ?? '') && isEverydayWordForm(run[0]?.text ?? '')) {
      dropped.push(run.shift()?.text ?? '', run.shift()?.text ?? '');
      verbDropped = true;
    }
    if (run.length > MAX_NAME_WORDS) continue;
    const head = run[0];
    const tail = run.at(-1);
    if (head === undefined || tail === undefined) continue;
    let end = tail.end;
    // "Asana's free plan" is Asana; "Marco's is…" keeps its name whole.
    if (/['’]s$/u.test(text.slice(head.start, end)) && /^ \p{Ll}/u.test(text.slice(end, end + 2)) && !/^ (?:is|has|was|offers|remains|serves|makes)\b/u.test(text.slice(end, end + 12))) end -= 2;
    // "Acme Airways' lounges": a plural possessive's apostrophe is not part of the name
    if (/s['’]$/u.test(text.slice(head.start, end))) end -= 1;
    const surface = text.slice(head.start, end);
    if (!/[\p{L}]/u.test(surface)) continue;
    const startToken = dropped.length > 0 && !verbDropped ? tokens[tokens.indexOf(head) - dropped.length] : head;
    out.push({
      surface,
      start: block.offsets[head.start] ?? 0,
      slot: 'prose',
      cut: 'whole',
      block,
      from: head.start,
      to: end,
      formatted: false,
      plainHead: false,
      sentenceStart: atSentenceStart(text, startToken?.start ?? head.start),
      ...(beforeSentence ? { beforeSentence } : {}),
      dropped,
    });
  }
  return out;
}

/** An everyday word, also as a verb's third person ("Replaces"). */
function isEverydayWordForm(word: string): boolean {
  return isCommonWord(word) || (word.endsWith('s') && isCommonWord(word.slice(0, -1)));
}

/** Whether one of the (up to three) capitalised tokens from `index` on is a business word ("Pizza", "Bakery"). */
function namesBusiness(tokens: readonly Token[], index: number): boolean {
  const business = knowledge().lists.businessWords;
  for (let at = index; at < Math.min(tokens.length, index + 3); at += 1) {
    const token = tokens[at];
    if (token === undefined || !isCapToken(token.text)) return false;
    if (business.has(fold(token.text))) return true;
  }
  return false;
}

function atSentenceStart(text: string, position: number): boolean {
  // the text before the position without the spaces, quotes and openers right before it, found by
  // stepping back (a `…+$` pattern on the whole prefix would be tried from every offset of it)
  let end = position;
  while (end > 0 && OPENING.test(text.charAt(end - 1))) end -= 1;
  if (end === 0) return true;
  const last = text.charAt(end - 1);
  if (/[.!?:;…\n–—]/u.test(last)) return true;
  if (last === '-' && end >= 2 && /\s/u.test(text.charAt(end - 2))) return true;
  if (/^\s*(?:\d{1,2}[.)]|[-*•])$/u.test(text.slice(0, end))) return true;
  // the last character, two code units when it is a surrogate pair
  const pair = end >= 2 && /[\uDC00-\uDFFF]/u.test(last) && /[\uD800-\uDBFF]/u.test(text.charAt(end - 2));
  return /\p{Extended_Pictographic}/u.test(text.slice(end - (pair ? 2 : 1), end));
}

/** What may stand between a sentence's end and its first word: spaces, quotes, a bracket, emphasis, ¿ and ¡. */
const OPENING = /^[\s"'“‘(*_¿¡]$/u;

/** Words that open a sentence, not a name: "The", "Its", "Not" followed by a lower-case word ("… Acme CRM The most popular …"); comparatives, superlatives and adverbs come from the gazetteer. */
const SENTENCE_OPENERS = new Set(['the', 'a', 'an', 'this', 'these', 'it', 'its', "it's", 'not', 'very', 'our', 'my', 'your', 'their', 'they', 'we', 'you', 'also', 'great', 'best', 'el', 'la', 'los', 'las', 'un', 'una', 'es', 'o', 'os', 'le', 'les', 'der', 'die', 'das']);

function lostSentenceStart(current: Token, previous: Token, text: string): boolean {
  const token = current.text;
  // "The" before a capitalised word and a lower-case one ("Acme Boot The Classic boot with …"), not
  // after a connector, where it is a title's own article ("Lord of The Rings")
  if (token === 'The' && !CONNECTORS.has(previous.text.toLowerCase()) && /^ \p{Lu}[\p{L}'’-]* \p{Ll}/u.test(text.slice(current.end, current.end + 40))) return true;
  const after = text.slice(current.end, current.end + 24);
  if (!/^\p{Lu}\p{Ll}*$/u.test(token) || !/^ \p{Ll}/u.test(after)) return false;
  const word = token.toLowerCase();
  if (SENTENCE_OPENERS.has(word)) return true;
  const k = knowledge();
  // a model's tier ends a name, it does not open a sentence: "Acme Ultra is …"
  if (!k.sentenceOpeners.has(word) || isModelTierWord(word) || isPlanSuffix(word)) return false;
  // the gazetteer's openers are English: they open a lost sentence only before English words
  // ("Acme CRM Great for small teams"), not a name's last word ("Barnes & Noble at …", "Club Social est …")
  const next = /^ (\p{Ll}+) (\p{Ll}+)/u.exec(after);
  return next !== null && k.distinctlyEnglish.has(next[1] ?? '') && k.everydayEnglish.has(fold(next[2] ?? ''));
}
