import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlSite } from './crawl-site.js';
import { sendHtml, sendText, startFixtureServer, type FixtureServer } from './test-support/fixture-server.js';

// Fixture sites are real node:http servers on 127.0.0.1, reached the way staging is: through the host map.

const SAAS_HOME = `<!doctype html>
<html lang="en">
<head>
  <title>Acme — Invoicing software for freelancers</title>
  <meta name="description" content="Acme is the invoicing platform freelancers use to get paid faster.">
  <link rel="canonical" href="http://acme.example/">
  <meta property="og:title" content="Acme invoicing">
  <meta property="og:type" content="website">
  <script type="application/ld+json">
  {"@context": "https://schema.org", "@graph": [
    {"@type": "Organization", "name": "Acme", "url": "http://acme.example/"},
    {"@type": "SoftwareApplication", "name": "Acme", "applicationCategory": "BusinessApplication"}
  ]}
  </script>
</head>
<body>
  <nav>
    <a href="/blog/why-invoices">Blog</a>
    <a href="/login">Log in</a>
    <a href="/pricing">Pricing</a>
    <a href="/about">About us</a>
    <a href="/features">Features</a>
    <a href="/compare/acme-vs-rival">Acme vs Rival</a>
    <a href="/terms">Terms</a>
    <a href="/whitepaper.pdf">Whitepaper</a>
    <a href="https://twitter.example/acme">Twitter</a>
  </nav>
  <h1>Get paid faster</h1>
  <h2>Integrations</h2>
  <h2>Start your free trial</h2>
  <p>Acme is the invoicing software that helps you send invoices, track payments and automate reminders for all your clients.</p>
</body>
</html>`;

const subPage = (title: string, heading: string, lang = 'en'): string =>
  `<!doctype html><html lang="${lang}"><head><title>${title}</title></head><body><h1>${heading}</h1><p>${heading} text.</p></body></html>`;

const SAAS_ROBOTS = `# AI policy
User-agent: GPTBot
Disallow: /

User-agent: OAI-SearchBot
Allow: /

User-agent: *
Disallow: /admin

Sitemap: http://acme.example/sitemap.xml
`;

const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${['/', '/pricing', '/about', '/features', '/compare/acme-vs-rival'].map((path) => `  <url><loc>http://acme.example${path}</loc></url>`).join('\n')}
</urlset>`;

const SPANISH_HOME = `<!DOCTYPE html>
<html lang="es">
<head>
  <meta charset="utf-8">
  <title>Clínica Dental Sonrisa | Dentista en Valencia</title>
  <meta name="description" content="Clínica dental en el centro de Valencia. Pide cita previa.">
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"LocalBusiness","name":"Clínica Dental Sonrisa","address":{"@type":"PostalAddress","addressLocality":"Valencia"}}</script>
</head>
<body>
  <h1>Tu dentista de confianza en Valencia</h1>
  <h2>Horario</h2>
  <p>Somos una clínica dental con más de veinte años de experiencia. Cuidamos de la salud de tu boca y de la sonrisa de toda la familia.</p>
  <a href="/sobre-nosotros">Sobre nosotros</a> <a href="/precios">Precios</a>
