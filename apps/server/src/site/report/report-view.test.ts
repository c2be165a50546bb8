import { describe, expect, it } from 'vitest';
import { renderScoreChart, renderShareOfVoiceChart } from './charts.js';
import { REPORT_CSS } from './report-css.js';
import { toReportView, type ReportView } from './report-model.js';
import { MAP_ACTION_LABEL, renderReportHtml } from './report-view.js';
import {
  AUDIT_ID,
  auditResponse,
  buyerQuestionMap,
  CREATED_AT,
  EVIL_BRAND,
  hostileMap,
  hostileResponse,
  oldResponse,
  type StoredResponse,
} from './test-support/fixture.js';
import { markupProblems, svgs, tags } from './test-support/markup.js';

function view(response: StoredResponse | Record<string, unknown>, extra: Partial<Parameters<typeof toReportView>[0]> = {}): ReportView {
  return toReportView({ auditId: AUDIT_ID, createdAt: CREATED_AT, response: response as Record<string, unknown>, ...extra });
}

/** No scripts, no inline styles or handlers, no javascript: links: what the strict CSP and escaping promise. */
function expectSafe(html: string): void {
  expect(html).not.toMatch(/<script/iu);
  expect(html).not.toMatch(/<style/iu);
  expect(html).not.toMatch(/<img/iu);
  for (const tag of tags(html)) {
    for (const attribute of tag.attributes) {
      expect(attribute.name, `<${tag.name} ${attribute.name}>`).not.toMatch(/^on|^style$/u);
      if (attribute.name === 'href' || attribute.name === 'action') expect(attribute.value ?? '').not.toMatch(/^\s*javascript:/iu);
    }
  }
  expect(markupProblems(html)).toEqual([]);
  for (const svg of svgs(html)) expect(markupProblems(svg, 'xml')).toEqual([]);
}

