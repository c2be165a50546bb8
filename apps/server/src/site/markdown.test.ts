import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from './frontmatter.js';
import { headingSlug, markdownToHtml } from './markdown.js';

describe('markdownToHtml', () => {
  it('shows raw HTML in the source as text instead of passing it through', () => {
    const html = markdownToHtml('Hello <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
  });

  it('keeps only safe link schemes', () => {
    const html = markdownToHtml('[a](javascript:alert(1)) [b](data:text/html,x) [c](/pricing) [d](https://example.com) [e](mailto:x@example.com) [f](#top)');
    expect(html).not.toMatch(/href="(javascript|data):/i);
    expect(html).toContain('href="/pricing"');
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('href="mailto:x@example.com"');
    expect(html).toContain('href="#top"');
    expect(html.startsWith('<p>a b <a href="/pricing">')).toBe(true);
  });

  it('never loads remote images; the alt text stays', () => {
    expect(markdownToHtml('![a chart](https://evil.example/x.png)')).toBe('<p>a chart</p>\n');
  });

  it('gives headings ids and tables a labelled scrolling wrapper with column headers', () => {
    const html = markdownToHtml('## Score & risk\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
    expect(html).toContain('<h2 id="score-risk">');
    expect(html).toContain('<div class="table-scroll" tabindex="0" role="region" aria-label="Table"><table>');
    expect(html).toContain('<th scope="col">a</th>');
  });

  it('slugs headings the way links to them are written', () => {
    expect(headingSlug('Not measured is not "not mentioned"')).toBe('not-measured-is-not-not-mentioned');
    expect(headingSlug('Markdown views and discovery files')).toBe('markdown-views-and-discovery-files');
    expect(headingSlug('Overall <code>score</code>, risk')).toBe('overall-score-risk');
  });
});

describe('parseFrontmatter', () => {
  it('reads title, description and date and returns the body', () => {
    const { meta, body } = parseFrontmatter('---\ntitle: Pricing\ndescription: "Free: no key."\ndate: 2026-11-22\n---\nBody\n', 'x.md');
    expect(meta).toEqual({ title: 'Pricing', description: 'Free: no key.', date: '2026-11-22' });
    expect(body).toBe('Body\n');
  });

  it('refuses a file without the block, a title or a valid date', () => {
    expect(() => parseFrontmatter('# Title\n', 'a.md')).toThrow(/a\.md/);
    expect(() => parseFrontmatter('---\ndescription: x\n---\n', 'b.md')).toThrow(/title/);
    expect(() => parseFrontmatter('---\ntitle: x\ndescription: y\ndate: yesterday\n---\n', 'c.md')).toThrow(/date/);
  });
});
