// Reads an answer with a real markdown parser (remark-parse + remark-gfm, mdast with positions) into
// flat text blocks: headings, paragraphs (in or out of list items) and table cells, each with its
// plain text, where every character came from in the answer, its inline spans (bold, italics,
// links, code) and where it sits in the structure.

import type { Heading, List, ListItem, Nodes, Paragraph, PhrasingContent, Root, RootContent, Table } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

export type InlineKind = 'strong' | 'emphasis' | 'link' | 'code';

export interface InlineSpan {
  kind: InlineKind;
  /** In block-text coordinates. */
  start: number;
  end: number;
  url?: string;
}

export interface ListPlace {
  ordered: boolean;
  depth: number;
  /** 0-based position of the item in its list. */
  index: number;
  /** The item's first paragraph (where its name goes), not a later one. */
  firstParagraph: boolean;
  /** How many items the list has. */
  size: number;
  /** The item holds a list of its own (a group: its head names the group, its sub-items the entries). */
  hasSublist: boolean;
  /**
   * What that list holds: `names` (short heads: the group's entries) or `details` (sentences and
   * `**Label:**` fields about the item: its head is the entry, `- **Acme**` / `  - **Price:** …`).
   */
  sublist?: 'names' | 'details';
}

export interface TablePlace {
  row: number;
  column: number;
  columns: number;
  rows: number;
  /** The header cell of this column, as plain text. */
  header: string;
}

export interface TextBlock {
  kind: 'heading' | 'paragraph' | 'cell';
  text: string;
  /** Answer offset of each character of `text` (one more entry for the end). */
  offsets: number[];
  spans: InlineSpan[];
  depth?: number;
  /** For a heading (or a lone bold line): what its section holds before the next heading of its level or higher (deeper headings, a list of names, a list of details, text). */
  over?: 'headings' | 'names' | 'details' | 'text';
  list?: ListPlace;
  table?: TablePlace;
  /** The nearest heading (or lone bold line) above, as plain text. */
  section: string;
  /** Index of the block in reading order. */
  order: number;
}

const parser = unified().use(remarkParse).use(remarkGfm);

/** Parses the answer and flattens it into text blocks in reading order. */
export function readBlocks(answer: string): TextBlock[] {
  const tree = parser.parse(answer) as Root;
  const blocks: TextBlock[] = [];
  let section = '';
  // Open headings by depth: a heading's own section is the nearest heading above it of a higher level.
  const headings: Array<{ depth: number; text: string }> = [];
  const push = (block: Omit<TextBlock, 'order' | 'section'>, own?: string): void => {
    blocks.push({ ...block, section: own ?? section, order: blocks.length });
  };

  const visitChildren = (nodes: readonly RootContent[], list?: ListPlace): void => {
    let firstParagraph = true;
    nodes.forEach((node, index) => {
      if (node.type === 'heading') {
        const block = phrasingBlock('heading', (node as Heading).children);
        const depth = (node as Heading).depth;
        while ((headings.at(-1)?.depth ?? 0) >= depth) headings.pop();
        const over = headingHolds(nodes, index, depth);
        push(over === undefined ? { ...block, depth } : { ...block, depth, over }, headings.at(-1)?.text ?? '');
        headings.push({ depth, text: block.text });
        section = block.text;
      } else if (node.type === 'paragraph') {
        const block = phrasingBlock('paragraph', (node as Paragraph).children);
        const place = list === undefined ? undefined : { ...list, firstParagraph };
        firstParagraph = false;
        // A lone bold line outside a list is a heading in all but syntax, and so is a short line ending in a colon ("Sources:").
        const headingLike = place === undefined && (isLoneBold(block) || isLeadIn(block));
        const over = headingLike ? headingHolds(nodes, index, 7) : undefined;
        push(place !== undefined ? { ...block, list: place } : over !== undefined ? { ...block, over } : block);
        if (headingLike) section = block.text;
      } else if (node.type === 'list') {
        visitList(node as List, list === undefined ? 0 : list.depth + 1);
      } else if (node.type === 'table') {
        visitTable(node as Table);
      } else if (node.type === 'blockquote') {
        visitChildren(node.children, list);
      }
      // code, html, thematic breaks and definitions carry no names we read.
    });
  };

  const visitList = (node: List, depth: number): void => {
    node.children.forEach((item: ListItem, index) => {
      const sublist = item.children.find((child): child is List => child.type === 'list');
      const place: ListPlace = { ordered: node.ordered === true, depth, index, firstParagraph: true, size: node.children.length, hasSublist: sublist !== undefined };
      if (sublist !== undefined) place.sublist = sublistKind(sublist);
      visitChildren(item.children, place);
    });
  };

  const visitTable = (node: Table): void => {
    const rows = node.children;
    const headers = (rows[0]?.children ?? []).map((cell) => phrasingBlock('cell', cell.children).text);
    const columns = Math.max(...rows.map((row) => row.children.length), 0);
    rows.forEach((row, rowIndex) => {
      row.children.forEach((cell, column) => {
        const block = phrasingBlock('cell', cell.children);
        push({ ...block, table: { row: rowIndex, column, columns, rows: rows.length, header: headers[column] ?? '' } });
      });
    });
  };

  visitChildren(tree.children);
  return blocks;
}

