import { marked } from 'marked';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startFixtureSite, type FixtureSite } from '../test-support/fixture-site.js';
import type { TestService } from '../test-support/service.js';
import { ACCOUNT_PAGE_ELEMENTS, findActiveContent, SITE_PAGE_ELEMENTS } from './test-support/active-content.js';
import { startSecurityService } from './test-support/harness.js';
import { HOSTILE_ANSWER, HOSTILE_BRANDS, HOSTILE_CATEGORIES, HOSTILE_COMPETITORS, HOSTILE_SITE, startFakeOpenAi, type FakeProvider } from './test-support/hostile.js';

// Script injection into the public site pages, with the same hostile inputs as injection.test.ts (brands,
// categories and competitors in the request, model answers from a fake provider, a crawled site with hostile
// <title>, meta, JSON-LD and headings). It checks that:
//   1. GET /share/{token} (the shared report) is inert HTML: no element outside the site's set, no event
//      handler, no javascript:/data: URL, no CSS expression; the site CSP (no script source) and nosniff;
//   2. GET /share/{token}.md (and Accept: text/markdown) is text/markdown with nosniff, and rendered as
//      markdown it has no raw HTML, no javascript: link and no image: hostile text is escaped markdown;
//   3. GET /badge/{token} and /badge/{token}.md (the badge landing page) likewise;
//   4. GET / and the home forms' result pages (POST /check, POST /audit) echo hostile brands escaped;
//   5. the site's 404 (HTML for browsers, markdown otherwise) for a hostile path does not reflect markup;
//   6. hostile tokens in /share/ and /badge/ paths answer the not-found page without reflecting them.
// If an assertion fails only because the site uses an element not listed below, add it to SITE_ELEMENTS
// after checking it cannot carry active content.

const SESSION_SECRET = 'security-site-injection-secret-0123456789ab';
const OWNER = 'owner@acme.example';
const ownerCookie = `${SESSION_COOKIE}=${createSessionToken(OWNER, SESSION_SECRET)}`;

/** The site's page elements plus the inline SVG of report charts and the share/badge forms. */
const SITE_ELEMENTS = [
  ...ACCOUNT_PAGE_ELEMENTS,
  'textarea', 'img', 'svg', 'defs', 'pattern', 'g', 'rect', 'text', 'tspan', 'title', 'desc', 'line', 'path', 'circle', 'polyline', 'polygon',
] as const;
/** What `marked` makes of escaped markdown: no raw HTML, no images. */
const MARKDOWN_ELEMENTS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'li', 'a', 'strong', 'em', 'code', 'pre', 'blockquote', 'hr', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'del', 'input'] as const;

let provider: FakeProvider;
let site: FixtureSite;
let running: TestService;
const tokens: Array<{ brand: string; share: string; badge: string }> = [];

beforeAll(async () => {
  provider = await startFakeOpenAi(HOSTILE_ANSWER);
  site = await startFixtureSite(HOSTILE_SITE);
  running = await startSecurityService({
    SESSION_SECRET,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: provider.baseUrl,
    PROVIDER_MAX_RETRIES: '0',
    CRAWL_HOST_MAP: `hostile.test=${site.origin}`,
    TRUST_PROXY: 'loopback',
  });
  for (const [index, brand] of HOSTILE_BRANDS.entries()) {
    const response = await fetch(`${running.url}/api/audit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${index + 101}` },
      body: JSON.stringify({ brand, website: 'hostile.test', category: HOSTILE_CATEGORIES[index], competitors: HOSTILE_COMPETITORS, email: OWNER }),
    });
    const { id } = (await response.json()) as { id: string };
    const mint = async (kind: 'badge-token' | 'share-link') => {
      const minted = await fetch(`${running.url}/api/audit/${id}/${kind}`, { method: 'POST', headers: { cookie: ownerCookie } });
      return ((await minted.json()) as { token: string }).token;
    };
    tokens.push({ brand, share: await mint('share-link'), badge: await mint('badge-token') });
  }
}, 120_000);

afterAll(async () => {
  await running?.stop();
  await site?.close();
  await provider?.close();
});

// The finished audit page hops to its report's own address (post/redirect/get): that one refresh, with a
// service-made path (a UUID and a 32-character key, nothing from the request), is expected.
const REPORT_REFRESH = /^0; url=\/report\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\?key=[A-Za-z0-9_-]{32}$/u;

async function expectInertHtml(response: Response, label: string, allowedRefresh?: RegExp): Promise<string> {
  expect(response.headers.get('content-type'), label).toMatch(/^text\/html; charset=utf-8/);
  expect(response.headers.get('x-content-type-options'), label).toBe('nosniff');
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp, label).toContain("default-src 'none'");
  expect(csp, label).not.toMatch(/script-src|unsafe-eval/);
  const html = await response.text();
  expect(findActiveContent(html, { allowedElements: SITE_ELEMENTS, ...(allowedRefresh === undefined ? {} : { allowedRefresh }) }), label).toEqual([]);
  expect(html, label).not.toMatch(/<script|<iframe|<foreignObject|<object|<embed|<img src=x/i);
  return html;
}

