import { checkFormHtml, auditFormHtml } from './forms.js';
import type { SiteSources, SourcePage } from './content.js';
import { markdownToHtml } from './markdown.js';
import { openApiReferenceMarkdown } from './openapi-reference.js';

/** A public page ready to serve in both representations. */
export interface SitePage {
  path: string;
  /** Where its markdown view lives (`/pricing.md`; the home page's is `/index.md`). */
  markdownPath: string;
  kind: SourcePage['kind'];
  title: string;
  description: string;
  date?: string | undefined;
  /** The whole markdown view: title, description, body and generated sections. */
  markdown: string;
  /** The HTML inside <main> after the h1. */
  bodyHtml: string;
}

export function markdownPathOf(path: string): string {
  return path === '/' ? '/index.md' : `${path}.md`;
}

function listMarkdown(entries: SourcePage[]): string {
  if (entries.length === 0) return '';
  return entries.map((entry) => `- [${entry.title}](${entry.path})${entry.date ? ` (${entry.date})` : ''}: ${entry.description}`).join('\n');
}

function listHtml(entries: SourcePage[]): string {
  return `<ul class="entries">\n${entries
    .map(
      (entry) =>
        `<li><a href="${entry.path}">${markdownToHtml(entry.title).replace(/^<p>|<\/p>\n?$/g, '')}</a>${
          entry.date ? ` <time class="meta" datetime="${entry.date}">${entry.date}</time>` : ''
        }<span class="meta">${markdownToHtml(entry.description).replace(/^<p>|<\/p>\n?$/g, '')}</span></li>`,
    )
    .join('\n')}\n</ul>\n`;
}

/** What the home page's markdown view says instead of the forms (AI assistants cannot fill forms). */
const HOME_MARKDOWN_RUN = `## Run a measurement

- Quick check (one model, one pass): \`POST /api/check\` with \`{"brand": "Acme", "category": "CRM software"}\`.
- Full audit (crawl, several providers, repeated samples, 15 to 60 seconds): \`POST /api/audit\` with \`{"brand", "website", "category"}\`.
- From an AI assistant: connect the MCP server at \`/mcp\` and call \`start_visibility_check\`, then \`get_visibility_check\`.

The reference is at [/developers](/developers); the OpenAPI description at [/openapi.json](/openapi.json).`;

function build(page: SourcePage, extraMarkdown: string, extraHtml: string, leadHtml = ''): SitePage {
  const body = [page.body.trim(), extraMarkdown.trim()].filter((part) => part !== '').join('\n\n');
  const markdown = `# ${page.title}\n\n> ${page.description}\n\n${body}\n`;
  return {
    path: page.path,
    markdownPath: markdownPathOf(page.path),
    kind: page.kind,
    title: page.title,
    description: page.description,
    date: page.date,
    markdown,
    bodyHtml: `${leadHtml}<div class="prose">\n${markdownToHtml(page.body)}${extraHtml}</div>\n`,
  };
}

/** Every public page, keyed by canonical path, rendered once at start-up. */
export function buildSitePages(sources: SiteSources, openApiDocument: Record<string, unknown>): Map<string, SitePage> {
  const pages = new Map<string, SitePage>();
  const home = build(sources.home, HOME_MARKDOWN_RUN, '');
  // The forms come right after the opening paragraph, so they are in view without scrolling (desktop and
  // phone); the rest of the page (what makes the measurement different) follows them.
  const split = sources.home.body.search(/\n## /u);
  const intro = split === -1 ? sources.home.body : sources.home.body.slice(0, split);
  const rest = split === -1 ? '' : sources.home.body.slice(split + 1);
  home.bodyHtml = `<div class="prose home-intro">\n${markdownToHtml(intro)}</div>
<div class="cards">
<section class="card"><h2 id="check-heading">Quick check</h2><p class="meta">One model, one pass: does it know the brand, list it blind, recommend it? A few seconds.</p>
${checkFormHtml()}</section>
<section class="card"><h2 id="audit-heading">Full audit</h2><p class="meta">Reads your site like AI crawlers, asks every provider the buyer questions several times, and reports a score with its interval.</p>
${auditFormHtml()}</section>
</div>
${rest === '' ? '' : `<div class="prose">\n${markdownToHtml(rest)}</div>\n`}`;
  pages.set('/', home);
  for (const page of sources.pages) {
    if (page.path === '/developers') {
      const reference = openApiReferenceMarkdown(openApiDocument);
      pages.set(page.path, build(page, reference, markdownToHtml(reference)));
    } else if (page.path === '/compare') {
      pages.set(page.path, build(page, listMarkdown(sources.compare), listHtml(sources.compare)));
    } else if (page.path === '/blog') {
      pages.set(page.path, build(page, listMarkdown(sources.blog), listHtml(sources.blog)));
    } else {
      pages.set(page.path, build(page, '', ''));
    }
  }
  for (const page of [...sources.compare, ...sources.blog]) {
    const dated = page.date ? `<p class="meta">Published <time datetime="${page.date}">${page.date}</time></p>\n` : '';
    pages.set(page.path, build(page, '', '', dated));
  }
  return pages;
}
