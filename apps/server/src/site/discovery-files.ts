import type { SitePage } from './catalog.js';

const SUMMARY =
  'An open-source service that measures whether AI assistants (OpenAI, Gemini and Anthropic models) recommend a brand: it asks the buyer questions live, repeats them, and reports a score with its 95% interval, the competitors named instead, run-to-run stability and what to fix on the site.';

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

function entry(baseUrl: string, page: SitePage): string {
  return `- [${page.title}](${baseUrl}${page.markdownPath}): ${page.description}`;
}

/** /llms.txt in the llmstxt.org format: H1, summary blockquote, then H2 sections of links to the markdown views. */
export function buildLlmsTxt(baseUrl: string, pages: ReadonlyMap<string, SitePage>): string {
  const all = [...pages.values()];
  const main = all.filter((page) => page.kind === 'home' || (page.kind === 'page' && !['/changelog', '/about', '/contact'].includes(page.path)));
  const optional = all.filter((page) => ['/changelog', '/about', '/contact'].includes(page.path));
  const section = (title: string, list: SitePage[]) => (list.length === 0 ? [] : [`## ${title}`, '', ...list.map((page) => entry(baseUrl, page)), '']);
  return [
    '# AI Visibility',
    '',
    `> ${SUMMARY}`,
    '',
    'Every page below is markdown (append `.md` to a page path, or send `Accept: text/markdown`). No account or API key is needed; limits are per caller and the provider budget is shared. Results from the demo lineup are labelled demo.',
    '',
    ...section('Pages', main),
    ...section('Comparisons', all.filter((page) => page.kind === 'compare')),
    ...section('Blog', all.filter((page) => page.kind === 'blog')),
    '## API and tools',
    '',
    `- [OpenAPI 3.1 description](${baseUrl}/openapi.json): the public REST operations, their fields, status codes and error codes`,
    `- [MCP server manifest](${baseUrl}/.well-known/mcp.json): the remote tool server at ${baseUrl}/mcp (tools start_visibility_check and get_visibility_check)`,
    `- [Full text](${baseUrl}/llms-full.txt): every page above in one markdown file`,
    '',
    ...section('Optional', optional),
  ].join('\n');
}

/** /llms-full.txt: the llms.txt header, then every page's markdown view in full. */
export function buildLlmsFullTxt(baseUrl: string, pages: ReadonlyMap<string, SitePage>): string {
  const parts = [`# AI Visibility: full text`, '', `> ${SUMMARY}`, '', `Index: ${baseUrl}/llms.txt`, ''];
  for (const page of pages.values()) {
    parts.push('---', '', `Source: ${baseUrl}${page.path === '/' ? '/' : page.path}`, '', page.markdown.trim(), '');
  }
  return parts.join('\n');
}

/** /sitemap.xml: every public page and slug at its canonical URL; dated pages carry lastmod. */
export function buildSitemapXml(baseUrl: string, pages: ReadonlyMap<string, SitePage>): string {
  const urls = [...pages.values()].map((page) => {
    const loc = `    <loc>${xmlEscape(`${baseUrl}${page.path}`)}</loc>`;
    return `  <url>\n${loc}\n${page.date ? `    <lastmod>${page.date}</lastmod>\n` : ''}  </url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * /robots.txt: the API is off limits for crawlers (that is why /openapi.json sits at the root), and
 * so are sign-in and private report links. Badge and share pages stay crawlable so that their
 * noindex is seen (a disallowed URL can still be indexed from links to it).
 */
export function buildRobotsTxt(baseUrl: string): string {
  return ['User-agent: *', 'Disallow: /api', 'Disallow: /auth/', 'Disallow: /account', 'Disallow: /report/', 'Allow: /', '', `Sitemap: ${baseUrl}/sitemap.xml`, ''].join('\n');
}