async function expectInertMarkdown(response: Response, label: string): Promise<string> {
  expect(response.headers.get('content-type'), label).toBe('text/markdown; charset=utf-8');
  expect(response.headers.get('x-content-type-options'), label).toBe('nosniff');
  const markdown = await response.text();
  const html = await marked.parse(markdown, { async: true });
  expect(findActiveContent(html, { allowedElements: MARKDOWN_ELEMENTS }), label).toEqual([]);
  // Backslash-escaped markup (\<img, \](…) is literal text; only unescaped markup would be live.
  expect(markdown, label).not.toMatch(/(?<!\\)<(?:script|img|svg|iframe|style)|(?<!\\)\]\(javascript:/i);
  return markdown;
}

describe('site pages stay inert with hostile brands, answers and crawled text', () => {
  it('renders every shared report as inert HTML and inert markdown', async () => {
    expect(tokens).toHaveLength(3);
    for (const { brand, share } of tokens) {
      const page = await fetch(`${running.url}/share/${share}`, { headers: { accept: 'text/html' } });
      expect(page.status, brand).toBe(200);
      await expectInertHtml(page, `/share (${brand})`);
      for (const request of [fetch(`${running.url}/share/${share}.md`), fetch(`${running.url}/share/${share}`, { headers: { accept: 'text/markdown' } })]) {
        const markdown = await request;
        expect(markdown.status, brand).toBe(200);
        await expectInertMarkdown(markdown, `/share.md (${brand})`);
      }
    }
  });

  it('renders every badge landing page as inert HTML and inert markdown', async () => {
    for (const { brand, badge } of tokens) {
      const page = await fetch(`${running.url}/badge/${badge}`, { headers: { accept: 'text/html' } });
      expect(page.status, brand).toBe(200);
      const html = await expectInertHtml(page, `/badge (${brand})`);
      expect(html).toContain('&lt;');
      const markdown = await fetch(`${running.url}/badge/${badge}.md`);
      expect(markdown.status, brand).toBe(200);
      await expectInertMarkdown(markdown, `/badge.md (${brand})`);
    }
  });

  it('answers hostile share and badge tokens with the not-found page, reflecting nothing', async () => {
    for (const path of ['/share/"><script>alert(1)<%2Fscript>', '/badge/<img src=x onerror=alert(2)>', '/share/javascript:alert(3).md']) {
      const response = await fetch(`${running.url}${path}`, { headers: { accept: '*/*' } });
      expect(response.status, path).toBe(404);
      const body = await response.text();
      expect(body, path).not.toMatch(/<script>alert|<img src=x/i);
    }
  });

  it('echoes hostile brands escaped on the home forms\' result pages', async () => {
    const check = await fetch(`${running.url}/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.120' },
      body: new URLSearchParams({ brand: HOSTILE_BRANDS[0], category: HOSTILE_CATEGORIES[0] }).toString(),
    });
    expect(check.status).toBeLessThan(500);
    await expectInertHtml(check, 'POST /check');

    const audit = await fetch(`${running.url}/audit`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.121' },
      body: new URLSearchParams({ brand: HOSTILE_BRANDS[1], website: 'hostile.test', category: HOSTILE_CATEGORIES[1], competitors: HOSTILE_COMPETITORS }).toString(),
    });
    expect(audit.status).toBeLessThan(500);
    const auditHtml = await expectInertHtml(audit, 'POST /audit', REPORT_REFRESH);
    // The report itself, where that refresh leads, is inert too (and has no refresh of its own).
    const reportPath = /<meta http-equiv="refresh" content="0; url=([^"]+)">/u.exec(auditHtml)?.[1];
    expect(reportPath, 'the finished audit page leads to its report').toBeDefined();
    await expectInertHtml(await fetch(`${running.url}${reportPath ?? ''}`, { headers: { accept: 'text/html' } }), 'GET /report (after POST /audit)');

    const invalid = await fetch(`${running.url}/audit`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.122' },
      body: new URLSearchParams({ brand: HOSTILE_BRANDS[2], website: 'javascript:alert(50)', category: '"><svg onload=alert(51)>' }).toString(),
    });
    expect(invalid.status).toBe(400);
    await expectInertHtml(invalid, 'POST /audit (invalid)');
  });

  it('keeps the home page and the site 404 for a hostile path inert', async () => {
    await expectInertHtml(await fetch(`${running.url}/`, { headers: { accept: 'text/html' } }), 'GET /');
    const html404 = await fetch(`${running.url}/"><img src=x onerror=alert(60)>`, { headers: { accept: 'text/html' } });
    expect(html404.status).toBe(404);
    await expectInertHtml(html404, '404 (html)');
    const markdown404 = await fetch(`${running.url}/<script>alert(61)</script>.md`);
    expect(markdown404.status).toBe(404);
    await expectInertMarkdown(markdown404, '404 (markdown)');
  });

  it('keeps the signed-in account page (site layout, share and badge forms) inert', async () => {
    const page = await fetch(`${running.url}/account`, { headers: { cookie: ownerCookie } });
    expect(page.status).toBe(200);
    const html = await expectInertHtml(page, '/account');
    // Every hostile brand contains "<": found verbatim, it would be live markup.
    for (const brand of HOSTILE_BRANDS) expect(html).not.toContain(brand);
    expect(findActiveContent(html, { allowedElements: [...SITE_PAGE_ELEMENTS, 'form', 'button', 'label', 'input'] })).toEqual([]);
  });
});
