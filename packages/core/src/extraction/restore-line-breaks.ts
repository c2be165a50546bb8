// A one-line answer (copied from a web page, its line breaks lost) gets its breaks back before it is
// parsed: before list markers, headings, numbered items and field labels, so the parser sees its
// structure again instead of one long paragraph.

import { CONNECTORS } from './candidates.js';
import { fold, knowledge } from './knowledge.js';
import { restoreTables } from './restore-table.js';

/**
 * Lines lost when an answer was copied from a web page come back before list markers, headings and
 * field labels (`Price:`, `Best for:`, `Pros:`: a label word opening a phrase of at most three words
 * that ends in a colon), so a name is not read as one run with the label after it.
 */
export function restoreLineBreaks(answer: string): string {
  const text = answer.replace(/\r\n?/gu, '\n');
  // a trailing line break (what a pipe or an editor adds) does not make a one-line answer two lines
  if (text.length < 240 || text.trim().includes('\n')) return text;
  return restoreTables(text)
    .map((piece) => (piece.table ? piece.text : restoreLines(piece.text)))
    .join('\n\n');
}

/** Breaks back before the list markers, headings, numbered items and field labels of running text. */
function restoreLines(text: string): string {
  const numbered = emojiItems(text).replace(/\s+(#{1,4}\s)/gu, '\n\n$1').replace(/([.!?:)*])\s+(\d{1,2}[.)]\s+(?=\S))/gu, '$1\n$2');
  const items = numberedItems(numbered);
  const labelled = numbered
    .replace(NUMBERED_RUN, (match: string, space: string, _number: string, offset: number) =>
      items.has(offset + space.length) ? `\n${match.slice(space.length)}` : match,
    )
    .replace(/([.!?:)*])\s+([-*•]\s+(?=\S))/gu, '$1\n$2')
    .replace(/\s+(\|[^|\n]+\|)\s+(?=\|)/gu, '\n$1\n')
    .replace(FIELD_LABEL, (_match: string, phrase: string) => breakBeforeLabel(phrase));
  const fielded = breakBeforeRepeatedLabels(labelled);
  const dashed = [...fielded.matchAll(DASH_ITEM)].length >= 3 ? fielded.replace(DASH_ITEM, (_match: string, end: string, head: string, dash: string) => `${end}\n${dashItem(head, dash)}`) : fielded;
  const opened = linesOpenedBy(dashed);
  return dashed.replace(NAME_BEFORE_LABEL, (match: string, before: string, name: string, label: string, offset: number) => {
    if ((opened.get(label) ?? 0) < 2) return match;
    // `1. Acme CRM` / `Best for:` is a numbered item with its name as its head already
    if (/(?:^|\s)\d{1,2}[.)]$/u.test(dashed.slice(Math.max(0, offset - 3), offset + 1))) return `${before} ${name}\n${label}`;
    return `${before}\n- **${name}**\n${label}`;
  });
}

