// Names from the answer's layout: list-item heads, item headings, table name columns, bold spans
// and link texts. Also decides which running text is free prose and which describes an item.

import {
  ADVICE_SECTION_PATTERN,
  MAKER_COLUMN_HEADERS,
  MODEL_COLUMN_HEADERS,
  NAME_COLUMN_HEADERS,
  NON_NAME_COLUMN_WORDS,
  foldWord,
} from './lexicon.js';
import type { Block, ListBlock, ListItem, MarkdownLayout, Span, TableBlock } from './markdown-structure.js';
import { marksWithin, spanText } from './markdown-structure.js';
import type { Mention, TextRegion } from './mention.js';
import { isGenericWord, structuralNames } from './name-shape.js';

export interface StructuralScan {
  mentions: Mention[];
  /** Running text left to scan, with its trust level. */
  regions: TextRegion[];
  /** Ranges already read as structure (or italics and code), skipped by the prose scan. */
  excluded: Span[];
}

interface ItemHead {
  names: Array<{ surface: string; start: number }>;
  /** End of the head (and of any parenthetical right after it); equals the item start when there is none. */
  headEnd: number;
  /** Bold spans and links the head used, including a leading label. */
  used: Span[];
}

const HEAD_SEPARATOR = /\s[–—-]{1,2}\s|:\s|\s→\s|\s\|\s|,\s/u;
const JOINER = /^\s*(?:,|and|or|&|y|o|\/|\+|vs\.?)\s*$/iu;
const MAX_PLAIN_HEAD_WORDS = 6;

/** Walks the blocks and collects structural names, prose regions and excluded ranges. */
export function scanStructure(layout: MarkdownLayout): StructuralScan {
  const scan: StructuralScan = { mentions: [], regions: [], excluded: [] };
  const used = new Set<number>();
  const adviceLists = new Set<Block>();
  let describingItem = false;

  layout.blocks.forEach((block, index) => {
    if (block.kind === 'heading') {
      describingItem = false;
      for (const mark of [...layout.marks.bold, ...layout.marks.links]) {
        if (mark.start >= block.content.start && mark.end <= block.content.end) used.add(mark.start);
      }
      const text = spanText(layout, block.content);
      const next = layout.blocks[index + 1];
      const advice = ADVICE_SECTION_PATTERN.test(text);
      if (next?.kind === 'list' && advice) adviceLists.add(next);
      // A heading over a list of named items is a section title ("**Shinjuku**", "Free options").
      if (advice || (next?.kind === 'list' && listHasNamedHeads(layout, next))) {
        scan.excluded.push(block.content);
        return;
      }
      const names = structuralNames(text);
      for (const name of names) scan.mentions.push(structural(name, locate(layout, block.content, name)));
      describingItem = names.length > 0;
      // "## Option 1: Buy a Kindle Paperwhite" is no name, but names may stand in it as in prose.
      // Headings are title-cased, so capitals there prove little: they count as descriptions.
      if (names.length === 0) scan.regions.push({ ...block.content, kind: 'description' });
      else scan.excluded.push(block.content);
    } else if (block.kind === 'list') {
      for (const item of block.items) scanItem(layout, item, adviceLists.has(block), scan, used);
    } else if (block.kind === 'table') {
      describingItem = false;
      scanTable(layout, block, scan, used);
    } else {
      // "**1. 1Password:** Known for …": a paragraph that opens with a name describes that item.
      const opener = block.lines[0] === undefined ? undefined : firstMarkAt(layout, block.lines[0], block.lines[0].start);
      const opensWithName =
        opener !== undefined && structuralNames(layout.source.slice(opener.start, opener.end).replace(/[*_]/gu, '')).length > 0;
      for (const line of block.lines) {
        scan.regions.push({ start: line.start, end: line.end, kind: describingItem || opensWithName ? 'description' : 'prose' });
      }
    }
  });

  // Bold spans and links anywhere else: names unless they are labels ("**Tip:**") or sentences.
  const loose = [...layout.marks.bold, ...layout.marks.links].filter((mark) => !used.has(mark.start));
  for (const mark of loose.sort((left, right) => left.start - right.start)) {
    const text = layout.source.slice(mark.start, mark.end).replace(/[*_]/gu, '');
    for (const name of structuralNames(text)) scan.mentions.push(structural(name, locate(layout, mark, name)));
    scan.excluded.push({ start: mark.start, end: absorbParenthetical(layout, mark.end) });
  }
  scan.excluded.push(...layout.marks.italic, ...layout.marks.code);
  return scan;
}

