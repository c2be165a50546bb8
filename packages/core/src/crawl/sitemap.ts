import { DomUtils, parseDocument } from 'htmlparser2';
import { cutDeepNesting } from './nesting.js';

export interface ParsedSitemap {
  /** A list of pages (`urlset`) or a list of further sitemaps (`sitemapindex`). */
  kind: 'urlset' | 'index';
  /** `<loc>` entries: pages for a urlset, child sitemaps for an index. */
  urlCount: number;
  /** The first few entries, for choosing pages and for the report. */
  sample: string[];
}

const SAMPLE_SIZE = 20;

/** Reads a sitemap or sitemap index; undefined when the XML is neither (an HTML error page, say). */
export function parseSitemap(xml: string): ParsedSitemap | undefined {
  // Real sitemaps are three levels deep; the cut only bites on hostile XML.
  const document = parseDocument(cutDeepNesting(xml, { xmlMode: true }).html, { xmlMode: true });
  // Local names, so a namespace prefix ("ns:urlset") does not hide the element.
  const localName = (name: string): string => name.slice(name.indexOf(':') + 1).toLowerCase();
  const root = DomUtils.findOne((element) => ['urlset', 'sitemapindex'].includes(localName(element.name)), document.children);
  if (root === null) return undefined;
  const locations = DomUtils.findAll((element) => localName(element.name) === 'loc', root.children)
    .map((element) => DomUtils.textContent(element).trim())
    .filter((location) => location !== '');
  return {
    kind: localName(root.name) === 'urlset' ? 'urlset' : 'index',
    urlCount: locations.length,
    sample: locations.slice(0, SAMPLE_SIZE),
  };
}
