/**
 * Text width for the badge font without a font dependency, the way shields.io does it: a table of
 * advance widths at 11px. Each entry is the larger advance of Verdana and DejaVu Sans (the two fonts
 * the badge names first; DejaVu is what most Linux viewers fall back to), rounded up to 0.1px, so a
 * measured string is at least as wide as either font draws it (kerning only narrows it).
 */

/** The font stack of the badge: the table is measured for its first two entries. */
export const BADGE_FONT_FAMILY = 'Verdana,DejaVu Sans,Geneva,sans-serif';

/** The size the table is measured at; other sizes scale linearly. */
export const TABLE_FONT_SIZE = 11;

/** Where truncated text is cut. */
export const ELLIPSIS = '…';

// Advance widths at 11px of the printable ASCII characters, U+0020 (space) to U+007E (~), in order.
const ASCII_WIDTHS: readonly number[] = [
  3.9, 4.5, 5.1, 9.3, 7, 11.9, 8.6, 3.1, 5, 5, 7, 9.3, 4, 5, 4, 5, // space ! " # $ % & ' ( ) * + , - . /
  7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 5, 5, 9.3, 9.3, 9.3, 6, // 0-9 : ; < = > ?
  11, 7.6, 7.6, 7.7, 8.5, 7, 6.4, 8.6, 8.3, 4.7, 5, 7.7, 6.2, 9.5, 8.3, 8.7, // @ A-O
  6.7, 8.7, 7.7, 7.6, 6.8, 8.1, 7.6, 10.9, 7.6, 6.8, 7.6, 5, 5, 5, 9.3, 7, // P-Z [ \ ] ^ _
  7, 6.8, 7, 6.1, 7, 6.8, 3.9, 7, 7, 3.1, 3.8, 6.6, 3.1, 10.8, 7, 6.8, // ` a-o
  7, 7, 4.7, 5.8, 4.4, 7, 6.6, 9, 6.6, 6.6, 5.8, 7, 5, 7, 9.3, // p-z { | } ~
];

// Characters outside ASCII that brands and our own labels commonly use and that do not decompose to
// an ASCII letter (accented letters are measured by their base letter instead).
const OTHER_WIDTHS: ReadonlyMap<string, number> = new Map([
  ['\u00a0', 3.9], ['©', 11], ['®', 11], ['·', 4], ['Æ', 10.9], ['Ð', 8.6], ['Ø', 8.7], ['Þ', 6.7],
  ['ß', 7], ['æ', 10.9], ['ð', 6.8], ['ø', 6.8], ['þ', 7], ['ı', 3.1], ['Ł', 6.2], ['ł', 3.2],
  ['Œ', 11.8], ['œ', 11.3], ['–', 7], ['—', 11], ['‘', 3.5], ['’', 3.5], ['“', 5.7], ['”', 5.7],
  ['•', 6.5], [ELLIPSIS, 11], ['€', 7], ['™', 11],
]);

// Anything else is over-estimated rather than allowed to overflow: 1.1 em covers the widest letters
// of other alphabets (Cyrillic Љ is 1.02 em in Verdana), 1.3 em covers CJK, Hangul and emoji.
const UNKNOWN_WIDTH = 1.1 * TABLE_FONT_SIZE;
const WIDE_WIDTH = 1.3 * TABLE_FONT_SIZE;
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f000}-\u{1faff}\u{20000}-\u{3fffd}]|\p{Extended_Pictographic}/u;
// Marks, format characters (zero-width joiner, bidi marks) and variation selectors take no advance.
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}\ufe00-\ufe0f]/u;

function characterWidth(character: string): number {
  const code = character.codePointAt(0) ?? 0;
  if (code >= 0x20 && code <= 0x7e) return ASCII_WIDTHS[code - 0x20] ?? UNKNOWN_WIDTH;
  const known = OTHER_WIDTHS.get(character);
  if (known !== undefined) return known;
  if (ZERO_WIDTH.test(character)) return 0;
  if (WIDE.test(character)) return WIDE_WIDTH;
  const decomposed = character.normalize('NFD');
  // "é" is drawn as wide as "e": measure the base letter, the combining accent adds nothing.
  if (decomposed !== character) return [...decomposed].reduce((total, part) => total + characterWidth(part), 0);
  return UNKNOWN_WIDTH;
}

/** Width in px of text drawn in the badge font at fontSize (never less than the fonts draw it). */
export function measureTextWidth(text: string, fontSize: number = TABLE_FONT_SIZE): number {
  let total = 0;
  for (const character of text) total += characterWidth(character);
  return (total * fontSize) / TABLE_FONT_SIZE;
}

export interface FittedText {
  text: string;
  /** Measured width of `text` in px. */
  width: number;
  truncated: boolean;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Text that fits maxWidth px at fontSize: unchanged when it fits, else cut at a grapheme boundary
 * (never inside an emoji or an accented letter) and ended with an ellipsis.
 */
export function fitTextToWidth(text: string, maxWidth: number, fontSize: number = TABLE_FONT_SIZE): FittedText {
  const fullWidth = measureTextWidth(text, fontSize);
  if (fullWidth <= maxWidth) return { text, width: fullWidth, truncated: false };
  const budget = maxWidth - measureTextWidth(ELLIPSIS, fontSize);
  if (budget < 0) return { text: '', width: 0, truncated: true };
  let kept = '';
  let keptWidth = 0;
  for (const { segment } of graphemes.segment(text)) {
    const segmentWidth = measureTextWidth(segment, fontSize);
    if (keptWidth + segmentWidth > budget) break;
    kept += segment;
    keptWidth += segmentWidth;
  }
  // "Acme …" reads worse than "Acme…".
  const result = `${kept.trimEnd()}${ELLIPSIS}`;
  return { text: result, width: measureTextWidth(result, fontSize), truncated: true };
}