function scanItem(layout: MarkdownLayout, item: ListItem, advice: boolean, scan: StructuralScan, used: Set<number>): void {
  const continuation = item.continuation.map((span) => ({ ...span }));
  if (advice) {
    // Criteria and tips ("**True HEPA**", "**Stability:**"): their heads are not products.
    const lead = firstMarkAt(layout, item.content, item.content.start);
    if (lead !== undefined) {
      used.add(lead.start);
      scan.excluded.push(lead);
    }
    scan.regions.push({ ...item.content, kind: 'description' });
    for (const span of continuation) scan.regions.push({ ...span, kind: 'description' });
    return;
  }
  const head = detectHead(layout, item);
  for (const span of head.used) {
    used.add(span.start);
    scan.excluded.push(span);
  }
  for (const name of head.names) scan.mentions.push(structural(name.surface, name.start));
  const hasHead = head.names.length > 0;
  if (hasHead) scan.excluded.push({ start: item.content.start, end: head.headEnd });
  // After a label ("**Cons:** …") the text describes the item above, like a description does.
  const kind = hasHead || head.used.length > 0 ? 'description' : 'prose';
  const start = hasHead ? head.headEnd : item.content.start;
  scan.regions.push({ start, end: item.content.end, kind, ...(hasHead ? {} : { listItem: true }) });
  for (const span of continuation) scan.regions.push({ ...span, kind });
}

function detectHead(layout: MarkdownLayout, item: ListItem): ItemHead {
  const { start, end } = item.content;
  const usedMarks: Span[] = [];
  const none: ItemHead = { names: [], headEnd: start, used: usedMarks };
  let cursor = start;
  let mark = firstMarkAt(layout, item.content, cursor);
  if (mark !== undefined) {
    const text = layout.source.slice(mark.start, mark.end).replace(/[*_]/gu, '');
    const colonAfter = /^\s*:/u.exec(layout.plain.slice(mark.end, end));
    const label = (/:\s*$/u.test(text) || colonAfter !== null) && structuralNames(text.replace(/:\s*$/u, '')).length === 0;
    if (label) {
      // "**Best overall:** Garmin Forerunner 265 – …": the name follows the label.
      usedMarks.push(mark);
      cursor = mark.end + (colonAfter?.[0].length ?? 0);
      mark = firstMarkAt(layout, item.content, cursor);
    }
  }
  if (mark !== undefined) {
    const names = structuralNames(layout.source.slice(mark.start, mark.end).replace(/[*_]/gu, ''));
    if (names.length === 0) return none;
    usedMarks.push(mark);
    const found = names.map((surface) => ({ surface, start: locate(layout, mark ?? item.content, surface) }));
    let headEnd = mark.end;
    // "**iPhone 16** and **iPhone 16 Pro** (Apple) – …": several bold names share one head.
    for (;;) {
      const next = nextMark(layout, item.content, headEnd);
      if (next === undefined || !JOINER.test(layout.plain.slice(headEnd, next.start))) break;
      const more = structuralNames(layout.source.slice(next.start, next.end).replace(/[*_]/gu, ''));
      if (more.length === 0) break;
      usedMarks.push(next);
      for (const surface of more) found.push({ surface, start: locate(layout, next, surface) });
      headEnd = next.end;
    }
    return { names: found, headEnd: absorbParenthetical(layout, headEnd), used: usedMarks };
  }
  const rest = layout.plain.slice(cursor, end);
  const separator = HEAD_SEPARATOR.exec(rest);
  const headText = separator === null ? rest : rest.slice(0, separator.index);
  if (separator === null && headText.trim().split(/\s+/u).length > MAX_PLAIN_HEAD_WORDS) return none;
  if (separator !== null && separator.index > 80) return none;
  const names = structuralNames(headText);
  if (names.length === 0) return none;
  const headEnd = cursor + headText.length;
  const located = names.map((surface) => ({ surface, start: locate(layout, { start: cursor, end: headEnd }, surface) }));
  return { names: located, headEnd: absorbParenthetical(layout, headEnd), used: usedMarks };
}

function listHasNamedHeads(layout: MarkdownLayout, list: ListBlock): boolean {
  return list.items.some((item) => detectHead(layout, item).names.length > 0);
}

