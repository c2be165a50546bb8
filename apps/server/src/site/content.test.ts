import { describe, expect, it } from 'vitest';
import { buildSitePages } from './catalog.js';
import { loadSiteSources } from './content.js';
import { headingSlug } from './markdown.js';
import { buildOpenApiDocument } from '../rest/openapi.js';

const pages = buildSitePages(loadSiteSources(), buildOpenApiDocument('http://visibility.test'));

/** Paths the site answers besides its pages (routes, discovery files, the API). */
const OTHER_PATHS = [/^\/(llms\.txt|llms-full\.txt|sitemap\.xml|robots\.txt|openapi\.json|account|mcp|health)$/, /^\/api\//, /^\/\.well-known\//, /^\/(share|badge|report)\//, /^\/auth\//];

describe('the site content in docs/', () => {
  it('has every page the spec lists, with at least three comparisons and three posts', () => {
    for (const path of ['/', '/pricing', '/methodology', '/developers', '/changelog', '/about', '/contact', '/compare', '/blog']) expect(pages.has(path), path).toBe(true);
    expect([...pages.values()].filter((page) => page.kind === 'compare').length).toBeGreaterThanOrEqual(3);
    expect([...pages.values()].filter((page) => page.kind === 'blog').length).toBeGreaterThanOrEqual(3);
  });

  it('links only to pages and anchors that exist', () => {
    const broken: string[] = [];
    for (const page of pages.values()) {
      for (const match of page.markdown.matchAll(/\]\((\/[^)\s]*)\)/g)) {
        const target = match[1] ?? '';
        const [path = '', anchor] = target.split('#');
        const pagePath = path.endsWith('.md') ? path.slice(0, -3).replace(/^\/index$/, '/') : path;
        const linked = pages.get(pagePath === '' ? page.path : pagePath);
        if (linked === undefined) {
          if (!OTHER_PATHS.some((pattern) => pattern.test(path))) broken.push(`${page.path} -> ${target}`);
          continue;
        }
        if (anchor !== undefined && anchor !== '') {
          const slugs = [...linked.markdown.matchAll(/^#{2,4} (.+)$/gm)].map((heading) => headingSlug(heading[1] ?? ''));
          if (!slugs.includes(anchor)) broken.push(`${page.path} -> ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('keeps descriptions short enough for search results and llms.txt', () => {
    for (const page of pages.values()) expect(page.description.length, page.path).toBeLessThanOrEqual(200);
  });
});