/** An emoji opening a heading or an item after a sentence ("… in 2025. 🥇 Acme Bank (…) : …", "… on it. ✅ Globex – …"). */
const EMOJI_ITEM = /([.!?:)])[ \t]+((?:\p{Extended_Pictographic}|\p{Regional_Indicator}{2})\uFE0F?[ \t]*(?=[\p{Lu}\p{N}"“]))/gu;

/**
 * Headings and items an assistant opens with an emoji (medals, checks, pins) lost their line breaks
 * like any other: with two or more of them after a sentence, each becomes a list item again, so its
 * name is an item's head ("- 🥇 Acme Bank (…) : …"). One alone may be a flourish inside the text.
 */
function emojiItems(text: string): string {
  const found = text.match(EMOJI_ITEM);
  if (found === null || found.length < 2) return text;
  return text.replace(EMOJI_ITEM, '$1\n- $2');
}

/**
 * The name a field label follows (`… at scale Globex` / `Best for:`): a capitalised run of up to five
 * words at the end of a line, after a lower-case word or a colon. Made a list item of its own when the
 * same label opens two or more lines (a list of picks, each with its fields, copied as one line).
 */
const NAME_WORD = String.raw`(?:(?:\p{Lu}\.){1,3}|(?:St|Dr|Mt|Mr|Mrs|Ms|Jr|Sr)\.|[\p{Lu}\p{N}](?:[\p{L}\p{N}'’&+-]|\.(?=[\p{L}\p{N}]))*)`;
// a word of the name keeps an inner full stop ("Made.com", "M.J.", "St.") but not one that ends a sentence:
// "… or Riverbend Hills. Acme Pest Why it stands out:" is a sentence and the name "Acme Pest"
const NAME_BEFORE_LABEL = new RegExp(String.raw`([\p{Ll}\p{N}:;,.!?)%]) +(${NAME_WORD}(?: (?:&|\+|${NAME_WORD})){0,4})\n([^\n:]{1,40}:)`, 'gu');

/**
 * A list item whose bullet was lost (a browser does not copy `<ul>` markers): a name of up to five
 * words right after a sentence, then a dash and its description (`… your goal: Acme – Best for habits.
 * Globex – Better grammar.`; not after a number: `2. Acme – …` is a numbered item already, nor after a title's
 * abbreviation: `… Mr. Acme Ramen – …` is one name). Made list items again when the answer has three or more: one or two such
 * sentences may be a dashed aside ("Overall – it depends."), three in one answer are a list.
 */
const DASH_ITEM = /(?<!\d|(?:^|[\s(])(?:Mr|Mrs|Ms|Dr|St|Mt|Jr|Sr|Sra|Sta|vs|No|Nr))([.!?:])[ \t]+((?:(?:Mr|Mrs|Ms|Dr|St|Mt)\.[ \t])?(?:[\p{L}\p{N}][\p{L}\p{N}\p{M}'’&+-]*(?:\.[\p{L}\p{N}]+)*[ \t]){0,4}[\p{L}\p{N}][\p{L}\p{N}\p{M}'’&+-]*(?:\.[\p{L}\p{N}]+)*)[ \t]+([–—]|-)[ \t]+/gu;

/** Lower-case words inside a name: the connectors a capitalised run keeps, and "and" and articles ("Acme and Sons"). */
const NAME_JOINERS: ReadonlySet<string> = new Set([...CONNECTORS, 'y', 'e', 'et', 'and', 'und', 'a', 'an']);

/**
 * A restored item. A head whose lower-case word is followed by capitalised ones was a group's label
 * and the group's first item, run together (`Free options Acme Studio – …`, `Fresh food The Globex
 * Bowl – …`): the label becomes a list item of its own and the name an item under it.
 */
function dashItem(head: string, dash: string): string {
  const words = head.split(/[ \t]+/u);
  for (let index = words.length - 2; index >= 1; index -= 1) {
    const word = words[index] ?? '';
    if (/^\p{Ll}[\p{Ll}-]*$/u.test(word) && !NAME_JOINERS.has(word) && /^[\p{Lu}\p{N}]/u.test(words[index + 1] ?? '') && /^\p{Lu}/u.test(words[0] ?? '')) {
      return `- ${words.slice(0, index + 1).join(' ')}\n  - ${words.slice(index + 1).join(' ')} ${dash} `;
    }
  }
  return `- ${head} ${dash} `;
}

/**
 * A field label that opens each pick's fields (`Why it stands out:`, `Limitations:`) is written two or
 * more times: a line break goes back before each, label words or not. The label is the longest
 * capitalised phrase of up to four words before a colon that the answer writes two or more times
 * (`… Acme Suite Why it stands out: …` → `Acme Suite` / `Why it stands out: …`).
 */
function breakBeforeRepeatedLabels(text: string): string {
  // French writes a space before the colon ("Points forts :")
  const colons = [...text.matchAll(/((?:[\p{L}\p{N}'’-]+ ){0,3}[\p{L}\p{N}'’-]+)[ \u00A0\u202F]?:(?= )/gu)];
  const counts = new Map<string, number>();
  const suffixes = (phrase: string): string[] => {
    const words = phrase.split(' ');
    return words.map((_word, index) => words.slice(index).join(' ')).filter((suffix) => /^\p{Lu}/u.test(suffix));
  };
  for (const match of colons) for (const suffix of suffixes(match[1] ?? '')) counts.set(suffix, (counts.get(suffix) ?? 0) + 1);
  const breaks: number[] = [];
  for (const match of colons) {
    const phrase = match[1] ?? '';
    const label = suffixes(phrase).find((suffix) => (counts.get(suffix) ?? 0) >= 2);
    if (label === undefined) continue;
    const at = (match.index ?? 0) + phrase.length - label.length;
    if (at > 0 && text[at - 1] === ' ') breaks.push(at);
  }
  let out = text;
  for (const at of breaks.reverse()) out = `${out.slice(0, at - 1)}\n${out.slice(at)}`;
  return out;
}

/** How many lines each label (`Best for:`) opens. */
function linesOpenedBy(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/\n([^\n:]{1,40}:)/gu)) {
    const label = match[1] ?? '';
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return counts;
}

/** A number opening an item (`2. Name`, `3) Name`, `4. iName`), wherever the item before it ended. */
const NUMBERED_RUN = /(\s+)(\d{1,2})[.)]\s+(?=[\p{Lu}\p{N}*[]|\p{Ll}+\p{Lu})/gu;

/** Where numbers count 1, 2, 3… through the text: the items of a list whose breaks were lost. */
function numberedItems(text: string): Set<number> {
  const starts = new Set<number>();
  let expected = 1;
  let chain: number[] = [];
  for (const match of text.matchAll(NUMBERED_RUN)) {
    const number = Number(match[2]);
    const at = (match.index ?? 0) + (match[1]?.length ?? 0);
    if (number === expected) {
      chain.push(at);
      expected += 1;
    } else if (number === 1) {
      if (chain.length >= 2) for (const start of chain) starts.add(start);
      chain = [at];
      expected = 2;
    }
  }
  if (chain.length >= 2) for (const start of chain) starts.add(start);
  return starts;
}

/** Up to three words ending in a colon (French puts a space before it), after a word (not after a full stop: that break is not lost). */
const FIELD_LABEL = /(?<=[\p{L}\p{N})%])((?:\s+[\p{L}'’-]+){1,3})[ \u00A0\u202F]?:(?=\s)/gu;

/** Breaks the line before the last capitalised label word of the phrase (`… Initech Suite| Best for:`). */
function breakBeforeLabel(phrase: string): string {
  const words = [...phrase.matchAll(/\s+([\p{L}'’-]+)/gu)];
  const lists = knowledge().lists;
  for (let index = words.length - 1; index >= 0; index -= 1) {
    const word = words[index]?.[1] ?? '';
    const at = words[index]?.index ?? 0;
    if (/^\p{Lu}/u.test(word) && (lists.labelWords.has(fold(word)) || lists.adviceSectionWords.has(fold(word)))) {
      return `${phrase.slice(0, at)}\n${phrase.slice(at).trimStart()}:`;
    }
  }
  return `${phrase}:`;
}
