// A small markdown reader for assistant answers: headings, lists, tables, paragraphs and inline
// bold/italic/links/code. It keeps every offset of the source: `plain` is the source with markdown
// syntax blanked to spaces, so a position in `plain` is the same position in the answer.

/** A half-open range of offsets in the answer. */
export interface Span {
  start: number;
  end: number;
}

export interface HeadingBlock {
  kind: 'heading';
  content: Span;
  /** True for a paragraph that is a lone bold line ("**Free options**"), which acts as a heading. */
  pseudo: boolean;
}

export interface ListItem {
  content: Span;
  indent: number;
  /** Indented lines that continue the item. */
  continuation: Span[];
}

export interface ListBlock {
  kind: 'list';
  items: ListItem[];
}

export interface TableRow {
  cells: Span[];
  header: boolean;
}

export interface TableBlock {
  kind: 'table';
  rows: TableRow[];
}

export interface ParagraphBlock {
  kind: 'paragraph';
  lines: Span[];
}

export type Block = HeadingBlock | ListBlock | TableBlock | ParagraphBlock;

export interface InlineMarks {
  bold: Span[];
  links: Span[];
  italic: Span[];
  code: Span[];
}

export interface MarkdownLayout {
  source: string;
  plain: string;
  blocks: Block[];
  marks: InlineMarks;
}