function scanTable(layout: MarkdownLayout, table: TableBlock, scan: StructuralScan, used: Set<number>): void {
  const headerRow = table.rows[0]?.header === true ? table.rows[0] : undefined;
  const bodyRows = headerRow === undefined ? table.rows : table.rows.slice(1);
  const headerTexts = headerRow?.cells.map((cell) => spanText(layout, cell)) ?? [];
  // A column is picked by its header's words: "Top pick" or "Hosting" names products, "Price" does not.
  const isColumnOf = (text: string, headers: ReadonlySet<string>): boolean => {
    const words = foldWord(text).replace(/[^\p{L} -]/gu, ' ').split(/\s+/u).filter((word) => word !== '');
    const singular = (word: string): string => word.replace(/(?<=[^s])s$/u, '');
    if (words.some((word) => NON_NAME_COLUMN_WORDS.has(word) || NON_NAME_COLUMN_WORDS.has(singular(word)))) return false;
    return words.some((word) => headers.has(word) || headers.has(singular(word)));
  };
  const columnOf = (headers: ReadonlySet<string>): number => headerTexts.findIndex((text) => isColumnOf(text, headers));
  const namedColumns = headerTexts.flatMap((text, column) => (isColumnOf(text, NAME_COLUMN_HEADERS) ? [column] : []));
  const namedColumn = namedColumns[0] ?? -1;
  // "| Category | Top pick | Runner-up |": every column named for products holds names.
  const keyColumns = new Set(namedColumns.length > 0 ? namedColumns : [0]);
  // "| Brand | Model |": the product is the maker and the model together ("Samsung Galaxy A55").
  const makerColumn = columnOf(MAKER_COLUMN_HEADERS);
  const modelColumn = columnOf(MODEL_COLUMN_HEADERS);
  const joinMakerAndModel = makerColumn !== -1 && modelColumn !== -1 && makerColumn !== modelColumn;
  // "| Feature | Notion | Obsidian |": the products are the columns.
  const firstHeader = headerTexts[0] ?? '';
  const columnNames = headerTexts.slice(1).map((text) => structuralNames(text));
  const productsAsColumns =
    headerRow !== undefined &&
    namedColumn === -1 &&
    columnNames.length >= 2 &&
    (firstHeader === '' || firstHeader.split(/\s+/u).every((word) => isGenericWord(word))) &&
    columnNames.filter((names) => names.length > 0).length * 2 > columnNames.length;

  for (const [column, cell] of (headerRow?.cells ?? []).entries()) {
    scan.excluded.push(cell);
    markUsed(layout, cell, used);
    if (!productsAsColumns || column === 0) continue;
    for (const name of structuralNames(spanText(layout, cell))) scan.mentions.push(structural(name, locate(layout, cell, name)));
  }
  for (const row of bodyRows) {
    const maker = row.cells[makerColumn];
    const model = row.cells[modelColumn];
    if (joinMakerAndModel && maker !== undefined && model !== undefined) {
      const makerText = spanText(layout, maker);
      const modelText = spanText(layout, model);
      const joined = modelText.toLowerCase().startsWith(makerText.toLowerCase()) ? modelText : `${makerText} ${modelText}`;
      for (const name of structuralNames(joined)) scan.mentions.push(structural(name, maker.start));
    }
    for (const [column, cell] of row.cells.entries()) {
      if (joinMakerAndModel && (column === makerColumn || column === modelColumn)) {
        scan.excluded.push(cell);
        markUsed(layout, cell, used);
      } else if (!productsAsColumns && keyColumns.has(column)) {
        scan.excluded.push(cell);
        markUsed(layout, cell, used);
        for (const name of structuralNames(spanText(layout, cell))) scan.mentions.push(structural(name, locate(layout, cell, name)));
      } else {
        scan.regions.push({ ...cell, kind: 'description' });
      }
    }
  }
}

function markUsed(layout: MarkdownLayout, span: Span, used: Set<number>): void {
  for (const mark of [...marksWithin(layout.marks.bold, span), ...marksWithin(layout.marks.links, span)]) used.add(mark.start);
}

// The first bold span or link at `from`, with only blanks before it.
function firstMarkAt(layout: MarkdownLayout, within: Span, from: number): Span | undefined {
  const candidates = [...marksWithin(layout.marks.bold, within), ...marksWithin(layout.marks.links, within)]
    .filter((mark) => mark.start >= from)
    .sort((left, right) => left.start - right.start);
  const first = candidates[0];
  if (first === undefined || layout.plain.slice(from, first.start).trim() !== '') return undefined;
  return first;
}

function nextMark(layout: MarkdownLayout, within: Span, from: number): Span | undefined {
  return [...marksWithin(layout.marks.bold, within), ...marksWithin(layout.marks.links, within)]
    .filter((mark) => mark.start >= from)
    .sort((left, right) => left.start - right.start)[0];
}

// "(Vorwerk)", "(Apple)", "(now part of Acorns)": a parenthetical right after a name belongs to it.
function absorbParenthetical(layout: MarkdownLayout, position: number): number {
  const match = /^[ \t]*\([^)\n]*\)/u.exec(layout.plain.slice(position, position + 200));
  return match === null ? position : position + match[0].length;
}

function locate(layout: MarkdownLayout, span: Span, name: string): number {
  const found = layout.source.slice(span.start, span.end).indexOf(name);
  return found === -1 ? span.start : span.start + found;
}

function structural(surface: string, start: number): Mention {
  return { surface, start, source: 'structural', verdict: 'accept' };
}
