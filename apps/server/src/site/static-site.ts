import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PUBLIC_CORS_HEADERS } from '../rest/cors.js';
import { buildSitePages, type SitePage } from './catalog.js';
import { loadSiteSources, type SiteSources } from './content.js';
import { buildLlmsFullTxt, buildLlmsTxt, buildRobotsTxt, buildSitemapXml } from './discovery-files.js';
import { renderLayout, SITE_CSP, type LayoutContext } from './layout.js';
import { negotiate, type Representation } from './negotiation.js';
import { notAcceptable } from './responses.js';
import { SITE_CSS } from './site-css.js';
import { REPORT_CSS } from './report/index.js';

/** One prepared response body with the headers that belong to it. */
export interface PreparedBody {
  buffer: Buffer;
  headers: Record<string, string>;
}

/** A path the site answers from memory: a page in two representations, or one fixed body. */
type StaticEntry =
  | { kind: 'page'; bodies: Record<Representation, PreparedBody> }
  | { kind: 'fixed'; body: PreparedBody; representation?: Representation };

export const PAGE_CACHE_CONTROL = 'public, max-age=300';
const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Headers every HTML page of the site carries. */
export const HTML_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': SITE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
};

export function prepare(content: string | Buffer, headers: Record<string, string>): PreparedBody {
  const buffer = typeof content === 'string' ? Buffer.from(content) : content;
  const etag = `"${createHash('sha256').update(buffer).digest('base64url').slice(0, 22)}"`;
  return { buffer, headers: { ...headers, 'Content-Length': String(buffer.length), ETag: etag } };
}

export function markdownHeaders(canonicalUrl: string): Record<string, string> {
  return {
    'Content-Type': 'text/markdown; charset=utf-8',
    Vary: 'Accept',
    'X-Content-Type-Options': 'nosniff',
    Link: `<${canonicalUrl}>; rel="canonical"`,
  };
}

export interface StaticSiteOptions {
  baseUrl: string;
  demo: boolean;
  openApiDocument: Record<string, unknown>;
  /** docs/ by default; tests point it at fixtures. */
  sources?: SiteSources | undefined;
}

/** The public pages, discovery files and assets, rendered once and answered without Express. */
export interface StaticSite {
  readonly pages: ReadonlyMap<string, SitePage>;
  readonly layout: LayoutContext;
  /** Answers a GET or HEAD for a known path and returns true; anything else returns false. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
}

export function createStaticSite(options: StaticSiteOptions): StaticSite {
  const { baseUrl } = options;
  const css = SITE_CSS + REPORT_CSS;
  const cssVersion = createHash('sha256').update(css).digest('hex').slice(0, 12);
  const layout: LayoutContext = { baseUrl, demo: options.demo, stylesheetHref: `/assets/site.css?v=${cssVersion}` };
  const pages = buildSitePages(options.sources ?? loadSiteSources(), options.openApiDocument);
  const table = new Map<string, StaticEntry>();

  for (const page of pages.values()) {
    const canonical = `${baseUrl}${page.path}`;
    const html = prepare(
      renderLayout(layout, { title: page.title, description: page.description, path: page.path, markdownPath: page.markdownPath, body: page.bodyHtml }),
      { 'Content-Type': 'text/html; charset=utf-8', Vary: 'Accept', 'Cache-Control': PAGE_CACHE_CONTROL, ...HTML_SECURITY_HEADERS },
    );
    const markdown = prepare(page.markdown, { ...markdownHeaders(canonical), 'Cache-Control': PAGE_CACHE_CONTROL });
    table.set(page.path, { kind: 'page', bodies: { html, markdown } });
    table.set(page.markdownPath, { kind: 'fixed', body: markdown, representation: 'markdown' });
  }
  const text = (content: string, type: string, extra: Record<string, string> = {}) =>
    prepare(content, { 'Content-Type': type, 'Cache-Control': PAGE_CACHE_CONTROL, 'X-Content-Type-Options': 'nosniff', ...extra });
  table.set('/llms.txt', { kind: 'fixed', body: text(buildLlmsTxt(baseUrl, pages), 'text/plain; charset=utf-8') });
  table.set('/llms-full.txt', { kind: 'fixed', body: text(buildLlmsFullTxt(baseUrl, pages), 'text/plain; charset=utf-8') });
  table.set('/sitemap.xml', { kind: 'fixed', body: text(buildSitemapXml(baseUrl, pages), 'application/xml; charset=utf-8') });
  table.set('/robots.txt', { kind: 'fixed', body: text(buildRobotsTxt(baseUrl), 'text/plain; charset=utf-8') });
  table.set('/openapi.json', {
    kind: 'fixed',
    body: text(JSON.stringify(options.openApiDocument, null, 2), 'application/json; charset=utf-8', Object.fromEntries(PUBLIC_CORS_HEADERS)),
  });
  table.set('/assets/site.css', {
    kind: 'fixed',
    body: prepare(css, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': ASSET_CACHE_CONTROL, 'X-Content-Type-Options': 'nosniff' }),
  });

  return {
    pages,
    layout,
    handle(request, response) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      const url = request.url ?? '/';
      const query = url.indexOf('?');
      const entry = table.get(query === -1 ? url : url.slice(0, query));
      if (entry === undefined) return false;
      let body: PreparedBody;
      if (entry.kind === 'page') {
        const chosen = negotiate(request.headers.accept, ['html', 'markdown']);
        if (chosen === undefined) {
          notAcceptable(response, baseUrl, ['text/html', 'text/markdown']);
          return true;
        }
        body = entry.bodies[chosen];
      } else {
        if (entry.representation !== undefined && negotiate(request.headers.accept, [entry.representation]) === undefined) {
          notAcceptable(response, baseUrl, ['text/markdown']);
          return true;
        }
        body = entry.body;
      }
      const notModified = request.headers['if-none-match'] === body.headers.ETag;
      response.writeHead(notModified ? 304 : 200, notModified ? withoutLength(body.headers) : body.headers);
      response.end(notModified ? undefined : body.buffer);
      return true;
    },
  };
}

function withoutLength(headers: Record<string, string>): Record<string, string> {
  const { 'Content-Length': _length, ...rest } = headers;
  return rest;
}