/**
 * What a heading stands over: deeper headings ("## Downtown" over "### 1. Acme Café"), a list of
 * names or of details (judged as sub-lists are), or text. A heading over names is a group label.
 */
function headingHolds(nodes: readonly RootContent[], index: number, depth: number): TextBlock['over'] {
  let first: RootContent | undefined;
  for (let at = index + 1; at < nodes.length; at += 1) {
    const node = nodes[at];
    if (node === undefined) break;
    if (node.type === 'heading') {
      if ((node as Heading).depth <= depth) break;
      return 'headings';
    }
    if (node.type === 'thematicBreak' || node.type === 'html' || node.type === 'definition') continue;
    first ??= node;
    if (depth > 6) break; // a bold line has no deeper headings: what follows it at once is enough
  }
  if (first === undefined) return undefined;
  if (first.type === 'list') return sublistKind(first as List);
  if (first.type === 'table') return 'names';
  return 'text';
}

/** Whether a sub-list holds names (most items open with a short head) or details about its parent. */
function sublistKind(list: List): 'names' | 'details' {
  let details = 0;
  for (const item of list.children) {
    const first = item.children[0];
    if (first?.type !== 'paragraph') continue;
    if (isDetail(first)) details += 1;
  }
  return details * 2 > list.children.length ? 'details' : 'names';
}

/** A `**Label:** …` field, or a sentence with no short head before a separator. */
function isDetail(paragraph: Paragraph): boolean {
  const lead = paragraph.children[0];
  if ((lead?.type === 'strong' || lead?.type === 'emphasis') && /:\s*$/u.test(plainText(lead))) return true;
  const next = paragraph.children[1];
  if (lead?.type === 'strong' && next?.type === 'text' && /^\s*:/u.test(next.value)) return true;
  if (lead?.type === 'strong' || lead?.type === 'link') return false;
  const text = plainText(paragraph);
  const head = text.split(/\s+[—–-]\s+|:\s|\s\(/u)[0] ?? text;
  return head.trim().split(/\s+/u).length > 5;
}

function plainText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  return 'children' in node ? (node.children as Nodes[]).map(plainText).join('') : '';
}

/** A line of at most five words that ends in a colon: it names what follows. */
function isLeadIn(block: Omit<TextBlock, 'order' | 'section'>): boolean {
  return /^[^\n:]{1,60}:\s*$/u.test(block.text) && block.text.trim().split(/\s+/u).length <= 5;
}

function isLoneBold(block: Omit<TextBlock, 'order' | 'section'>): boolean {
  const span = block.spans.find((item) => item.kind === 'strong');
  if (span === undefined) return false;
  return block.text.slice(0, span.start).trim() === '' && /^[\s:.]*$/u.test(block.text.slice(span.end));
}

/** Builds one block's plain text from its inline nodes, keeping source offsets and span ranges. */
function phrasingBlock(kind: TextBlock['kind'], children: readonly PhrasingContent[]): Omit<TextBlock, 'order' | 'section'> {
  let text = '';
  const offsets: number[] = [];
  const spans: InlineSpan[] = [];
  const append = (value: string, start: number | undefined): void => {
    for (let index = 0; index < value.length; index += 1) offsets.push(start === undefined ? (offsets.at(-1) ?? 0) : start + index);
    text += value;
  };
  const walk = (nodes: readonly Nodes[]): void => {
    for (const node of nodes) {
      const start = node.position?.start.offset;
      switch (node.type) {
        case 'text':
          append(node.value, start);
          break;
        case 'inlineCode': {
          const from = text.length;
          append(node.value, start === undefined ? undefined : start + 1);
          spans.push({ kind: 'code', start: from, end: text.length });
          break;
        }
        case 'break':
          append('\n', start);
          break;
        case 'strong':
        case 'emphasis':
        case 'link': {
          const from = text.length;
          walk(node.children as Nodes[]);
          const span: InlineSpan = { kind: node.type === 'link' ? 'link' : node.type, start: from, end: text.length };
          if (node.type === 'link') span.url = node.url;
          spans.push(span);
          break;
        }
        case 'delete':
          walk(node.children as Nodes[]);
          break;
        default:
          break; // images, html, footnote references: no names
      }
    }
  };
  walk(children as Nodes[]);
  offsets.push(offsets.length === 0 ? 0 : (offsets.at(-1) ?? 0) + 1);
  spans.sort((left, right) => left.start - right.start || right.end - left.end);
  return { kind, text, offsets, spans };
}
