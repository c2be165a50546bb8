import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '@visibility/core';

/** The id a heading gets, so pages can link to a section (`/methodology#degraded`). */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z]+;/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Links may only be relative, http(s) or mailto: anything else (javascript:, data:) becomes text. */
function safeHref(href: string): string | undefined {
  const trimmed = href.trim();
  if (/^(https?:|mailto:)/i.test(trimmed) || /^[/#?.]/.test(trimmed) || !/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return trimmed;
  return undefined;
}

/**
 * Markdown to HTML for the site's pages. Raw HTML in the source is shown as text, never passed
 * through; headings get ids; tables get a scrolling wrapper; links keep only safe schemes.
 */
function createRenderer(): Marked {
  const marked = new Marked({ gfm: true, async: false });
  marked.use({
    renderer: {
      html({ text }: Tokens.HTML | Tokens.Tag): string {
        return escapeHtml(text);
      },
      heading({ tokens, depth }: Tokens.Heading): string {
        const inner = this.parser.parseInline(tokens);
        return `<h${depth} id="${escapeHtml(headingSlug(inner))}">${inner}</h${depth}>\n`;
      },
      link({ href, title, tokens }: Tokens.Link): string {
        const inner = this.parser.parseInline(tokens);
        const safe = safeHref(href);
        if (safe === undefined) return inner;
        const titleAttribute = title ? ` title="${escapeHtml(title)}"` : '';
        return `<a href="${escapeHtml(safe)}"${titleAttribute}>${inner}</a>`;
      },
      image({ text }: Tokens.Image): string {
        // Pages carry no remote images (CSP img-src 'self'); the alt text stays readable.
        return escapeHtml(text);
      },
      table(token: Tokens.Table): string {
        const header = token.header.map((cell) => `<th scope="col">${this.parser.parseInline(cell.tokens)}</th>`).join('');
        const rows = token.rows
          .map((row) => `<tr>${row.map((cell) => `<td>${this.parser.parseInline(cell.tokens)}</td>`).join('')}</tr>`)
          .join('\n');
        return `<div class="table-scroll" tabindex="0" role="region" aria-label="Table"><table>\n<thead><tr>${header}</tr></thead>\n<tbody>\n${rows}\n</tbody>\n</table></div>\n`;
      },
    },
  });
  return marked;
}

const renderer = createRenderer();

/** Renders trusted-structure, untrusted-HTML markdown to an HTML fragment. */
export function markdownToHtml(markdown: string): string {
  return renderer.parse(markdown, { async: false });
}