const HEADING = /^( {0,3})(#{1,6})[ \t]+/u;
const LIST_MARKER = /^([ \t]*)([-*+•]|\d{1,3}[.)])[ \t]+/u;
const TABLE_SEPARATOR = /^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$/u;
const RULE = /^[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*$/u;

/** Parses an answer into blocks and inline marks, keeping offsets. */
export function parseMarkdown(source: string): MarkdownLayout {
  const plain = source.split('');
  const marks: InlineMarks = { bold: [], links: [], italic: [], code: [] };
  const blocks: Block[] = [];
  const blank = (start: number, end: number): void => {
    for (let index = start; index < end; index += 1) if (plain[index] !== '\n') plain[index] = ' ';
  };

  let current: Block | null = null;
  let previousBlank = true;
  let offset = 0;
  for (const rawLine of source.split('\n')) {
    const lineStart = offset;
    const lineEnd = offset + rawLine.length;
    offset = lineEnd + 1;
    let contentStart = lineStart;
    // Blockquotes read like their contents.
    const quote = /^[ \t]*(?:>[ \t]?)+/u.exec(rawLine);
    if (quote !== null) {
      blank(lineStart, lineStart + quote[0].length);
      contentStart += quote[0].length;
    }
    const line = source.slice(contentStart, lineEnd);
    if (line.trim() === '' || RULE.test(line)) {
      blank(contentStart, lineEnd);
      previousBlank = true;
      if (current?.kind !== 'list') current = null;
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading !== null) {
      blank(contentStart, contentStart + heading[0].length);
      const content = trimSpan(source, contentStart + heading[0].length, lineEnd);
      // Closing hashes ("## Title ##") are syntax too.
      const closing = /[ \t]#+[ \t]*$/u.exec(source.slice(content.start, content.end));
      if (closing !== null) {
        blank(content.start + closing.index, content.end);
        content.end = content.start + closing.index;
      }
      parseInline(source, content, plain, marks);
      current = { kind: 'heading', content, pseudo: false };
      blocks.push(current);
      current = null;
      previousBlank = false;
      continue;
    }

    if (TABLE_SEPARATOR.test(line) && line.includes('-') && current?.kind === 'table') {
      const last = current.rows[current.rows.length - 1];
      if (last !== undefined && current.rows.length === 1) last.header = true;
      blank(contentStart, lineEnd);
      previousBlank = false;
      continue;
    }

    if (isTableLine(line)) {
      const cells = splitCells(source, contentStart, lineEnd);
      for (const cell of cells) parseInline(source, cell, plain, marks);
      for (let index = contentStart; index < lineEnd; index += 1) if (source[index] === '|') plain[index] = ' ';
      if (current?.kind !== 'table') {
        current = { kind: 'table', rows: [] };
        blocks.push(current);
      }
      current.rows.push({ cells, header: false });
      previousBlank = false;
      continue;
    }

    const marker = LIST_MARKER.exec(line);
    if (marker !== null) {
      const indent = (marker[1] ?? '').replace(/\t/gu, '    ').length;
      blank(contentStart, contentStart + marker[0].length);
      const content = trimSpan(source, contentStart + marker[0].length, lineEnd);
      parseInline(source, content, plain, marks);
      if (current?.kind !== 'list') {
        current = { kind: 'list', items: [] };
        blocks.push(current);
      }
      current.items.push({ content, indent, continuation: [] });
      previousBlank = false;
      continue;
    }

    const content = trimSpan(source, contentStart, lineEnd);
    parseInline(source, content, plain, marks);
    const lastItem = current?.kind === 'list' ? current.items[current.items.length - 1] : undefined;
    const label = lastItem === undefined || !/^[ \t]{2,}/u.test(line) ? labelLine(source, content, marks) : null;
    if (label !== null) {
      blocks.push({ kind: 'heading', content: label, pseudo: true });
      current = null;
    } else if (lastItem !== undefined && /^[ \t]{2,}/u.test(line)) {
      lastItem.continuation.push(content);
    } else if (current?.kind === 'paragraph' && !previousBlank) {
      current.lines.push(content);
    } else {
      current = { kind: 'paragraph', lines: [content] };
      blocks.push(current);
    }
    previousBlank = false;
  }

  return { source, plain: plain.join(''), blocks, marks };
}

/** The text of a span with markdown syntax blanked. */
export function spanText(layout: MarkdownLayout, span: Span): string {
  return layout.plain.slice(span.start, span.end).replace(/\s+/gu, ' ').trim();
}

/** The marks of one kind that start inside a span. */
export function marksWithin(spans: readonly Span[], within: Span): Span[] {
  return spans.filter((span) => span.start >= within.start && span.end <= within.end);
}

function trimSpan(source: string, start: number, end: number): Span {
  let from = start;
  let to = end;
  while (from < to && /\s/u.test(source[from] ?? '')) from += 1;
  while (to > from && /\s/u.test(source[to - 1] ?? '')) to -= 1;
  return { start: from, end: to };
}

function isTableLine(line: string): boolean {
  const trimmed = line.trim();
  if (trimmed.startsWith('|')) return trimmed.length > 1 && trimmed.slice(1).includes('|');
  return (trimmed.match(/\|/gu) ?? []).length >= 2 && !/^[-*+•]\s/u.test(trimmed);
}

function splitCells(source: string, start: number, end: number): Span[] {
  const cells: Span[] = [];
  let cellStart = start;
  for (let index = start; index <= end; index += 1) {
    if (index === end || (source[index] === '|' && source[index - 1] !== '\\')) {
      cells.push(trimSpan(source, cellStart, index));
      cellStart = index + 1;
    }
  }
  // The pipes before the first and after the last cell open and close the row.
  const first = cells[0];
  if (first !== undefined && first.start === first.end && source.slice(start, end).trim().startsWith('|')) cells.shift();
  const last = cells[cells.length - 1];
  if (last !== undefined && last.start === last.end && source.slice(start, end).trim().endsWith('|')) cells.pop();
  return cells;
}

function parseInline(source: string, span: Span, plain: string[], marks: InlineMarks): void {
  const text = source.slice(span.start, span.end);
  const base = span.start;
  const taken = new Array<boolean>(text.length).fill(false);
  const blankAt = (from: number, to: number): void => {
    for (let index = from; index < to; index += 1) {
      plain[base + index] = ' ';
      taken[index] = true;
    }
  };
  const free = (from: number, to: number): boolean => {
    for (let index = from; index < to; index += 1) if (taken[index]) return false;
    return true;
  };

  for (const match of text.matchAll(/`[^`\n]+`/gu)) {
    const at = match.index;
    marks.code.push({ start: base + at + 1, end: base + at + match[0].length - 1 });
    blankAt(at, at + 1);
    blankAt(at + match[0].length - 1, at + match[0].length);
  }
  for (const match of text.matchAll(/!?\[([^\]\n]+)\]\(([^)\s]*)(?:\s+"[^"]*")?\)/gu)) {
    const at = match.index;
    const label = match[1] ?? '';
    if (!free(at, at + 1)) continue;
    const labelEnd = at + match[0].indexOf(']');
    marks.links.push({ start: base + labelEnd - label.length, end: base + labelEnd });
    blankAt(at, labelEnd - label.length);
    blankAt(labelEnd, at + match[0].length);
  }
  for (const match of text.matchAll(/\bhttps?:\/\/[^\s)]+/gu)) {
    if (free(match.index, match.index + 1)) blankAt(match.index, match.index + match[0].length);
  }
  for (const match of text.matchAll(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/gu)) {
    const at = match.index;
    const width = (match[1] ?? '**').length;
    if (!free(at, at + width)) continue;
    marks.bold.push({ start: base + at + width, end: base + at + match[0].length - width });
    blankAt(at, at + width);
    blankAt(at + match[0].length - width, at + match[0].length);
  }
  for (const match of text.matchAll(/(?<![*\p{L}\p{N}])([*_])(?=[^\s*_])([^*_\n]*?[^\s*_])\1(?![*\p{L}\p{N}])/gu)) {
    const at = match.index;
    if (!free(at, at + 1) || !free(at + match[0].length - 1, at + match[0].length)) continue;
    marks.italic.push({ start: base + at + 1, end: base + at + match[0].length - 1 });
    blankAt(at, at + 1);
    blankAt(at + match[0].length - 1, at + match[0].length);
  }
  for (const match of text.matchAll(/<\/?[a-z][^>]*>/giu)) blankAt(match.index, match.index + match[0].length);
}

// A line that is one bold span (maybe with a colon after it), or a short "Label:" line,
// introduces what follows like a heading. Returns the label's span, or null.
function labelLine(source: string, line: Span, marks: InlineMarks): Span | null {
  const text = source.slice(line.start, line.end);
  if (/^[^*_:\n]{1,40}:$/u.test(text) && text.split(/\s+/u).length <= 5) return { start: line.start, end: line.end - 1 };
  const bold = marks.bold.find((span) => span.start >= line.start && span.end <= line.end);
  if (bold === undefined) return null;
  const before = source.slice(line.start, bold.start).replace(/[*_\s]/gu, '');
  const after = source.slice(bold.end, line.end).replace(/[*_\s:]/gu, '');
  return before === '' && after === '' ? bold : null;
}
