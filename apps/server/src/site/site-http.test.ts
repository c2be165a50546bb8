import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test-support/service.js';

let service: TestService;
let pagePaths: string[] = [];

beforeAll(async () => {
  service = await startTestService();
  const sitemap = await (await fetch(`${service.url}/sitemap.xml`)).text();
  pagePaths = [...sitemap.matchAll(/<loc>http:\/\/visibility\.test([^<]*)<\/loc>/g)].map((match) => match[1] ?? '');
});
afterAll(async () => {
  await service.stop();
});

const get = (path: string, accept?: string, extra: Record<string, string> = {}) =>
  fetch(`${service.url}${path}`, { headers: { ...(accept === undefined ? {} : { accept }), ...extra }, redirect: 'manual' });

describe('public pages', () => {
  it('lists every top-level page and every slug in the sitemap', () => {
    for (const path of ['/', '/pricing', '/methodology', '/developers', '/changelog', '/about', '/contact', '/compare', '/blog']) {
      expect(pagePaths).toContain(path);
    }
    expect(pagePaths.filter((path) => path.startsWith('/compare/')).length).toBeGreaterThanOrEqual(3);
    expect(pagePaths.filter((path) => path.startsWith('/blog/')).length).toBeGreaterThanOrEqual(3);
  });

  it('serves each page as HTML by default, with the strict CSP, Vary: Accept and a markdown alternate', async () => {
    for (const path of pagePaths) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('vary')).toBe('Accept');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(response.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      const html = await response.text();
      expect(html).toContain(`<link rel="alternate" type="text/markdown" href="${path === '/' ? '/index.md' : `${path}.md`}">`);
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/ style="/i);
    }
  });

  it('links the home page forms to the site routes and shows the demo banner', async () => {
    const html = await (await get('/')).text();
    expect(html).toContain('action="/check"');
    expect(html).toContain('action="/audit"');
    expect(html).toContain('class="demo-banner"');
  });

  it('shows the methodology from docs/methodology.md and the developers page the OpenAPI operations', async () => {
    const methodology = await (await get('/methodology.md')).text();
    expect(methodology).toContain('Wilson');
    const developers = await (await get('/developers.md')).text();
    for (const operation of ['runRepeatedBuyerQuestion', 'checkBrandRecognition', 'startVisibilityAudit', 'startBuyerQuestionMap', 'getBuyerQuestionMap', 'getVisibilityBadge']) {
      expect(developers).toContain(operation);
    }
  });
});

