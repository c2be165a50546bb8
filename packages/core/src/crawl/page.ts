import { DomUtils, ElementType, parseDocument } from 'htmlparser2';
import { summarizeJsonLd, type JsonLdSummary } from './json-ld.js';
import { cutDeepNesting } from './nesting.js';

type DomNode = ReturnType<typeof DomUtils.getChildren>[number];
type DomElement = ReturnType<typeof DomUtils.findAll>[number];

export interface OpenGraph {
  title: string | undefined;
  description: string | undefined;
  type: string | undefined;
  siteName: string | undefined;
  image: string | undefined;
  locale: string | undefined;
}

/** What one crawled page says about the brand, as an assistant's crawler would read it. */
export interface PageSummary {
  url: string;
  status: number;
  title: string | undefined;
  description: string | undefined;
  h1: string[];
  h2: string[];
  canonical: string | undefined;
  openGraph: OpenGraph;
  /** The `<html lang>` attribute as written. */
  htmlLang: string | undefined;
  jsonLd: JsonLdSummary;
  /** Words of visible text (scripts, styles and templates excluded). */
  wordCount: number;
  /** True when only the start of the page was read: longer than the byte cap, or nested absurdly deep. */
  truncated: boolean;
}

export interface PageLink {
  url: string;
  text: string;
}

export interface ParsedPage {
  summary: PageSummary;
  /** Absolute http(s) links in document order, fragments removed. */
  links: PageLink[];
  /** Visible text, whitespace collapsed (bounded). */
  text: string;
}

const MAX_HEADINGS = 20;
const MAX_FIELD = 300;
const MAX_LINKS = 500;
const MAX_TEXT = 200_000;
// Elements whose text no reader sees; JSON-LD is read separately before they are skipped.
const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'iframe', 'object']);

/** Parses an HTML page into its summary, its links and its visible text. */
export function parsePage(rawHtml: string, url: string, status: number, truncated = false): ParsedPage {
  const { html, cut } = cutDeepNesting(rawHtml);
  const document = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  const elements = DomUtils.findAll(() => true, document.children);
  const byName = (name: string): DomElement[] => elements.filter((element) => element.name === name);
  const meta = (test: (element: DomElement) => boolean): string | undefined => {
    const found = byName('meta').find(test);
    return found === undefined ? undefined : clean(DomUtils.getAttributeValue(found, 'content'));
  };
  const metaNamed = (name: string): string | undefined => meta((element) => attribute(element, 'name')?.toLowerCase() === name);
  const property = (name: string): string | undefined => meta((element) => attribute(element, 'property')?.toLowerCase() === name);

  const base = baseUrl(byName('base')[0], url);
  const canonicalLink = byName('link').find((element) => (attribute(element, 'rel') ?? '').toLowerCase().split(/\s+/).includes('canonical'));
  const jsonLdBlocks = byName('script')
    .filter((element) => (attribute(element, 'type') ?? '').split(';')[0]?.trim().toLowerCase() === 'application/ld+json')
    .map((element) => DomUtils.textContent(element));
  const text = visibleText(document.children);
  const titleElement = byName('title')[0];
  const htmlElement = byName('html')[0];

  const summary: PageSummary = {
    url,
    status,
    title: titleElement === undefined ? undefined : clean(DomUtils.textContent(titleElement)),
    description: metaNamed('description'),
    h1: headings(byName('h1')),
    h2: headings(byName('h2')),
    canonical: resolveUrl(attribute(canonicalLink, 'href'), base),
    openGraph: {
      title: property('og:title'),
      description: property('og:description'),
      type: property('og:type'),
      siteName: property('og:site_name'),
      image: property('og:image'),
      locale: property('og:locale'),
    },
    htmlLang: clean(attribute(htmlElement, 'lang') ?? attribute(htmlElement, 'xml:lang')),
    jsonLd: summarizeJsonLd(jsonLdBlocks),
    wordCount: text === '' ? 0 : text.split(' ').length,
    truncated: truncated || cut,
  };
  return { summary, links: links(byName('a'), base), text };
}

function attribute(element: DomElement | undefined, name: string): string | undefined {
  return element === undefined ? undefined : DomUtils.getAttributeValue(element, name);
}

/** Collapses whitespace and bounds length; empty becomes undefined. */
function clean(value: string | undefined): string | undefined {
  const collapsed = value?.replace(/\s+/g, ' ').trim().slice(0, MAX_FIELD);
  return collapsed === undefined || collapsed === '' ? undefined : collapsed;
}

function headings(elements: DomElement[]): string[] {
  const texts: string[] = [];
  for (const element of elements) {
    const text = clean(visibleText([element]));
    if (text !== undefined && !texts.includes(text)) texts.push(text);
    if (texts.length >= MAX_HEADINGS) break;
  }
  return texts;
}

function baseUrl(element: DomElement | undefined, pageUrl: string): string {
  return resolveUrl(attribute(element, 'href'), pageUrl) ?? pageUrl;
}

/** An absolute http(s) URL without fragment, or undefined for anything else (mailto:, javascript:, junk). */
function resolveUrl(href: string | undefined, base: string): string | undefined {
  if (href === undefined || href.trim() === '') return undefined;
  try {
    const resolved = new URL(href.trim(), base);
    if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') return undefined;
    resolved.hash = '';
    return resolved.href;
  } catch {
    return undefined;
  }
}

function links(anchors: DomElement[], base: string): PageLink[] {
  const found: PageLink[] = [];
  for (const anchor of anchors) {
    const url = resolveUrl(attribute(anchor, 'href'), base);
    if (url === undefined) continue;
    found.push({ url, text: clean(visibleText([anchor]))?.slice(0, 120) ?? clean(attribute(anchor, 'title')) ?? '' });
    if (found.length >= MAX_LINKS) break;
  }
  return found;
}

/** Text a reader sees, with a space between nodes so "<h1>A</h1><p>B</p>" reads as two words. */
function visibleText(roots: DomNode[]): string {
  const parts: string[] = [];
  let length = 0;
  // Iterative, so absurdly nested markup cannot overflow the stack.
  const stack: DomNode[] = [...roots].reverse();
  while (stack.length > 0 && length < MAX_TEXT) {
    const node = stack.pop() as DomNode;
    if (node.type === ElementType.Text && 'data' in node) {
      parts.push(node.data);
      length += node.data.length;
      continue;
    }
    if ('name' in node && INVISIBLE.has(node.name)) continue;
    const children = DomUtils.getChildren(node);
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const child = children[index];
      if (child !== undefined) stack.push(child);
    }
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
}