describe('renderReportHtml', () => {
  const full = renderReportHtml(view(auditResponse(), { map: buyerQuestionMap() }), {});

  it('is one well-formed <section class="report"> fragment without scripts or inline styles', () => {
    expect(full.startsWith('<section class="report"')).toBe(true);
    expect(full.trimEnd().endsWith('</section>')).toBe(true);
    expect(full).not.toMatch(/<h1/u);
    expectSafe(full);
    expect(svgs(full)).toHaveLength(2);
  });

  it('shows the score with its interval, the risk band, the confidence and the date', () => {
    expect(full).toContain('<span class="report-score-number">46</span>');
    expect(full).toContain('(95% CI 35–58)');
    expect(full).toContain('Medium risk');
    expect(full).toContain('Medium confidence');
    expect(full).toContain('<time datetime="2025-05-01T14:03:27.000Z">2025-05-01 14:03 UTC</time>');
    // Per provider, in the findings table: score and mention rate with their intervals.
    expect(full).toContain('62 (95% CI 48–74)');
    expect(full).toContain('78% (95% CI 45–94%)');
    expect(full).toContain('<code>gpt-4.1-mini-2025-04-14</code>');
    expect(full).not.toContain('Demo lineup');
    expect(full).not.toContain('report-banner-degraded');
  });

  it('shows a failed provider as not measured, never as 0 or "not mentioned"', () => {
    const failedRow = /<tr class="report-row-not-measured">[\s\S]*?<\/tr>/u.exec(full)?.[0] ?? '';
    expect(failedRow).toContain('<th scope="row">anthropic</th>');
    expect(failedRow).toContain('not measured');
    expect(failedRow).toContain('The provider was overloaded and did not answer after retries.');
    expect(full).not.toMatch(/not mentioned<\/|>not mentioned/u);
    // The findings table has no anthropic row.
    const findings = /<table class="report-table report-findings">[\s\S]*?<\/table>/u.exec(full)?.[0] ?? '';
    expect(findings).not.toContain('anthropic');
  });

  it('renders the buyer-question grid with named / not named / failed cells and the questions won', () => {
    const grid = /<table class="report-table report-grid">[\s\S]*?<\/table>/u.exec(full)?.[0] ?? '';
    expect(grid).toContain('<caption');
    expect(grid).toContain('<th scope="col">openai<br><code class="report-model">gpt-4.1-mini-2025-04-14</code></th>');
    expect(grid).toContain('<th scope="row">What is the best CRM for a small B2B sales team?</th>');
    expect(grid).toContain('named #2');
    expect(grid).toContain('named #3');
    expect(grid).toContain('not named (named instead: Salesforce, Zoho CRM)');
    expect(grid).toContain('failed: The provider was overloaded.');
    expect(grid).toContain('named in 2 of 3 answered');
    expect(grid).toContain('<td data-label="anthropic">not measured (3 failed)</td>');
    expect(full).toContain('won 2 of 3 questions');
    expect(grid.match(/<td class="report-cell report-cell-failed" data-label="anthropic">/gu)).toHaveLength(3);
    expect(grid).toContain('<details class="report-answer"><summary>Answer</summary>');
  });

  it('lists competitors named instead, next steps and the category benchmark', () => {
    expect(full).toContain('<th scope="row">Salesforce</th>');
    expect(full).toMatch(/<th scope="row">Salesforce<\/th>\s*<td class="report-number" data-label="Named instead">8<\/td>\s*<td class="report-number" data-label="Answers naming it">18<\/td>\s*<td class="report-number" data-label="Share of voice">44%<\/td>/u);
    // A watched competitor no answer named is not a row of zeros under "named instead".
    expect(full).not.toMatch(/<th scope="row">Copper<\/th>/u);
    expect(full).toContain('Watched, never named: Copper.');
    expect(full).toContain('<h3>Publish comparison pages (HubSpot vs Salesforce)</h3>');
    expect(full).toContain('High priority');
    expect(full).toContain('<strong>How:</strong> Write an honest &quot;HubSpot vs Salesforce&quot; page');
    expect(full).toContain('Across 12 other audits in “CRM software”, the average score is 41.5 and the median 39');
  });

  it('labels a demo lineup and explains a degraded snapshot with a link to the methodology', () => {
    const response = auditResponse();
    response.mode = 'demo';
    response.audit.degraded = true;
    response.audit.samplesPerQuestion = 1;
    const html = renderReportHtml(view(response), {});
    expect(html).toContain('Demo lineup: simulated answers, not real model output');
    expect(html).toContain('report-banner-degraded');
    expect(html).toContain('asked once per provider');
    expect(html).toContain('<a href="/methodology#degraded-mode">');
    // The charts say it too (title and model labels).
    const [scoreSvg] = svgs(html);
    expect(scoreSvg).toContain('(demo lineup)');
    expect(scoreSvg).toContain('gpt-4.1-mini-2025-04-14 (demo)');
  });

  it('shows an unmeasured audit as not measured with its reason, without a 0 score', () => {
    const response = auditResponse();
    response.audit = { ...response.audit, measured: false, score: 0, risk: 'unknown', scoreInterval: null, mentionRate: null, mentionRateInterval: null, notMeasuredReason: 'Every provider call failed.' };
    response.providerFindings = [];
    response.competitors = [];
    response.providerErrors = (['openai', 'anthropic', 'gemini'] as const).map((provider) => ({ provider, model: `${provider}-model`, reason: 'Rejected key.', kind: 'unavailable', failedSamples: 9 }));
    const html = renderReportHtml(view(response), {});
    expectSafe(html);
    expect(html).toContain('report-not-measured');
    expect(html).toContain('Every provider call failed.');
    expect(html).toContain('This is not a score of 0');
    expect(html).not.toContain('report-score-number">0<');
    expect(html).not.toMatch(/scores 0\b/u);
    const [scoreSvg] = svgs(html);
    expect(scoreSvg?.match(/report-chart-row-missing/gu)).toHaveLength(3);
    expect(scoreSvg).not.toMatch(/class="report-bar"/u);
  });

  it('shows the map progress while it runs', () => {
    const html = renderReportHtml(view(auditResponse(), { mapStatus: { status: 'running', completed: 4, total: 9 } }), { mapAction: { formAction: '/x' } });
    expect(html).toContain('4 of 9 answers stored');
    expect(html).toContain('<progress class="report-progress" max="9" value="4">');
    expect(html).not.toContain('<form');
  });

  it('offers a plain POST form to start the map when none exists, only when asked to', () => {
    const action = `/api/audit/${AUDIT_ID}/fanout-map?next="a"&b`;
    const withForm = renderReportHtml(view(auditResponse()), { mapAction: { formAction: action } });
    expectSafe(withForm);
    expect(withForm).toContain(
      `<form class="report-map-form" method="post" action="/api/audit/${AUDIT_ID}/fanout-map?next=&quot;a&quot;&amp;b"><button type="submit">${MAP_ACTION_LABEL}</button></form>`,
    );
    expect(withForm).toContain('<li>Which CRM software integrates well with Gmail?</li>');
    expect(renderReportHtml(view(auditResponse()), {})).not.toContain('<form');
    // No buyer questions: nothing to ask, so no form.
    const noFanout = auditResponse();
    noFanout.productFanout = null;
    noFanout.fanoutMissingReason = 'The crawl found no product.';
    const html = renderReportHtml(view(noFanout), { mapAction: { formAction: '/x' } });
    expect(html).not.toContain('<form');
    expect(html).toContain('No buyer questions were generated for this audit: The crawl found no product.');
  });

  it('renders an old response missing every optional field', () => {
    const html = renderReportHtml(view(oldResponse()), { mapAction: { formAction: '/x' } });
    expectSafe(html);
    expect(html).toContain('<span class="report-score-number">55</span>');
    expect(html).not.toContain('report-score-interval');
    expect(html).not.toMatch(/\(95% CI \d/u);
    expect(html).toMatch(/<th scope="row">openai<\/th>\s*<td data-label="Model"><code>model unknown<\/code><\/td>\s*<td class="report-number" data-label="Score \(95% CI\)">61<\/td>/u);
    expect(html).toContain('model unknown');
    expect(html).not.toContain('Providers not measured');
    expect(html).toContain('No buyer questions were generated for this audit.');
    expect(renderReportHtml(view({}), {})).toContain('Not measured');
  });

  it('escapes hostile brands, competitors, model ids, answers and reasons everywhere, and the SVG still parses', () => {
    const html = renderReportHtml(view(hostileResponse(), { map: hostileMap() }), { mapAction: { formAction: '/x' } });
    expectSafe(html);
    expect(svgs(html)).toHaveLength(2);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&lt;/svg&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    // javascript: is shown as text, never linked.
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('javascript:alert(1)');
  });
});

describe('charts', () => {
  const v = view(auditResponse());
  const score = renderScoreChart(v);
  const share = renderShareOfVoiceChart(v);

  it('are accessible, responsive SVGs followed by a data table', () => {
    for (const chart of [score, share]) {
      const [svg] = svgs(chart);
      expect(svg).toMatch(/^<svg class="report-chart-svg[^"]*" xmlns="http:\/\/www.w3.org\/2000\/svg" role="img" aria-labelledby="(\S+)-title \1-desc" viewBox="0 0 640 \d+" width="100%"/u);
      expect(svg).toMatch(/<title id="[^"]+">[^<]+<\/title><desc id="[^"]+">[^<]+<\/desc>/u);
      expect(chart).toMatch(/^<figure class="report-chart"><div class="report-chart-scroll" role="region" aria-labelledby="[^"]+-title" tabindex="0"><svg /u);
      expect(chart).toMatch(/<\/svg><\/div><table class="report-sr-only"><caption>/u);
      expect(chart).toContain('<th scope="col">');
      // Text is drawn in currentColor; colours come from classes, never from inline styles.
      expect(svg).not.toMatch(/style=/u);
      for (const text of svg?.match(/<text [^>]*>/gu) ?? []) expect(text).toContain('fill="currentColor"');
    }
  });

  it('draw each provider score with its 95% whisker, and the failed provider as a hatched not-measured row', () => {
    expect(score).toContain('openai');
    expect(score).toContain('gpt-4.1-mini-2025-04-14');
    expect(score).toContain('>62 (48–74)</text>');
    // Bar width 62% of 330; whisker from 48 to 74 on the 200..530 scale.
    expect(score).toMatch(/<rect class="report-bar" x="200" y="\d+" width="204.6"/u);
    expect(score).toContain('<line x1="358.4" y1="');
    expect(score).toContain('x2="444.2"');
    expect(score).toContain('report-chart-row-missing');
    expect(score).toMatch(/fill="url\(#report-[\w-]+-score-hatch\)"/u);
    expect(score).toContain('Not measured: The provider was overloaded');
    expect(score).toContain('<th scope="row">anthropic</th><td>claude-sonnet-4-5</td><td>not measured</td>');
    expect(score).toContain('anthropic (claude-sonnet-4-5): not measured');
    expect(score).not.toMatch(/anthropic[^<]*<\/text>[^]*?>0<\/text>/u);
    // Overall row first.
    expect(score.indexOf('All providers')).toBeLessThan(score.indexOf('>openai<'));
  });

  it('compares the brand with the competitors named instead, as shares of the answers', () => {
    expect(share).toContain('>HubSpot</text>');
    expect(share).toContain('>10 of 18 (56%)</text>');
    expect(share).toContain('>Salesforce</text>');
    expect(share).toContain('<th scope="row">HubSpot (audited brand)</th><td>10 of 18</td><td>56%</td><td>–</td>');
    expect(share).toContain('<th scope="row">Zoho CRM</th><td>5 of 18</td><td>28%</td><td>4</td>');
    expect(share).not.toContain('Copper');
  });

  it('truncate long labels in the SVG but keep them whole in the table', () => {
    const response = auditResponse();
    const long = 'An extremely long competitor name that goes on and on';
    response.competitors[0]!.name = long;
    const chart = renderShareOfVoiceChart(view(response));
    // The label is cut; the <desc> and the table keep the whole name.
    expect(svgs(chart)[0]).toContain('>An extremely long competi…</text>');
    expect(svgs(chart)[0]).toMatch(new RegExp(`<desc [^>]*>[^<]*${long}`, 'u'));
    expect(chart).toContain(`<th scope="row">${long}</th>`);
  });

  it('keep hostile text escaped inside the SVG', () => {
    const chart = renderScoreChart(view(hostileResponse())) + renderShareOfVoiceChart(view(hostileResponse()));
    expectSafe(chart);
    expect(chart).not.toContain(EVIL_BRAND);
  });
});

describe('REPORT_CSS', () => {
  it('uses the site custom properties and makes tables scroll inside their wrapper', () => {
    for (const property of ['--fg', '--muted', '--line', '--accent', '--bg', '--good', '--warn', '--bad']) expect(REPORT_CSS).toContain(`var(${property})`);
    expect(REPORT_CSS).toMatch(/\.report-table-wrap \{[^}]*overflow-x: auto/u);
    expect(REPORT_CSS).toMatch(/\.report-chart-svg \{[^}]*width: 100%;[^}]*height: auto/u);
    expect(REPORT_CSS).toMatch(/\.report-chart-scroll \{[^}]*overflow-x: auto/u);
    // The chart scales to its box (no minimum width that would cut the axis on a phone).
    expect(REPORT_CSS).not.toMatch(/\.report-chart-svg \{[^}]*min-width/u);
    // On a phone the tables stack, each cell labelled by its column.
    expect(REPORT_CSS).toMatch(/@media \(max-width: 40rem\) \{[^@]*\.report-table td\[data-label\]::before \{ content: attr\(data-label\)/u);
    expect(REPORT_CSS).not.toMatch(/@import|url\(/u);
  });
});
