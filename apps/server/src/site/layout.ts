import { escapeHtml } from '@visibility/core';

/**
 * Every site page's Content-Security-Policy: no scripts at all, styles and images from this origin
 * only (charts are inline SVG elements, not style attributes), forms post back here only.
 */
export const SITE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** What every page needs besides its body. */
export interface LayoutContext {
  baseUrl: string;
  /** The demo lineup answers: every page says so in a banner. */
  demo: boolean;
  /** /assets/site.css?v=<hash>, so the stylesheet can be cached for a year. */
  stylesheetHref: string;
}

export interface PageShell {
  title: string;
  description?: string | undefined;
  /** The page's canonical path (for the canonical link, the nav's current page and the markdown alternate). */
  path: string;
  /** The path of the page's markdown view, when it has one. */
  markdownPath?: string | undefined;
  /** Pages reached by a private link (share, badge, report, account) are not indexable. */
  noindex?: boolean | undefined;
  /** The HTML inside <main>, after the h1. */
  body: string;
  /** Shown under the h1. */
  lede?: string | undefined;
  /** Plain HTML that goes before <main>'s h1 (a notice), already escaped. */
  notice?: string | undefined;
}

const NAV: Array<{ path: string; label: string }> = [
  { path: '/', label: 'Measure' },
  { path: '/pricing', label: 'Pricing' },
  { path: '/methodology', label: 'Methodology' },
  { path: '/developers', label: 'Developers' },
  { path: '/compare', label: 'Compare' },
  { path: '/blog', label: 'Blog' },
];

const FOOTER: Array<{ path: string; label: string }> = [
  { path: '/changelog', label: 'Changelog' },
  { path: '/about', label: 'About' },
  { path: '/contact', label: 'Contact' },
  { path: '/account', label: 'Account' },
  { path: '/llms.txt', label: 'llms.txt' },
  { path: '/openapi.json', label: 'OpenAPI' },
];

function isCurrent(navPath: string, pagePath: string): boolean {
  return navPath === '/' ? pagePath === '/' : pagePath === navPath || pagePath.startsWith(`${navPath}/`);
}

/** The demo banner's words: the one place the site says answers are simulated. */
export const DEMO_BANNER_TEXT =
  'This instance has no provider keys, so every answer comes from a built-in simulator and is labelled demo. Demo answers are not what a real model said.';

/** A complete HTML document around a page body; every value that is not already HTML is escaped. */
export function renderLayout(context: LayoutContext, page: PageShell): string {
  const canonical = `${context.baseUrl}${page.path}`;
  const nav = NAV.map(
    (item) => `<li><a href="${item.path}"${isCurrent(item.path, page.path) ? ' aria-current="page"' : ''}>${item.label}</a></li>`,
  ).join('');
  const footerLinks = [...FOOTER, ...(page.markdownPath ? [{ path: page.markdownPath, label: 'This page as markdown' }] : [])]
    .map((item) => `<a href="${escapeHtml(item.path)}">${escapeHtml(item.label)}</a>`)
    .join('\n');
  const banner = context.demo
    ? `<div class="demo-banner" role="note"><p><strong>Demo.</strong> ${escapeHtml(DEMO_BANNER_TEXT)} <a href="/developers#demo-lineup">What this means</a></p></div>\n`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.path === '/' ? `${page.title}` : `${page.title} · AI Visibility`)}</title>
${page.description ? `<meta name="description" content="${escapeHtml(page.description)}">\n` : ''}${page.noindex ? '<meta name="robots" content="noindex, nofollow">\n' : `<link rel="canonical" href="${escapeHtml(canonical)}">\n`}${page.markdownPath ? `<link rel="alternate" type="text/markdown" href="${escapeHtml(page.markdownPath)}">\n` : ''}<link rel="stylesheet" href="${escapeHtml(context.stylesheetHref)}">
<link rel="icon" href="data:,">
</head>
<body>
<a class="skip-link" href="#content">Skip to content</a>
<header class="site-header"><div class="inner">
<a class="brand-link" href="/">AI Visibility</a>
<nav class="site-nav" aria-label="Main"><ul>${nav}</ul></nav>
</div></header>
${banner}<main id="content" tabindex="-1">
${page.notice ?? ''}<h1>${escapeHtml(page.title)}</h1>
${page.lede ? `<p class="lede">${escapeHtml(page.lede)}</p>\n` : ''}${page.body}
</main>
<footer class="site-footer"><div class="inner">
${footerLinks}
</div></footer>
</body>
</html>
`;
}
