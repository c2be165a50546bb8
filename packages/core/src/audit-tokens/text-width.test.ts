import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTrueTypeAdvances } from './test-support/truetype-advances.js';
import { ELLIPSIS, fitTextToWidth, measureTextWidth, TABLE_FONT_SIZE } from './text-width.js';

const DEJAVU_SANS = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const PRINTABLE_ASCII = Array.from({ length: 0x7f - 0x20 }, (_, index) => String.fromCharCode(0x20 + index));
const TABLED_OTHERS = ['©', '®', '·', 'Æ', 'Ø', 'ß', 'æ', 'ø', 'Œ', 'œ', '–', '—', '’', '“', '”', '•', '…', '€', '™'];
const graphemes = (text: string) => [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].map((part) => part.segment);

describe('measureTextWidth', () => {
  // Skipped where the font is not installed; the Verdana sample below always runs.
  it.skipIf(!existsSync(DEJAVU_SANS))('is never narrower than DejaVu Sans draws a character (checked against the font file)', () => {
    const advance = readTrueTypeAdvances(DEJAVU_SANS);
    for (const character of [...PRINTABLE_ASCII, ...TABLED_OTHERS]) {
      const fontWidth = advance(character.codePointAt(0) ?? 0) * TABLE_FONT_SIZE;
      expect(measureTextWidth(character), character).toBeGreaterThanOrEqual(fontWidth - 1e-9);
      // Rounded up to 0.1px, never padded further than that plus the Verdana difference.
      expect(measureTextWidth(character), character).toBeLessThan(fontWidth + 2.6);
    }
  });

  it('is never narrower than Verdana draws a sample of characters (Verdana widths in 1/1000 em)', () => {
    const verdana: Record<string, number> = { ' ': 351, a: 600, e: 595, i: 274, m: 972, r: 426, W: 988, M: 842, I: 420, '%': 1076, '·': 363 };
    for (const [character, thousandths] of Object.entries(verdana)) {
      expect(measureTextWidth(character), character).toBeGreaterThanOrEqual((thousandths / 1000) * TABLE_FONT_SIZE);
    }
  });

  it('adds up characters and scales linearly with the font size', () => {
    expect(measureTextWidth('')).toBe(0);
    expect(measureTextWidth('mi')).toBeCloseTo(measureTextWidth('m') + measureTextWidth('i'), 10);
    expect(measureTextWidth('Acme CRM', 22)).toBeCloseTo(2 * measureTextWidth('Acme CRM', 11), 10);
    expect(measureTextWidth('i')).toBeLessThan(measureTextWidth('m'));
  });

  it('measures accented letters as their base letter and combining marks as nothing', () => {
    expect(measureTextWidth('é')).toBe(measureTextWidth('e'));
    expect(measureTextWidth('e\u0301')).toBe(measureTextWidth('e'));
    expect(measureTextWidth('Ångström')).toBe(measureTextWidth('Angstrom'));
  });

  it('over-estimates characters it has no entry for: wide scripts and emoji more than other letters', () => {
    expect(measureTextWidth('Ж')).toBeGreaterThanOrEqual(TABLE_FONT_SIZE);
    expect(measureTextWidth('漢')).toBeGreaterThan(measureTextWidth('Ж'));
    expect(measureTextWidth('🚀')).toBeGreaterThanOrEqual(TABLE_FONT_SIZE * 1.25);
  });
});

describe('fitTextToWidth', () => {
  it('leaves text that fits unchanged', () => {
    const width = measureTextWidth('Acme', 13);
    expect(fitTextToWidth('Acme', width, 13)).toEqual({ text: 'Acme', width, truncated: false });
  });

  it('cuts text that does not fit and ends it with an ellipsis, within the width', () => {
    const long = 'The Extraordinarily Long Brand Name Incorporated of Greater Metropolitan Area';
    const fitted = fitTextToWidth(long, 150, 13);
    expect(fitted.truncated).toBe(true);
    expect(fitted.text.endsWith(ELLIPSIS)).toBe(true);
    expect(long.startsWith(fitted.text.slice(0, -1))).toBe(true);
    expect(fitted.width).toBe(measureTextWidth(fitted.text, 13));
    expect(fitted.width).toBeLessThanOrEqual(150);
    // As much as fits: one more character (after the spaces dropped before the ellipsis) would not have.
    let end = fitted.text.length - 1;
    while (long[end] === ' ') end += 1;
    expect(measureTextWidth(`${long.slice(0, end + 1)}${ELLIPSIS}`, 13)).toBeGreaterThan(150);
  });

  it('never cuts inside an emoji sequence or an accented letter, and drops the space before the ellipsis', () => {
    const family = '👩‍👩‍👧‍👦';
    const text = `Café ${family}${family}${family}${family} Studio`;
    for (let maxWidth = 20; maxWidth < measureTextWidth(text, 13); maxWidth += 3) {
      const fitted = fitTextToWidth(text, maxWidth, 13);
      const kept = graphemes(fitted.text.slice(0, -1));
      expect(graphemes(text).slice(0, kept.length)).toEqual(kept);
      expect(fitted.text).not.toMatch(/\s…$/);
      expect(fitted.width).toBeLessThanOrEqual(maxWidth);
    }
  });

  it('gives up with an empty string when not even the ellipsis fits', () => {
    expect(fitTextToWidth('Acme', 5, 13)).toEqual({ text: '', width: 0, truncated: true });
  });
});