</body>
</html>`;

let saas: FixtureServer;
let spanish: FixtureServer;
let botBlocking: FixtureServer;
let challenge: FixtureServer;
let oversized: FixtureServer;
let slow: FixtureServer;
let failing: FixtureServer;
let spa: FixtureServer;

beforeAll(async () => {
  saas = await startFixtureServer((request, response) => {
    const pages: Record<string, () => void> = {
      '/': () => sendHtml(response, SAAS_HOME),
      '/robots.txt': () => sendText(response, SAAS_ROBOTS),
      '/llms.txt': () => sendText(response, '# Acme\n\n> Invoicing software for freelancers.\n\n- [Pricing](http://acme.example/pricing)\n'),
      '/sitemap.xml': () => sendText(response, SITEMAP, 200, 'application/xml'),
      '/pricing': () => sendHtml(response, subPage('Pricing — Acme', 'Plans and pricing')),
      '/about': () => sendHtml(response, subPage('About Acme', 'About us')),
      '/features': () => sendHtml(response, subPage('Features — Acme', 'Features')),
      '/compare/acme-vs-rival': () => sendHtml(response, subPage('Acme vs Rival', 'Acme vs Rival')),
    };
    (pages[request.url ?? ''] ?? (() => sendText(response, 'not found', 404)))();
  });

  spanish = await startFixtureServer((request, response) => {
    if (request.url === '/') sendHtml(response, SPANISH_HOME);
    else if (request.url === '/precios') sendHtml(response, subPage('Precios', 'Nuestros precios', 'es'));
    else if (request.url === '/sobre-nosotros') sendHtml(response, subPage('Sobre nosotros', 'Quiénes somos', 'es'));
    else sendText(response, 'no encontrado', 404);
  });

  botBlocking = await startFixtureServer((request, response) => {
    // A CDN rule that refuses anything calling itself GPTBot.
    if ((request.headers['user-agent'] ?? '').includes('GPTBot')) return sendText(response, 'Forbidden', 403);
    if (request.url === '/') return sendHtml(response, SAAS_HOME);
    return sendText(response, 'not found', 404);
  });

  challenge = await startFixtureServer((request, response) => {
    if ((request.headers['user-agent'] ?? '').includes('GPTBot')) {
      return sendHtml(response, '<html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>', 200, { 'cf-mitigated': 'challenge' });
    }
    return request.url === '/' ? sendHtml(response, SAAS_HOME) : sendText(response, 'not found', 404);
  });

  oversized = await startFixtureServer((request, response) => {
    if (request.url !== '/') return sendText(response, 'not found', 404);
    response.writeHead(200, { 'content-type': 'text/html' });
    response.write(`<html lang="en"><head><title>Big page</title></head><body><h1>Big</h1>`);
    // Endless: a crawler that did not stop at its byte cap would never finish (the test would time out).
    writeMany(response, '<p>filler filler filler filler filler filler filler filler filler filler</p>', Number.POSITIVE_INFINITY);
  });

  slow = await startFixtureServer((request, response) => {
    // The homepage never answers; the other paths answer at once.
    if (request.url === '/') return;
    sendText(response, 'not found', 404);
  });

  failing = await startFixtureServer((request, response) => {
    if (request.url === '/robots.txt') return sendText(response, 'User-agent: *\nDisallow: /\n');
    sendHtml(response, '<html><title>Error</title></html>', 500);
  });

  spa = await startFixtureServer((_request, response) => {
    // A single-page app: every path answers 200 with the same HTML shell.
    sendHtml(response, '<!doctype html><html lang="en"><head><title>App</title></head><body><div id="root"></div></body></html>');
  });
});

afterAll(async () => {
  await Promise.all([saas, spanish, botBlocking, challenge, oversized, slow, failing, spa].map((server) => server.close()));
});

/** Writes `count` copies of a chunk, respecting back-pressure, then ends (or stops if the client leaves). */
function writeMany(response: ServerResponse, chunk: string, count: number): void {
  let written = 0;
  const pump = (): void => {
    while (written < count && !response.destroyed) {
      written += 1;
      if (!response.write(chunk)) return void response.once('drain', pump);
    }
    response.end('</body></html>');
  };
  pump();
}

const mapTo = (server: FixtureServer, host = 'acme.example'): Map<string, string> => new Map([[host, server.origin]]);
const noDns = async (): Promise<never> => {
  throw new Error('the fixture crawls must never touch DNS');
};

describe('crawlSite: an English SaaS site', () => {
  let report: Awaited<ReturnType<typeof crawlSite>>;

  beforeAll(async () => {
    saas.requests.length = 0;
    report = await crawlSite('acme.example', { hostMap: mapTo(saas), lookup: noDns });
  });

  it('reads the homepage', () => {
    expect(report.ok).toBe(true);
    expect(report.failureCode).toBeUndefined();
    expect(report.website).toBe('https://acme.example/');
    expect(report.homepage).toMatchObject({
      title: 'Acme — Invoicing software for freelancers',
      description: 'Acme is the invoicing platform freelancers use to get paid faster.',
      h1: ['Get paid faster'],
      h2: ['Integrations', 'Start your free trial'],
      canonical: 'http://acme.example/',
      htmlLang: 'en',
    });
    expect(report.homepage?.openGraph).toMatchObject({ title: 'Acme invoicing', type: 'website' });
  });

  it('reads the pricing, about, features and comparison pages, not login, legal pages, files or other sites', () => {
    expect(report.pages.map((page) => new URL(page.url).pathname).sort()).toEqual(['/about', '/compare/acme-vs-rival', '/features', '/pricing']);
    const paths = saas.requests.map((request) => request.path);
    expect(paths).not.toContain('/login');
    expect(paths).not.toContain('/whitepaper.pdf');
    expect(paths).not.toContain('/terms');
  });

  it('reads robots.txt per AI crawler: GPTBot blocked, OAI-SearchBot allowed, the rest by the * group', () => {
    expect(report.robots).toMatchObject({ status: 'present', httpStatus: 200, sitemaps: ['http://acme.example/sitemap.xml'] });
    const access = Object.fromEntries(report.aiCrawlers.map((entry) => [entry.token, entry]));
    expect(access['GPTBot']).toMatchObject({ allowed: false, purpose: 'training', matchedGroup: 'specific', rule: 'Disallow: /' });
    expect(access['OAI-SearchBot']).toMatchObject({ allowed: true, purpose: 'assistant_search', matchedGroup: 'specific' });
    expect(access['ClaudeBot']).toMatchObject({ allowed: true, matchedGroup: 'wildcard' });
    expect(access['PerplexityBot']?.allowed).toBe(true);
  });

  it('finds llms.txt (but no llms-full.txt) and the sitemap listed in robots.txt', () => {
    expect(report.llmsTxt).toMatchObject({ present: true, httpStatus: 200 });
    expect(report.llmsFullTxt).toMatchObject({ present: false, httpStatus: 404 });
    expect(report.sitemap).toMatchObject({ present: true, source: 'robots', kind: 'urlset', urlCount: 5, url: 'http://acme.example/sitemap.xml' });
  });

  it('finds the schema types, the language and the vertical', () => {
    expect(report.schemaTypes).toEqual(expect.arrayContaining(['Organization', 'SoftwareApplication']));
    expect(report).toMatchObject({ language: 'en', languageSource: 'html-lang', vertical: 'saas' });
    expect(report.verticalSignals).toContain('saas: schema:SoftwareApplication');
  });

  it('sees GPTBot get the same homepage as a browser', () => {
    expect(report.botAccess).toMatchObject({ userAgent: 'GPTBot', browserStatus: 200, botStatus: 200, blocked: false });
    const agents = saas.requests.filter((request) => request.path === '/').map((request) => request.userAgent ?? '');
    expect(agents.some((agent) => agent.includes('GPTBot'))).toBe(true);
    expect(agents.some((agent) => agent.includes('Chrome/'))).toBe(true);
  });

  it('sends the site its own Host header and stays within the page bound', () => {
    expect(saas.requests.every((request) => request.host === 'acme.example')).toBe(true);
    // Homepage twice (browser and GPTBot), robots, llms.txt, llms-full.txt, sitemap, four pages.
    expect(report.fetches).toBe(10);
    expect(saas.requests).toHaveLength(10);
    expect(report.problems).toEqual([]);
  });
});

describe('crawlSite: a Spanish local business without robots.txt', () => {
  it('reports Spanish, a local business, no robots.txt (everyone allowed), no llms.txt and no sitemap', async () => {
    const report = await crawlSite('https://sonrisa.example/', { hostMap: mapTo(spanish, 'sonrisa.example'), lookup: noDns });
    expect(report.ok).toBe(true);
    expect(report).toMatchObject({ language: 'es', languageSource: 'html-lang', vertical: 'local_business' });
    expect(report.homepage?.title).toBe('Clínica Dental Sonrisa | Dentista en Valencia');
    expect(report.schemaTypes).toEqual(['LocalBusiness', 'PostalAddress']);
    expect(report.robots).toMatchObject({ status: 'missing', httpStatus: 404 });
    expect(report.aiCrawlers.length).toBeGreaterThan(10);
    expect(report.aiCrawlers.every((entry) => entry.allowed)).toBe(true);
    expect(report.llmsTxt.present).toBe(false);
    expect(report.sitemap).toMatchObject({ present: false, source: 'default', httpStatus: 404 });
    expect(report.pages.map((page) => page.title)).toEqual(['Precios', 'Sobre nosotros']);
  });
});

describe('crawlSite: bot access', () => {
  it('finds a server that refuses GPTBot', async () => {
    const report = await crawlSite('acme.example', { hostMap: mapTo(botBlocking), lookup: noDns });
    expect(report.ok).toBe(true);
    expect(report.botAccess).toMatchObject({ userAgent: 'GPTBot', browserStatus: 200, botStatus: 403, blocked: true });
  });

  it('finds a bot challenge served with 200', async () => {
    const report = await crawlSite('acme.example', { hostMap: mapTo(challenge), lookup: noDns });
    expect(report.botAccess).toMatchObject({ browserStatus: 200, botStatus: 200, blocked: true });
    expect(report.botAccess?.reason).toContain('challenge');
  });
});

describe('crawlSite: bounds and failures', () => {
  it('stops reading an endless page at the byte cap and still reports it', async () => {
    const report = await crawlSite('acme.example', { hostMap: mapTo(oversized), lookup: noDns, maxBytes: 100_000 });
    expect(report.ok).toBe(true);
    expect(report.homepage).toMatchObject({ title: 'Big page', h1: ['Big'], truncated: true });
    expect(report.problems.some((problem) => problem.includes('only the start was read'))).toBe(true);
  });

  it('times out a homepage that never answers, without throwing', async () => {
    const started = Date.now();
    const report = await crawlSite('acme.example', { hostMap: mapTo(slow), lookup: noDns, fetchTimeoutMs: 200 });
    expect(report.ok).toBe(false);
    expect(report.failureCode).toBe('timeout');
    expect(report.reason).toContain('homepage');
    // robots.txt was still read and reported (a 404 here).
    expect(report.robots.status).toBe('missing');
    expect(report.botAccess).toMatchObject({ browserStatus: null, blocked: false });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('ends at the total deadline with what it had', async () => {
    const started = Date.now();
    const report = await crawlSite('acme.example', { hostMap: mapTo(slow), lookup: noDns, fetchTimeoutMs: 5_000, deadlineMs: 250 });
    expect(report.ok).toBe(false);
    expect(report.failureCode).toBe('deadline');
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(report.durationMs).toBeLessThan(1_500);
  });

  it('does not let a hung resolver outlive the deadline', async () => {
    const started = Date.now();
    const report = await crawlSite('hung-dns.example', { lookup: () => new Promise(() => undefined), deadlineMs: 150 });
    expect(report).toMatchObject({ ok: false, failureCode: 'deadline', fetches: 0 });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('reports a 500 homepage as http_error but still reads robots.txt', async () => {
    const report = await crawlSite('acme.example', { hostMap: mapTo(failing), lookup: noDns });
    expect(report).toMatchObject({ ok: false, failureCode: 'http_error', finalUrl: 'https://acme.example/' });
    expect(report.robots.status).toBe('present');
    expect(report.aiCrawlers.every((entry) => !entry.allowed)).toBe(true);
  });

  it('does not mistake a single-page app shell for robots.txt, llms.txt or a sitemap', async () => {
    const report = await crawlSite('acme.example', { hostMap: mapTo(spa), lookup: noDns });
    expect(report.ok).toBe(true);
    expect(report.robots.status).toBe('missing');
    expect(report.llmsTxt.present).toBe(false);
    expect(report.sitemap.present).toBe(false);
  });

  it('reports a host that does not resolve without throwing', async () => {
    const report = await crawlSite('no-such-site.example', { lookup: async () => [] });
    expect(report).toMatchObject({ ok: false, failureCode: 'dns_failed', fetches: 0 });
  });

  it.each(['', '   ', 'http://', 'not a url at all', 'https://exa mple.com'])('never throws on junk input %j', async (input) => {
    const report = await crawlSite(input, { lookup: noDns });
    expect(report.ok).toBe(false);
    expect(report.failureCode).toMatch(/invalid_url|blocked_host/);
    expect(report.reason).toBeTruthy();
  });
});
