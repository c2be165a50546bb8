import { describe, expect, it } from 'vitest';
import { summarizeJsonLd } from './json-ld.js';
import { parsePage } from './page.js';

const HTML = `<!DOCTYPE html>
<html lang="en-GB"><head>
<title>  Acme — Invoicing
  software </title>
<meta name="Description" content="Send invoices in seconds.">
<meta property="og:title" content="Acme"><meta property="og:type" content="website"><meta property="og:site_name" content="Acme Inc">
<link rel="alternate canonical" href="/home">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"Acme"},{"@type":["SoftwareApplication","WebApplication"],"offers":{"@type":"Offer"}}]}</script>
<script type="application/ld+json">{ not json </script>
<script>var hidden = "do not count me";</script>
<style>.x { color: red }</style>
</head><body>
<h1>Invoicing <em>made</em> simple</h1><h2>Pricing</h2><h2>Pricing</h2><h2>Integrations</h2>
<p>Start&nbsp;your free trial.</p>
<a href="/pricing#plans">See plans</a> <a href="https://other.example/x">Partner</a> <a href="mailto:hi@acme.io">Mail</a> <a href="javascript:void(0)">JS</a>
<template><p>template text</p></template>
</body></html>`;

describe('parsePage', () => {
  const page = parsePage(HTML, 'https://acme.io/', 200);

  it('reads title, description, headings, canonical and og fields', () => {
    expect(page.summary).toMatchObject({
      url: 'https://acme.io/',
      status: 200,
      title: 'Acme — Invoicing software',
      description: 'Send invoices in seconds.',
      h1: ['Invoicing made simple'],
      h2: ['Pricing', 'Integrations'],
      canonical: 'https://acme.io/home',
      htmlLang: 'en-GB',
      truncated: false,
    });
    expect(page.summary.openGraph).toMatchObject({ title: 'Acme', type: 'website', siteName: 'Acme Inc', description: undefined });
  });

  it('collects JSON-LD types from @graph, arrays and nested values, counting invalid blocks', () => {
    expect(page.summary.jsonLd).toEqual({ types: ['Organization', 'SoftwareApplication', 'WebApplication', 'Offer'], blocks: 2, invalidBlocks: 1 });
  });

  it('keeps only visible text', () => {
    expect(page.text).toContain('Invoicing made simple');
    expect(page.text).toContain('Start your free trial.');
    expect(page.text).not.toContain('do not count me');
    expect(page.text).not.toContain('color');
    expect(page.text).not.toContain('template text');
    expect(page.summary.wordCount).toBeGreaterThan(5);
  });

  it('resolves http(s) links and drops fragments and other schemes', () => {
    expect(page.links).toEqual([
      { url: 'https://acme.io/pricing', text: 'See plans' },
      { url: 'https://other.example/x', text: 'Partner' },
    ]);
  });

  it('survives absurdly nested markup quickly, keeping what comes before the nesting', () => {
    const started = Date.now();
    for (const opener of ['<div>', '<b>', '<div/>', '<span></b>']) {
      const deep = `<title>Deep</title><h1>Top</h1>${opener.repeat(100_000)}deep`;
      const parsed = parsePage(deep, 'https://acme.io/', 200);
      expect(parsed.summary).toMatchObject({ title: 'Deep', h1: ['Top'], truncated: true });
    }
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('does not cut ordinary pages with many siblings, lists and inline icons', () => {
    const icons = '<svg><path d="M0"/><path d="M1"/><circle r="1"/></svg>'.repeat(500);
    const list = `<ul>${'<li>item'.repeat(2_000)}</ul>`;
    const paragraphs = '<p>text'.repeat(2_000);
    const parsed = parsePage(`<html><body>${icons}${list}${paragraphs}<h2>End</h2></body></html>`, 'https://acme.io/', 200);
    expect(parsed.summary.truncated).toBe(false);
    expect(parsed.summary.h2).toEqual(['End']);
  });
});

describe('summarizeJsonLd', () => {
  it('normalises schema.org URLs and prefixes', () => {
    expect(summarizeJsonLd(['[{"@type":"http://schema.org/LocalBusiness"},{"@type":"schema:FAQPage"}]']).types).toEqual(['LocalBusiness', 'FAQPage']);
  });

  it('accepts JSON wrapped in an HTML comment', () => {
    expect(summarizeJsonLd(['<!--{"@type":"Product"}-->'])).toEqual({ types: ['Product'], blocks: 1, invalidBlocks: 0 });
  });

  it('stops on hostile depth without throwing', () => {
    const deep = `${'{"a":'.repeat(5_000)}{"@type":"Hidden"}${'}'.repeat(5_000)}`;
    expect(summarizeJsonLd([deep]).types).toEqual([]);
  });
});
