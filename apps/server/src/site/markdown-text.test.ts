import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { escapeMarkdown, markdownLines, md, trustedMarkdown } from './markdown-text.js';

const HOSTILE = '<img src=x onerror=alert(1)> [x](javascript:alert(1)) `tick` a|b & www.evil.example';

describe('md', () => {
  it('escapes every interpolated value and keeps the literal markdown', () => {
    const line = md`**${HOSTILE}** scores ${42} · [methodology](/methodology)`;
    expect(line.markdown).toBe(`**${escapeMarkdown(HOSTILE)}** scores 42 · [methodology](/methodology)`);
    const html = marked.parse(line.markdown, { gfm: true, async: false });
    expect(html).toContain('<strong>&lt;img src=x onerror=alert(1)&gt; [x](javascript:alert(1)) `tick` a|b &amp; www.evil.example</strong>');
    expect(html).toContain('<a href="/methodology">methodology</a>');
    expect(html.match(/<a /gu)).toHaveLength(1);
  });

  it('inserts md results and trusted markdown unchanged, once, and joins lists', () => {
    const inner = md`_${'a*b'}_`;
    expect(md`${inner} and ${trustedMarkdown('**bold**')}`.markdown).toBe('_a\\*b_ and **bold**');
    expect(md`${['x<', inner]}`.markdown).toBe('x&lt;_a\\*b_');
    expect(md`${-3} items`.markdown).toBe('\\-3 items');
  });

  it('escapes <, > and & as entities, so even the original Markdown passes no HTML', () => {
    expect(escapeMarkdown('<svg onload=alert(1)> & co')).toBe('&lt;svg onload=alert(1)&gt; &amp; co');
  });

  it('joins lines, blank ones included', () => {
    expect(markdownLines([md`# ${'T<'}`, '', md`body`])).toBe('# T&lt;\n\nbody');
  });
});
