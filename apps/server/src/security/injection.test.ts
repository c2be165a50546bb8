import { readFileSync } from 'node:fs';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_PAGE_CSP } from '../auth/account-page.js';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startFixtureSite, type FixtureSite } from '../test-support/fixture-site.js';
import { postJson, type TestService } from '../test-support/service.js';
import { ACCOUNT_PAGE_ELEMENTS, findActiveContent, MAIL_ELEMENTS, SVG_BADGE_ELEMENTS } from './test-support/active-content.js';
import { outboxFiles, startSecurityService } from './test-support/harness.js';
import { HOSTILE_ANSWER, HOSTILE_BRANDS, HOSTILE_CATEGORIES, HOSTILE_COMPETITORS, HOSTILE_SITE, startFakeOpenAi, type FakeProvider } from './test-support/hostile.js';

// Script injection: hostile brands, categories and competitors (the request), hostile model answers (a fake
// OpenAI endpoint the real adapter talks to) and a hostile crawled site flow into every output the service
// renders. Each output must stay inert: escaped markup, no event handlers, no javascript: URLs, and JSON
// that stays JSON (right content type, nosniff). The public site pages are in site-injection.test.ts.

const SESSION_SECRET = 'security-injection-secret-0123456789abcdef';
const BASE_URL = 'http://visibility.test';
const OWNER = 'owner@acme.example';
const ownerCookie = `${SESSION_COOKIE}=${createSessionToken(OWNER, SESSION_SECRET)}`;
const BARE_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i;

let provider: FakeProvider;
let site: FixtureSite;
let running: TestService;
const audits: Array<{ id: string; brand: string; category: string; response: Response; body: any }> = [];

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
  // Three audits, one per hostile brand and category, all mailed to (and owned by) the same address.
  for (const [index, brand] of HOSTILE_BRANDS.entries()) {
    const category = HOSTILE_CATEGORIES[index] ?? 'CRM';
    const response = await fetch(`${running.url}/api/audit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${index + 1}` },
      body: JSON.stringify({ brand, website: 'hostile.test', category, competitors: HOSTILE_COMPETITORS, email: OWNER }),
    });
    const body = (await response.clone().json()) as any;
    audits.push({ id: body.id, brand, category, response, body });
  }
}, 120_000);

afterAll(async () => {
  await running?.stop();
  await site?.close();
  await provider?.close();
});

function expectJsonHeaders(response: Response): void {
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
}

describe('the audit JSON carries hostile text as data, and stays JSON', () => {
  it('answers every hostile audit with 200 JSON, nosniff, and the values intact', () => {
    expect(audits).toHaveLength(3);
    for (const audit of audits) {
      expect(audit.response.status).toBe(200);
      expectJsonHeaders(audit.response);
      // JSON is data: the brand round-trips exactly (escaping is the renderer's job, not the API's).
      expect(audit.body.audit.brand).toBe(audit.brand);
      expect(audit.body.audit.category).toBe(audit.category);
    }
    // The crawl of the hostile site and the hostile model answers really were used.
    expect(site.requests.some((line) => line.endsWith(' /'))).toBe(true);
    expect(provider.prompts.length).toBeGreaterThan(0);
    // Crawled text (the meta description) reached the generated buyer questions, as data.
    expect(JSON.stringify(audits[0]?.body.productFanout)).toContain('<svg onload=alert');
    // Names taken from the model answers are in the findings (the extractor keeps only name-like text).
    expect(audits[0]?.body.competitors.map((competitor: { name: string }) => competitor.name)).toEqual(
      expect.arrayContaining(['HubSpot', 'Salesforce', '<img src=x onerror=alert(15)>', '[Evil](javascript:alert(16))']),
    );
  });

  it('keeps JSON responses JSON for checks, repeats and errors that echo hostile input', async () => {
    const check = await fetch(`${running.url}/api/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.50' },
      body: JSON.stringify({ brand: HOSTILE_BRANDS[0], category: HOSTILE_CATEGORIES[0] }),
    });
    expect(check.status).toBe(200);
    expectJsonHeaders(check);
    const checked = (await check.json()) as { brand: string; description: string };
    expect(checked.brand).toBe(HOSTILE_BRANDS[0]);
    expect(checked.description).toContain('<script>alert("model")</script>');

    const repeat = await fetch(`${running.url}/api/tools/repeat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.51' },
      body: JSON.stringify({ question: `Best CRM? <script>alert(30)</script> "><img src=x onerror=alert(31)>` }),
    });
    expect(repeat.status).toBe(200);
    expectJsonHeaders(repeat);

    const badWebsite = await postJson(`${running.url}/api/audit`, { brand: 'Acme', category: 'CRM', website: 'javascript:alert(32)//<script>alert(33)</script>' });
    expect(badWebsite.status).toBe(400);
    expect(badWebsite.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(badWebsite.headers.get('x-content-type-options')).toBe('nosniff');
    expect(badWebsite.body.code).toBe('invalid_website');

    // (Paths outside /api answer the site's own 404: see site-injection.test.ts.)
    for (const path of ['/api/<script>alert(34)</script>', '/api/<img src=x onerror=alert(35)>', '/api/badge/%3Cscript%3E/x']) {
      const missing = await fetch(`${running.url}${path}`);
      expect(missing.status, path).toBe(404);
      expectJsonHeaders(missing);
      const text = await missing.text();
      expect(() => JSON.parse(text), path).not.toThrow();
    }
  });

  it('answers a preflight and the account JSON with nosniff too', async () => {
    const account = await fetch(`${running.url}/api/account/audits`, { headers: { cookie: ownerCookie } });
    expect(account.status).toBe(200);
    expectJsonHeaders(account);
    const { audits: listed } = (await account.json()) as { audits: Array<{ brand: string }> };
    expect(listed.map((audit) => audit.brand).sort()).toEqual([...HOSTILE_BRANDS].sort());
  });
});

