import { describe, expect, it } from 'vitest';
import { html, TrustedHtml, trustedHtml } from './html-text.js';

const HOSTILE = `<img src=x onerror="alert('1')">&copy;`;

describe('the html tagged template', () => {
  it('escapes every interpolated string, in text and in attribute values', () => {
    const out = html`<p title="${HOSTILE}">${HOSTILE}</p>`.html;
    expect(out).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;copy;">&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;copy;</p>',
    );
    expect(out).not.toContain('<img');
  });

  it('inserts its own results and named trusted markup unchanged, and lists joined with nothing', () => {
    const items = ['a<b', 'c&d'].map((name) => html`<li>${name}</li>`);
    const out = html`<ol>${items}</ol>${trustedHtml('<hr>')}${3}`;
    expect(out).toBeInstanceOf(TrustedHtml);
    expect(String(out)).toBe('<ol><li>a&lt;b</li><li>c&amp;d</li></ol><hr>3');
  });

  it('keeps the literal parts as written', () => {
    expect(html`<p class="x">plain</p>\n`.html).toBe('<p class="x">plain</p>\n');
  });
});
