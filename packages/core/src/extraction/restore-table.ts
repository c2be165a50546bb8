// A table whose line breaks were lost: its cells still stand apart (a tab, or a run of spaces where
// the page had a cell border), its rows do not (the last cell of a row runs into the first cell of the
// next: "… dealer support Acme Vado 4.0"). The table comes back as markdown, so its cells are read
// as cells again, names in the first column among them.

import { fold, knowledge, knownBrandKey } from './knowledge.js';

/** A cell border in a copied table: a tab, or two spaces or more. */
const BORDER = /\t+ *| {2,}/gu;
/** Longest a cell may be and still count as one (a sentence is not a cell). */
const MAX_CELL = 160;
const MIN_ROWS = 3;
const MAX_MEAN_CELL = 50;
const MAX_COLUMNS = 10;
const MAX_NAME_TOKENS = 6;

interface Segment {
  text: string;
  /** Offset in the answer. */
  start: number;
}

/** A piece of the answer: running text, or a table written back as markdown. */
export interface Piece {
  text: string;
  table: boolean;
}

/** The answer cut into running text and the lost tables in it, each written back as a markdown table. */
export function restoreTables(text: string): Piece[] {
  const borders = [...text.matchAll(BORDER)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
  if (borders.length < MIN_ROWS) return [{ text, table: false }];
  const pieces: Piece[] = [];
  let done = 0;
  let index = 0;
  while (index < borders.length) {
    // a region: borders no more than MAX_CELL apart
    let last = index;
    while (last + 1 < borders.length && (borders[last + 1]?.start ?? 0) - (borders[last]?.end ?? 0) <= MAX_CELL) last += 1;
    const region = borders.slice(index, last + 1);
    index = last + 1;
    const first = region[0];
    if (first === undefined) continue;
    const segments: Segment[] = [];
    let from = Math.max(done, text.lastIndexOf('\n', first.start) + 1);
    for (const border of region) {
      segments.push({ text: text.slice(from, border.start), start: from });
      from = border.end;
    }
    // the last segment runs to the next region or the end of the line
    const newline = text.indexOf('\n', from);
    const tailEnd = Math.min(index < borders.length ? (borders[index]?.start ?? text.length) : text.length, newline === -1 ? text.length : newline);
    segments.push({ text: text.slice(from, tailEnd), start: from });
    // the text before the table may end at a border of its own ("… compare:\tTool\tPrice …")
    const opensTable = /[.:!?]\s*$/u.test(segments[0]?.text ?? '');
    if (opensTable) segments.shift();
    const table = rebuild(segments, opensTable);
    if (table === null) continue;
    const before = text.slice(done, table.start).trim();
    if (before !== '') pieces.push({ text: before, table: false });
    pieces.push({ text: table.markdown, table: true });
    done = table.end;
  }
  const rest = text.slice(done).trim();
  if (rest !== '' || pieces.length === 0) pieces.push({ text: done === 0 ? text : rest, table: false });
  return pieces;
}

/** Where a segment that holds two cells (the end of a row and the start of the next) splits: before its trailing capitalised run. */
function rowBreak(text: string): number | null {
  const tokens = [...text.matchAll(/\S+/gu)];
  let at = tokens.length;
  while (at > 0 && tokens.length - at < MAX_NAME_TOKENS) {
    const token = tokens[at - 1]?.[0] ?? '';
    // "… Lifetime Acme & Sons Carry-On": an ampersand between capitalised words is inside the name
    const joiner = /^[&+]$/u.test(token) && at < tokens.length && at >= 2 && /^\p{Lu}/u.test(tokens[at - 2]?.[0] ?? '');
    if (!joiner && !/^[\p{Lu}\p{N}(]/u.test(token)) break;
    at -= 1;
  }
  if (at === tokens.length) return null;
  // a known brand inside the run opens the next row ("… in-flight Wi-Fi Acme Unlimited", "Notes Acme Mobile"):
  // the last one, so the cell before keeps its own capitalised words
  for (let brand = tokens.length - 1; brand >= Math.max(at, 1); brand -= 1) {
    if (opensKnownBrand(tokens.slice(brand).map((token) => token[0]))) return tokens[brand]?.index ?? null;
  }
  if (at === 0) {
    if (tokens.length < 2) return null;
    // a header's last cell and a name ("Price Acme Glide Spinner"): the name starts at the first word
    // that is no everyday word, after everyday ones
    const k = knowledge();
    const first = tokens.findIndex((token) => !k.commonRank.has(fold(token[0])));
    if (first > 0) return tokens[first]?.index ?? null;
    // all capitalised otherwise ("Globex Price"): the next row opens with the last word
    return tokens.at(-1)?.index ?? null;
  }
  return tokens[at]?.index ?? null;
}

/** Whether the words open with a brand the gazetteers know ("Acme Unlimited Plus", "Acme Mobile" for a known Acme). */
function opensKnownBrand(words: readonly string[]): boolean {
  const k = knowledge();
  for (let length = 1; length <= Math.min(3, words.length); length += 1) {
    const key = knownBrandKey(words.slice(0, length).join(' '));
    // not a short key ("Fi"), nor a chain's name that is an everyday word ("Notes", "Office")
    if (key.length < 4) continue;
    if (k.knownBrands.has(key) || (k.chainBrands.has(key) && (length > 1 || !k.commonRank.has(key)))) return true;
  }
  return false;
}

/** Where the prose before a table ends: after its last sentence or colon, else before the trailing capitalised run. */
function headerStart(text: string): number | null {
  const sentence = /[.:!?]\s+(?=\S[^.:!?]*$)/u.exec(text);
  if (sentence !== null) {
    const start = sentence.index + sentence[0].length;
    if (text.slice(start).split(/\s+/u).length <= 4) return start;
  }
  // a short first segment is the first cell itself (the table opens the answer)
  return rowBreak(text) ?? (text.trim().split(/\s+/u).length <= 4 ? 0 : null);
}

function rebuild(segments: readonly Segment[], opensTable: boolean): { start: number; end: number; markdown: string } | null {
  const joins = segments.length - 1;
  const head = segments[0];
  if (head === undefined) return null;
  // the table opens the text (or the text before it ended at a border): its first segment is a cell
  const headerAt = opensTable ? 0 : headerStart(head.text);
  if (headerAt === null) return null;
  // a header with an empty corner cell ("| | Acme | Globex |") copies one cell short
  for (const corner of [false, true]) {
    for (let width = corner ? 2 : 1; width < MAX_COLUMNS; width += 1) {
      const first = corner ? width - 1 : width;
      if ((joins - first) % width !== 0) continue;
      const rows = (joins - first) / width + 1;
      if (rows < MIN_ROWS) continue;
      // every segment where a row ends must hold the next row's first cell
      const breaks = new Map<number, number>();
      for (let position = first; position < joins; position += width) {
        const at = rowBreak(segments[position]?.text ?? '');
        if (at === null) break;
        breaks.set(position, at);
      }
      if (breaks.size !== rows - 1) continue;
      const table = build(segments, breaks, headerAt, corner, width);
      if (table !== null) return { start: head.start + headerAt, ...table };
    }
  }
  return null;
}

function build(segments: readonly Segment[], breaks: ReadonlyMap<number, number>, headerAt: number, corner: boolean, width: number): { end: number; markdown: string } | null {
  const cells: string[][] = [];
  let current: string[] = corner ? ['', (segments[0]?.text ?? '').slice(headerAt).trim()] : [(segments[0]?.text ?? '').slice(headerAt).trim()];
  let end = 0;
  for (let position = 1; position < segments.length; position += 1) {
    const segment = segments[position];
    if (segment === undefined) break;
    const at = breaks.get(position);
    if (at !== undefined) {
      current.push(segment.text.slice(0, at).trim());
      cells.push(current);
      current = [segment.text.slice(at).trim()];
    } else if (position === segments.length - 1) {
      // the last cell runs into the text after the table: it ends at its first full stop, or before
      // a label or heading that opens what follows ("… regular bike Key Considerations: …")
      const stop = /[.!?](?=\s+[\p{Lu}\p{N}"“]|$)/u.exec(segment.text);
      const label = /\s\p{Lu}\p{Ll}[\p{L}'’-]*(?:\s[\p{L}'’-]+){0,2}:(?=\s|$)/u.exec(segment.text);
      const cell = segment.text.slice(0, Math.min(stop === null ? segment.text.length : stop.index + 1, label === null ? segment.text.length : label.index));
      current.push(cell.trim());
      cells.push(current);
      end = segment.start + cell.length;
    } else {
      current.push(segment.text.trim());
    }
  }
  const [header, ...body] = cells;
  if (header === undefined || cells.some((row) => row.length !== width + 1 || row.some((value, column) => value === '' && !(corner && row === header && column === 0)))) return null;
  // cells are short (the last one aside: it may run on into the text after the table), and
  // sentences spaced twice are not a table
  const lengths = cells.flat().slice(0, -1).map((value) => value.length);
  if (lengths.some((length) => length > MAX_CELL) || lengths.reduce((sum, value) => sum + value, 0) / lengths.length > MAX_MEAN_CELL) return null;
  const line = (row: readonly string[]): string => `| ${row.map((value) => value.replace(/\|/gu, '/')).join(' | ')} |`;
  return { end, markdown: [line(header), `|${header.map(() => '---').join('|')}|`, ...body.map(line)].join('\n') };
}