describe('the /account page', () => {
  it('shows the hostile brands and categories escaped, with no active content and the strict CSP', async () => {
    const page = await fetch(`${running.url}/account`, { headers: { cookie: ownerCookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(ACCOUNT_PAGE_CSP);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    expect(findActiveContent(html, { allowedElements: ACCOUNT_PAGE_ELEMENTS })).toEqual([]);
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).toContain('[CRM](javascript:alert(8)) &quot;onmouseover=&quot;alert(9)');
    // Full-width brackets are shown as typed, never folded into real ones.
    expect(html).toContain('＜script＞alert(5)＜/script＞');
    expect(html).not.toMatch(/<script|<img|<svg|<iframe|<style>body/i);
  });

  it('escapes a hostile address echoed back into the sign-in form after a failed form post', async () => {
    const answer = await fetch(`${running.url}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.60' },
      body: `email=${encodeURIComponent('"><script>alert(40)</script>@x.com')}`,
    });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(findActiveContent(html, { allowedElements: ACCOUNT_PAGE_ELEMENTS })).toEqual([]);
    expect(html).not.toContain('<script>alert(40)');
  });
});

describe('the result mail', () => {
  let mails: ParsedMail[];
  beforeAll(async () => {
    mails = await Promise.all(outboxFiles(running.dataDir).map((file) => simpleParser(readFileSync(file))));
  });

  it('was sent once per audit, to the owner only, with no header injected through the brand', () => {
    expect(mails).toHaveLength(3);
    for (const mail of mails) {
      expect((mail.to as { text: string }).text).toBe(OWNER);
      expect(mail.bcc).toBeUndefined();
      expect(mail.cc).toBeUndefined();
      expect(mail.headers.has('bcc')).toBe(false);
    }
    const subjects = mails.map((mail) => mail.subject ?? '');
    for (const brand of HOSTILE_BRANDS) expect(subjects).toContain(`AI visibility audit: ${brand}`);
  });

  it('has an HTML part with every hostile value escaped and only our own link', () => {
    for (const mail of mails) {
      const html = typeof mail.html === 'string' ? mail.html : '';
      expect(html).not.toBe('');
      expect(findActiveContent(html, { allowedElements: MAIL_ELEMENTS })).toEqual([]);
      const links = [...html.matchAll(/<a\s[^>]*href="([^"]*)"/gi)].map((match) => match[1]);
      // The one link is the report's own private page, made by the service (a UUID and a 32-character key).
      expect(links).toHaveLength(1);
      expect(links[0]).toMatch(new RegExp(`^${BASE_URL.replace(/[.]/gu, '\\.')}/report/[0-9a-f-]{36}\\?key=[A-Za-z0-9_-]{32}$`, 'u'));
      expect(html).not.toMatch(/<script|<img|<svg|<iframe|<style/i);
    }
    // Hostile values reached the mail escaped (the brand in the named-instead line, the category in the steps).
    const all = mails.map((mail) => (typeof mail.html === 'string' ? mail.html : '')).join('\n');
    expect(all).toContain('Competitors named instead (in answers without &quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(all).toContain('&lt;script&gt;alert(7)&lt;/script&gt;');
  });
});

describe('the SVG badge', () => {
  it('mints badges for the hostile audits whose embed HTML and SVG are inert', async () => {
    for (const audit of audits) {
      const minted = await fetch(`${running.url}/api/audit/${audit.id}/badge-token`, { method: 'POST', headers: { cookie: ownerCookie } });
      expect(minted.status).toBe(201);
      expectJsonHeaders(minted);
      const { token, embedHtml, badgeUrl } = (await minted.json()) as { token: string; embedHtml: string; badgeUrl: string };
      expect(findActiveContent(embedHtml, { allowedElements: ['a', 'img'] })).toEqual([]);
      expect(embedHtml).not.toMatch(/<script|<svg|<iframe|onerror=alert\(1\)>/i);
      expect(badgeUrl).toBe(`${BASE_URL}/api/badge/${token}`);

      const badge = await fetch(`${running.url}/api/badge/${token}`);
      expect(badge.status).toBe(200);
      expect(badge.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(badge.headers.get('x-content-type-options')).toBe('nosniff');
      expect(badge.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
      const svg = await badge.text();
      expect(findActiveContent(svg, { xml: true, allowedElements: SVG_BADGE_ELEMENTS })).toEqual([]);
      expect(svg).not.toMatch(BARE_AMPERSAND);
      expect(svg).not.toMatch(/<script|<foreignObject|<iframe|<img|<a[\s>]|<style|<!\[CDATA\[|<!ENTITY/i);
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    }
  });

  it('answers an unknown or hostile token with the neutral SVG, not a reflection', async () => {
    for (const token of ['<script>alert(1)</script>', 'vb_"><svg onload=alert(2)>', `vb_${'A'.repeat(43)}`]) {
      const badge = await fetch(`${running.url}/api/badge/${encodeURIComponent(token)}`);
      expect(badge.status).toBe(404);
      expect(badge.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      const svg = await badge.text();
      expect(findActiveContent(svg, { xml: true, allowedElements: SVG_BADGE_ELEMENTS })).toEqual([]);
      expect(svg).not.toContain('alert');
    }
  });
});
