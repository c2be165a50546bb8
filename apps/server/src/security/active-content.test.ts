import { describe, expect, it } from 'vitest';
import { ACCOUNT_PAGE_ELEMENTS, findActiveContent, SVG_BADGE_ELEMENTS } from './test-support/active-content.js';

// The injection tests are only as good as the detector they use: it must flag every payload shape they
// send when it arrives unescaped, and nothing when it arrives escaped.

const PAGE = { allowedElements: ACCOUNT_PAGE_ELEMENTS };

describe('findActiveContent (the injection tests\' detector)', () => {
  it.each([
    ['a script element', '<p><script>alert(1)</script></p>'],
    ['an attribute breakout into <img onerror>', '<input value=""><img src=x onerror=alert(1)>">'],
    ['an event handler on an allowed element', '<p onmouseover="alert(1)">x</p>'],
    ['a javascript: link', '<a href="javascript:alert(1)">x</a>'],
    ['a javascript: link hidden by an entity-encoded tab and case', '<a href="JaVa&#x09;Script:alert(1)">x</a>'],
    ['a data: link', '<a href="data:text/html,<script>alert(1)</script>">x</a>'],
    ['SVG foreignObject', '<svg><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject></svg>'],
    ['a CSS expression in a style attribute', '<p style="width:expression(alert(1))">x</p>'],
    ['a CSS url(javascript:) in a style attribute', '<p style="background:url(javascript:alert(1))">x</p>'],
    ['a CSS expression in a <style> block', '<style>p{width:expression(alert(1))}</style>'],
    ['a meta refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example/">'],
    ['a form posting elsewhere by javascript:', '<form action="javascript:alert(1)"><button>x</button></form>'],
  ])('flags %s', (_label, markup) => {
    expect(findActiveContent(markup, PAGE)).not.toEqual([]);
  });

  it('flags active content in SVG (xml mode)', () => {
    for (const svg of [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><title>x</title></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><p>x</p></foreignObject></svg>',
    ]) {
      expect(findActiveContent(svg, { xml: true, allowedElements: SVG_BADGE_ELEMENTS }), svg).not.toEqual([]);
    }
  });

  it('passes the same payloads escaped, and plain links', () => {
    const escaped =
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &quot;&gt;&lt;img src=x onerror=alert(1)&gt; [x](javascript:alert(1))</p>' +
      '<p title="&quot; onmouseover=&quot;alert(1)">x</p><a href="/account">a</a><a href="https://visibility.test/x?y=1">b</a><a href="#top">c</a>';
    expect(findActiveContent(escaped, PAGE)).toEqual([]);
    expect(
      findActiveContent('<svg xmlns="http://www.w3.org/2000/svg"><title>&lt;script&gt;</title><text>a &amp; b</text></svg>', {
        xml: true,
        allowedElements: SVG_BADGE_ELEMENTS,
      }),
    ).toEqual([]);
  });
});
