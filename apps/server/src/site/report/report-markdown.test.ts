import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { toReportView, type ReportView } from './report-model.js';
import { escapeMarkdown, renderReportMarkdown } from './report-markdown.js';
import {
  AUDIT_ID,
  auditResponse,
  buyerQuestionMap,
  CREATED_AT,
  EVIL_ANSWER,
  EVIL_BRAND,
  EVIL_COMPETITOR,
  EVIL_REASON,
  hostileMap,
  hostileResponse,
  oldResponse,
  type StoredResponse,
} from './test-support/fixture.js';
import { tags } from './test-support/markup.js';

function view(response: StoredResponse | Record<string, unknown>, extra: Partial<Parameters<typeof toReportView>[0]> = {}): ReportView {
  return toReportView({ auditId: AUDIT_ID, createdAt: CREATED_AT, response: response as Record<string, unknown>, ...extra });
}

/** The markdown as a GFM renderer turns it into HTML. */
function rendered(markdown: string): string {
  return marked.parse(markdown, { gfm: true, async: false });
}

describe('escapeMarkdown', () => {
  it('renders untrusted text literally: no links, images, HTML, code, emphasis or autolinks', () => {
    const samples = [
      EVIL_BRAND,
      EVIL_COMPETITOR,
      EVIL_ANSWER,
      '[click](https://evil.example)',
      '![img](https://evil.example/a.png)',
      'visit https://evil.example or www.evil.example or mail me@evil.example',
      '<https://evil.example>',
      '`code` and **bold** and _em_ and ~~strike~~',
      '&lt;script&gt; &#60;b&#62;',
      '[ref]: https://evil.example',
    ];
    for (const sample of samples) {
      const html = rendered(escapeMarkdown(sample));
      const names = tags(html).map((tag) => tag.name);
      expect(names, `${sample} → ${html}`).toEqual(['p', 'p']);
    }
  });

  it('keeps table cells whole and stops line-start markup', () => {
    const cell = escapeMarkdown('a | b | c');
    const table = rendered(`| x | y |\n|---|---|\n| ${cell} | z |`);
    expect(table).toContain('<td>a | b | c</td>');
    expect(table).toContain('<td>z</td>');
    for (const start of ['# heading', '- item', '+ item', '1. item', '> quote', '=== x', '    indented']) {
      const names = tags(rendered(`${escapeMarkdown(start)}`)).map((tag) => tag.name);
      expect(names, start).toEqual(['p', 'p']);
    }
  });

  it('puts everything on one line', () => {
    expect(escapeMarkdown('one\n\n# two\r\nthree')).toBe('one # two three');
  });
});

