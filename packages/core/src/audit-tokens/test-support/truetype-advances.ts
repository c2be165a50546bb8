import { readFileSync } from 'node:fs';

/**
 * Advance widths (in em) of a TrueType font's characters, read from its cmap (format 4) and hmtx
 * tables: enough to check the badge's width table against a real font file, with no font library.
 */
export function readTrueTypeAdvances(path: string): (codePoint: number) => number {
  const font = readFileSync(path);
  const tables = new Map<string, number>();
  for (let index = 0; index < font.readUInt16BE(4); index += 1) {
    const record = 12 + index * 16;
    tables.set(font.toString('ascii', record, record + 4), font.readUInt32BE(record + 8));
  }
  const table = (tag: string): number => {
    const offset = tables.get(tag);
    if (offset === undefined) throw new Error(`${path} has no ${tag} table`);
    return offset;
  };
  const unitsPerEm = font.readUInt16BE(table('head') + 18);
  const horizontalMetrics = font.readUInt16BE(table('hhea') + 34);
  const cmap = table('cmap');
  let subtable: number | undefined;
  for (let index = 0; index < font.readUInt16BE(cmap + 2); index += 1) {
    const platform = font.readUInt16BE(cmap + 4 + index * 8);
    const encoding = font.readUInt16BE(cmap + 6 + index * 8);
    if (platform === 3 && encoding === 1) subtable = cmap + font.readUInt32BE(cmap + 8 + index * 8);
  }
  if (subtable === undefined || font.readUInt16BE(subtable) !== 4) throw new Error(`${path} has no Unicode BMP cmap`);
  const segments = font.readUInt16BE(subtable + 6) / 2;
  const ends = subtable + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;

  function glyphOf(codePoint: number): number {
    for (let segment = 0; segment < segments; segment += 1) {
      if (codePoint > font.readUInt16BE(ends + segment * 2)) continue;
      const start = font.readUInt16BE(starts + segment * 2);
      if (codePoint < start) return 0;
      const delta = font.readInt16BE(deltas + segment * 2);
      const rangeOffset = font.readUInt16BE(rangeOffsets + segment * 2);
      if (rangeOffset === 0) return (codePoint + delta) & 0xffff;
      const glyph = font.readUInt16BE(rangeOffsets + segment * 2 + rangeOffset + (codePoint - start) * 2);
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
    }
    return 0;
  }

  return (codePoint) => {
    const metric = Math.min(glyphOf(codePoint), horizontalMetrics - 1);
    return font.readUInt16BE(table('hmtx') + metric * 4) / unitsPerEm;
  };
}
