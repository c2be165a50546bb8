import { describe, expect, it } from 'vitest';
import { parseSitemap } from './sitemap.js';

describe('parseSitemap', () => {
  it('counts the pages of a urlset', () => {
    const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/', '/a', '/b'].map((path) => `<url><loc>https://acme.io${path}</loc></url>`).join('')}</urlset>`;
    expect(parseSitemap(xml)).toEqual({ kind: 'urlset', urlCount: 3, sample: ['https://acme.io/', 'https://acme.io/a', 'https://acme.io/b'] });
  });

  it('recognises a sitemap index', () => {
    const xml = '<sitemapindex><sitemap><loc>https://acme.io/s1.xml</loc></sitemap><sitemap><loc>https://acme.io/s2.xml</loc></sitemap></sitemapindex>';
    expect(parseSitemap(xml)).toMatchObject({ kind: 'index', urlCount: 2 });
  });

  it('refuses what is not a sitemap', () => {
    expect(parseSitemap('<!doctype html><html><body>404</body></html>')).toBeUndefined();
  });

  it('survives hostile nesting quickly', () => {
    const started = Date.now();
    expect(parseSitemap(`<urlset><url><loc>https://acme.io/</loc></url>${'<x>'.repeat(100_000)}</urlset>`)).toMatchObject({ kind: 'urlset', urlCount: 1 });
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