describe('renderReportMarkdown', () => {
  const markdown = renderReportMarkdown(view(auditResponse(), { map: buyerQuestionMap() }));

  it('has the headline with the interval, risk, confidence and date', () => {
    expect(markdown.startsWith('# HubSpot: AI visibility snapshot\n')).toBe(true);
    expect(markdown).toContain('**Visibility score: 46 (95% CI 35–58)** out of 100 · Medium risk · Medium confidence');
    expect(markdown).toContain('- Measured: 2025-05-01 14:03 UTC');
    // Escaped text, not a link or a code span: it renders as the address, and no autolink forms.
    expect(markdown).toContain('- Website: https\\://www\\.hubspot.com');
    expect(markdown).not.toContain('Demo lineup');
    expect(renderReportMarkdown(view(auditResponse()), { headingLevel: 2 }).startsWith('## HubSpot')).toBe(true);
  });

  it('has the findings table, the failed provider as not measured, competitors, grid and next steps', () => {
    expect(markdown).toContain('| openai | gpt\\-4.1\\-mini\\-2025\\-04\\-14 | 62 (95% CI 48–74) | 78% (95% CI 45–94%) | 2 | 31% | 9 of 9 |'.replaceAll('\\-', '-'));
    expect(markdown).toContain('| anthropic | claude-sonnet-4-5 | not measured | The provider was overloaded and did not answer after retries. | 9 |');
    expect(markdown).toContain('| 1 | Salesforce | 8 | 18 | 44% | found in the answers |');
    expect(markdown).toContain('Watched, never named: Copper.');
    expect(markdown).toContain('**HubSpot won 2 of 3 questions**');
    expect(markdown).toContain('| **Per provider** | named in 2 of 3 answered | named in 1 of 3 answered | not measured (3 failed) |');
    expect(markdown).toContain('| Buyer question | openai (gpt-4.1-mini-2025-04-14) | gemini (gemini-2.5-flash) | anthropic (claude-sonnet-4-5) |');
    expect(markdown).toContain(
      '| Which CRM software integrates well with Gmail? | named #3 | not named (named instead: Salesforce, Zoho CRM) | failed: The provider was overloaded. |',
    );
    expect(markdown).toContain('1. **Publish comparison pages (HubSpot vs Salesforce)** (High priority)');
    expect(markdown).toContain('   How: Write an honest "HubSpot vs Salesforce" page with a feature table.');
    expect(markdown).toContain('Across 12 other audits in “CRM software”, the average score is 41.5 and the median 39');
    // It renders as GFM: 5 tables (findings, failed, competitors, grid) and no stray markup.
    const html = rendered(markdown);
    expect(html.match(/<table>/gu)).toHaveLength(4);
    expect(html).not.toMatch(/<script|<img/u);
  });

  it('labels demo and degraded snapshots, and states the map progress or absence', () => {
    const response = auditResponse();
    response.mode = 'demo';
    response.audit.degraded = true;
    const demo = renderReportMarkdown(view(response, { mapStatus: { status: 'running', completed: 2, total: 9 } }));
    expect(demo).toContain('> **Demo lineup: simulated answers, not real model output.**');
    expect(demo).toContain('[How degraded snapshots work](/methodology#degraded-mode)');
    expect(demo).toContain('The buyer questions are being asked to every provider. 2 of 9 answers stored.');
    const absent = renderReportMarkdown(view(auditResponse()));
    expect(absent).toContain('has not been measured yet');
    expect(absent).toContain('2. Which CRM software integrates well with Gmail?');
  });

  it('renders an old response missing optional fields, and an unmeasured one without a 0', () => {
    const old = renderReportMarkdown(view(oldResponse()));
    expect(old).toContain('**Visibility score: 55** out of 100 · Medium risk');
    expect(old).toContain('| openai | model unknown | 61 | n/a | never named | n/a | n/a | Named Acme in 5 of 9 answers. |');
    expect(old).not.toContain('Providers not measured');

    const response = auditResponse();
    response.audit = { ...response.audit, measured: false, score: 0, risk: 'unknown', scoreInterval: null, notMeasuredReason: 'No provider is configured.' };
    response.providerFindings = [];
    const unmeasured = renderReportMarkdown(view(response));
    expect(unmeasured).toContain('**Not measured.** No provider is configured.');
    expect(unmeasured).not.toContain('Visibility score');
  });

  it('cannot be hijacked by hostile brands, competitors, model ids, answers or reasons', () => {
    const markdown = renderReportMarkdown(view(hostileResponse(), { map: hostileMap() }));
    const html = rendered(markdown);
    const names = new Set(tags(html).map((tag) => tag.name));
    const allowed = new Set(['a', 'blockquote', 'code', 'h1', 'h2', 'li', 'ol', 'p', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul']);
    expect([...names].filter((name) => !allowed.has(name))).toEqual([]);
    expect(names.has('img')).toBe(false);
    expect(names.has('script')).toBe(false);
    // The only links are ours.
    const hrefs = tags(html).flatMap((tag) => tag.attributes.filter((attribute) => attribute.name === 'href').map((attribute) => attribute.value));
    expect(new Set(hrefs)).toEqual(new Set(['/methodology']));
    expect(html.match(/<h1>/gu)).toHaveLength(1);
    expect(html.match(/<h2>/gu)).toHaveLength(6);
    // Every table row keeps its column count despite the pipes in the text.
    for (const table of html.match(/<table>[\s\S]*?<\/table>/gu) ?? []) {
      const rows = table.match(/<tr>[\s\S]*?<\/tr>/gu) ?? [];
      const widths = new Set(rows.map((row) => (row.match(/<t[hd]>|<t[hd] /gu) ?? []).length));
      expect(widths.size, table).toBe(1);
    }
    expect(markdown).not.toContain(EVIL_BRAND);
    expect(markdown).not.toContain(EVIL_COMPETITOR);
    expect(markdown).not.toContain(EVIL_REASON);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
