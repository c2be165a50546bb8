import type { Response } from 'express';
import { escapeHtml } from '@visibility/core';
import { renderLayout, type LayoutContext, type PageShell } from './layout.js';
import { negotiate, prefersJson } from './negotiation.js';
import { HTML_SECURITY_HEADERS, markdownHeaders } from './static-site.js';

/** Sends a page built per request (results, reports, private links): never cached by shared caches. */
export function sendPage(response: Response, layout: LayoutContext, shell: PageShell, status = 200, cacheControl = 'no-store'): void {
  const html = renderLayout(layout, shell);
  response.status(status);
  for (const [name, value] of Object.entries(HTML_SECURITY_HEADERS)) response.setHeader(name, value);
  response.setHeader('Cache-Control', cacheControl);
  // Private pages (reports, share and badge links, account, results) never pass their address on.
  if (shell.noindex) {
    response.setHeader('X-Robots-Tag', 'noindex, nofollow');
    response.setHeader('Referrer-Policy', 'same-origin');
  }
  response.type('text/html; charset=utf-8').send(html);
}

/** Sends a per-request markdown view. */
export function sendMarkdown(response: Response, canonicalUrl: string, markdown: string, status = 200, extra: Record<string, string> = {}): void {
  response.status(status);
  for (const [name, value] of Object.entries({ ...markdownHeaders(canonicalUrl), ...extra })) response.setHeader(name, value);
  response.send(Buffer.from(markdown));
}

/** An inline notice above a page's heading; `text` is escaped here. */
export function noticeHtml(kind: 'info' | 'error', text: string): string {
  return `<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${escapeHtml(text)}</p>\n`;
}

/** Markdown inline code that cannot be broken out of (backticks in a path are dropped). */
function inlineCode(text: string): string {
  return `\`${text.replace(/`/g, '').slice(0, 300)}\``;
}

/** The short markdown a 404 answers with: where to find what does exist. */
export function notFoundMarkdown(baseUrl: string, path: string): string {
  return `# Not found

Nothing is published at ${inlineCode(path)}.

- Every page, as markdown links: [${baseUrl}/llms.txt](${baseUrl}/llms.txt)
- Every page at once: [${baseUrl}/llms-full.txt](${baseUrl}/llms-full.txt)
- Sitemap: [${baseUrl}/sitemap.xml](${baseUrl}/sitemap.xml)
- API: [${baseUrl}/openapi.json](${baseUrl}/openapi.json)
`;
}

/**
 * The 404 of a path outside /api: a real 404 whose body is short markdown pointing at the index
 * files; a browser (Accept prefers text/html) gets the same words as a page, and a client that asks
 * for JSON gets the ApiError. Returns false when the caller should answer the JSON ApiError.
 */
export function sendSiteNotFound(response: Response, layout: LayoutContext, path: string, accept: string | undefined): boolean {
  if (prefersJson(accept)) return false;
  const representation = path.endsWith('.md') ? 'markdown' : (negotiate(accept, ['markdown', 'html']) ?? 'markdown');
  if (representation === 'html') {
    response.setHeader('Vary', 'Accept');
    sendPage(
      response,
      layout,
      {
        title: 'Not found',
        path,
        noindex: true,
        body: `<p>Nothing is published at <code>${escapeHtml(path.slice(0, 300))}</code>.</p>
<ul><li><a href="/">Home</a></li><li><a href="/llms.txt">Every page (llms.txt)</a></li><li><a href="/sitemap.xml">Sitemap</a></li><li><a href="/developers">API reference</a></li></ul>\n`,
      },
      404,
    );
    return true;
  }
  response.status(404);
  response.setHeader('Content-Type', 'text/markdown; charset=utf-8');
  response.setHeader('Vary', 'Accept');
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Cache-Control', 'no-store');
  response.send(Buffer.from(notFoundMarkdown(layout.baseUrl, path)));
  return true;
}
