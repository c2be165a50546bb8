// Hand-built CrawlReports for the audit's tests: a healthy site by default, changed field by field.

import type { CrawlReport } from '../../crawl/crawl-report.js';
import type { PageSummary } from '../../crawl/page.js';
import { aiCrawlerAccess, parseRobots } from '../../crawl/robots.js';

/** A homepage summary with sensible defaults. */
export function pageSummary(overrides: Partial<PageSummary> = {}): PageSummary {
  return {
    url: 'https://acme.example/',
    status: 200,
    title: 'Acme — CRM software for small teams',
    description: 'Acme is the CRM software small sales teams actually enjoy using.',
    h1: ['The CRM for growing teams'],
    h2: ['Pipeline management', 'Email tracking'],
    canonical: 'https://acme.example/',
    openGraph: { title: undefined, description: undefined, type: undefined, siteName: undefined, image: undefined, locale: undefined },
    htmlLang: 'en',
    jsonLd: { types: ['Organization', 'SoftwareApplication'], blocks: 1, invalidBlocks: 0 },
    wordCount: 800,
    truncated: false,
    ...overrides,
  };
}

/** A crawl of a healthy SaaS site: everything allowed, Organization and SoftwareApplication markup, llms.txt and a sitemap. */
export function crawlReport(overrides: Partial<CrawlReport> & { robotsTxt?: string } = {}): CrawlReport {
  const { robotsTxt, ...fields } = overrides;
  const robots = parseRobots(robotsTxt ?? 'User-agent: *\nAllow: /\nSitemap: https://acme.example/sitemap.xml');
  return {
    ok: true,
    failureCode: undefined,
    reason: undefined,
    website: 'https://acme.example/',
    finalUrl: 'https://acme.example/',
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 1200,
    fetches: 8,
    homepage: pageSummary(),
    pages: [],
    robots: { url: 'https://acme.example/robots.txt', status: 'present', httpStatus: 200, sitemaps: robots.sitemaps },
    aiCrawlers: aiCrawlerAccess(robots),
    llmsTxt: { url: 'https://acme.example/llms.txt', present: true, httpStatus: 200, bytes: 400 },
    llmsFullTxt: { url: 'https://acme.example/llms-full.txt', present: false, httpStatus: 404, bytes: 0 },
    sitemap: { url: 'https://acme.example/sitemap.xml', source: 'robots', present: true, httpStatus: 200, kind: 'urlset', urlCount: 40 },
    schemaTypes: ['Organization', 'SoftwareApplication'],
    language: 'en',
    languageSource: 'html-lang',
    botAccess: { userAgent: 'GPTBot', browserStatus: 200, botStatus: 200, blocked: false, reason: 'GPTBot gets the same homepage as a browser (200)' },
    vertical: 'saas',
    verticalSignals: ['saas: schema:SoftwareApplication'],
    problems: [],
    ...fields,
  };
}

/** A crawl that could not read the homepage. */
export function failedCrawlReport(overrides: Partial<CrawlReport> = {}): CrawlReport {
  return crawlReport({
    ok: false,
    failureCode: 'dns_failed',
    reason: 'the domain does not resolve',
    finalUrl: undefined,
    homepage: undefined,
    robots: { url: undefined, status: 'not_fetched', httpStatus: null, sitemaps: [] },
    aiCrawlers: [],
    llmsTxt: { url: undefined, present: false, httpStatus: null, bytes: 0 },
    sitemap: { url: undefined, source: undefined, present: false, httpStatus: null, kind: undefined, urlCount: undefined },
    schemaTypes: [],
    language: undefined,
    languageSource: undefined,
    botAccess: undefined,
    vertical: 'other',
    verticalSignals: [],
    ...overrides,
  });
}