describe('markdown views', () => {
  it('serves markdown at {path}.md for every page, with the spec headers', async () => {
    for (const path of pagePaths) {
      const markdownPath = path === '/' ? '/index.md' : `${path}.md`;
      const response = await get(markdownPath);
      expect(response.status, markdownPath).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(response.headers.get('vary')).toBe('Accept');
      const body = await response.text();
      expect(body.startsWith('# '), markdownPath).toBe(true);
      expect(body).not.toMatch(/<(html|body|div|script)\b/i);
    }
  });

  it('serves the same markdown at the canonical URL when Accept asks for it, without a redirect', async () => {
    const suffixed = await (await get('/pricing.md')).text();
    const negotiated = await get('/pricing', 'text/markdown');
    expect(negotiated.status).toBe(200);
    expect(negotiated.headers.get('location')).toBeNull();
    expect(negotiated.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(negotiated.headers.get('vary')).toBe('Accept');
    expect(await negotiated.text()).toBe(suffixed);
  });

  it('honours q-values between html and markdown', async () => {
    expect((await get('/about', 'text/html;q=0.5, text/markdown;q=0.9')).headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect((await get('/about', 'text/markdown;q=0.5, text/html;q=0.9')).headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await get('/about', 'text/html;q=0, */*')).headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect((await get('/about', 'text/html,application/xhtml+xml,*/*;q=0.8')).headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('answers 406 when the client refuses every representation the URL can produce', async () => {
    for (const [path, accept] of [
      ['/pricing', 'application/json'],
      ['/pricing', 'text/html;q=0, text/markdown;q=0'],
      ['/pricing', 'image/png'],
      ['/pricing.md', 'text/html'],
      ['/index.md', 'application/json'],
    ] as const) {
      const response = await get(path, accept);
      expect(response.status, `${path} ${accept}`).toBe(406);
      expect(response.headers.get('vary')).toBe('Accept');
      const body = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['code', 'docs', 'error', 'hint']);
      expect(body.code).toBe('not_acceptable');
    }
  });

  it('answers a real 404 with a short markdown body pointing at the index files', async () => {
    for (const path of ['/no-such-page', '/blog/no-such-post', '/no-such-page.md', '/pricing/']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      const body = await response.text();
      expect(body).toContain('/llms.txt');
      expect(body).toContain('/sitemap.xml');
      expect(body.length).toBeLessThan(1000);
    }
  });

  it('gives a browser the 404 as HTML, a JSON client the ApiError, and /api its endpoint_not_found', async () => {
    const browser = await get('/no-such-page', 'text/html,*/*;q=0.8');
    expect(browser.status).toBe(404);
    expect(browser.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const json = await get('/no-such-page', 'application/json');
    expect(json.status).toBe(404);
    expect(((await json.json()) as { code: string }).code).toBe('not_found');
    const api = await get('/api/nothing', 'text/markdown');
    expect(api.status).toBe(404);
    expect(((await api.json()) as { code: string }).code).toBe('endpoint_not_found');
  });

  it('keeps a path with backticks from breaking out of the 404 code span', async () => {
    const body = await (await get('/%60%60%60%3Cscript%3E')).text();
    expect(body).not.toContain('<script>');
  });

  it('answers HEAD and conditional GETs', async () => {
    const head = await fetch(`${service.url}/pricing`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const etag = head.headers.get('etag');
    expect(etag).toMatch(/^"/);
    const again = await get('/pricing', undefined, { 'if-none-match': etag ?? '' });
    expect(again.status).toBe(304);
    const markdownEtag = (await get('/pricing', 'text/markdown')).headers.get('etag');
    expect(markdownEtag).not.toBe(etag);
  });
});

describe('discovery files', () => {
  it('serves /llms.txt in the llmstxt.org shape, linking every page to its markdown view', async () => {
    const response = await get('/llms.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines.find((line) => line.startsWith('>'))).toBeDefined();
    expect(text.indexOf('\n> ')).toBeLessThan(text.indexOf('\n## '));
    const links = [...text.matchAll(/^- \[[^\]]+\]\((http[^)]+)\)(: .+)?$/gm)].map((match) => match[1]);
    for (const path of pagePaths) {
      expect(links, path).toContain(`http://visibility.test${path === '/' ? '/index.md' : `${path}.md`}`);
    }
    expect(text).toContain('/openapi.json');
    expect(text).toContain('## Optional');
  });

  it('serves /llms-full.txt with every page in full', async () => {
    const text = await (await get('/llms-full.txt')).text();
    const pricing = await (await get('/pricing.md')).text();
    expect(text).toContain(pricing.trim());
    expect(text).toContain('Wilson');
  });

  it('serves a valid sitemap: one <url> per page, absolute escaped <loc>s, ISO lastmod', async () => {
    const response = await get('/sitemap.xml');
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = await response.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
    expect(xml.trim().endsWith('</urlset>')).toBe(true);
    expect((xml.match(/<url>/g) ?? []).length).toBe((xml.match(/<\/url>/g) ?? []).length);
    expect((xml.match(/<url>/g) ?? []).length).toBe(pagePaths.length);
    expect(new Set(pagePaths).size).toBe(pagePaths.length);
    for (const match of xml.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)) expect(match[1]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(xml).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
    expect(pagePaths.some((path) => path.startsWith('/api') || path.startsWith('/share') || path.startsWith('/badge'))).toBe(false);
  });

  it('serves /robots.txt disallowing /api and pointing at the sitemap', async () => {
    const text = await (await get('/robots.txt')).text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/api$/m);
    expect(text).toContain('Sitemap: http://visibility.test/sitemap.xml');
    expect(text).not.toMatch(/^Disallow: \/$/m);
  });

  it('keeps serving /openapi.json at the root with CORS', async () => {
    const response = await get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await response.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('serves the stylesheet for a year under a content hash', async () => {
    const html = await (await get('/')).text();
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(html)?.[1] ?? '';
    expect(href).toMatch(/^\/assets\/site\.css\?v=[0-9a-f]{12}$/);
    const css = await get(href);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('cache-control')).toContain('immutable');
  });
});
