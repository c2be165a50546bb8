import { describe, expect, it } from 'vitest';
import { parseMarkdown, spanText } from './markdown-structure.js';

describe('parseMarkdown', () => {
  it('keeps offsets: the plain text has the source length and syntax blanked', () => {
    const source = '## Picks\n1. **[Acme](https://acme.com)** – *fast* and `cheap`';
    const layout = parseMarkdown(source);
    expect(layout.plain).toHaveLength(source.length);
    expect(layout.plain).not.toMatch(/[*#[\]`]|https/u);
    const bold = layout.marks.bold[0];
    const link = layout.marks.links[0];
    expect(bold === undefined ? null : source.slice(bold.start, bold.end)).toBe('[Acme](https://acme.com)');
    expect(link === undefined ? null : source.slice(link.start, link.end)).toBe('Acme');
    expect(layout.marks.italic.map((span) => source.slice(span.start, span.end))).toEqual(['fast']);
    expect(layout.marks.code.map((span) => source.slice(span.start, span.end))).toEqual(['cheap']);
  });

  it('groups headings, lists with continuation lines, tables and paragraphs', () => {
    const source = [
      '# Title',
      'Intro line one',
      'intro line two',
      '',
      '- **One** – first',
      '  more about one',
      '',
      '- Two',
      '',
      '| Name | Price |',
      '|---|---|',
      '| Acme | $1 |',
    ].join('\n');
    const layout = parseMarkdown(source);
    expect(layout.blocks.map((block) => block.kind)).toEqual(['heading', 'paragraph', 'list', 'table']);
    const list = layout.blocks[2];
    expect(list?.kind === 'list' ? list.items.map((item) => [spanText(layout, item.content), item.continuation.length]) : null).toEqual([
      ['One – first', 1],
      ['Two', 0],
    ]);
    const table = layout.blocks[3];
    expect(table?.kind === 'table' ? table.rows.map((row) => [row.header, row.cells.map((cell) => spanText(layout, cell))]) : null).toEqual([
      [true, ['Name', 'Price']],
      [false, ['Acme', '$1']],
    ]);
  });

  it('treats a lone bold line and a short "Label:" line as pseudo-headings', () => {
    const layout = parseMarkdown('**Free options**\n- A\n\nPros:\n- Fast\n\n**Tip:** buy early.');
    expect(layout.blocks.map((block) => (block.kind === 'heading' ? `heading:${spanText(layout, block.content)}` : block.kind))).toEqual([
      'heading:Free options',
      'list',
      'heading:Pros',
      'list',
      'paragraph',
    ]);
  });

  it('reads a bulleted line with pipes as a list item, not a table row', () => {
    const layout = parseMarkdown('- Acme | Globex | Initech');
    expect(layout.blocks.map((block) => block.kind)).toEqual(['list']);
  });
});
