import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape.js';

describe('escapeHtml', () => {
  it('escapes every character that can open markup or end an attribute', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
  });

  it('leaves ordinary text, accents and emoji alone', () => {
    expect(escapeHtml('Café Niño 🚀 50%')).toBe('Café Niño 🚀 50%');
  });
});
