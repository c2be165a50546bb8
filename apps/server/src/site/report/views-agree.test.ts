// One audit, every view: the report page (also what a share link shows), its markdown, the result mail,
// the CLI summary and the MCP result must state the same figures by the same definitions.

import { auditMailFacts, buildAuditMail, buildVisibilityRunResult } from '@visibility/core';
import { describe, expect, it } from 'vitest';
import { formatAuditSummary } from '../../cli/format.js';
import { renderReportMarkdown } from './report-markdown.js';
import { toReportView } from './report-model.js';
import { renderReportHtml } from './report-view.js';
import { auditResponse } from './test-support/fixture.js';

/** Text without tags and entities, spaces collapsed, so a number split by markup still reads as one. */
function plain(html: string): string {
  return html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&quot;/gu, '"')
    .replace(/&amp;/gu, '&')
    .replace(/&#39;/gu, "'")
    .replace(/\s+/gu, ' ');
}

describe('every view of one audit states the same figures', () => {
  // The fixture stores no share of voice (an older audit): every view must compute the same one.
  const audit = auditResponse();
  const view = toReportView({ auditId: audit.id, createdAt: audit.createdAt, response: audit as unknown as Record<string, unknown> });
  const html = plain(renderReportHtml(view, {}));
  const markdown = renderReportMarkdown(view, {});
  const mail = buildAuditMail('owner@example.com', auditMailFacts(audit, 'http://visibility.test', 'http://visibility.test/report/x?key=k'));
  const cli = formatAuditSummary(audit, { demo: false });
  const mcp = buildVisibilityRunResult(audit, undefined);

  const score = audit.audit.score;
  const [low, high] = audit.audit.scoreInterval ?? [0, 0];
  // "Named instead" = answers naming the competitor and not the brand, the ranked list's namedInstead > 0.
  const insteadNames = audit.competitors.filter((competitor) => competitor.namedInstead > 0).map((competitor) => competitor.name);

  it('the score and its interval, with the score inside the interval', () => {
    expect(low).toBeLessThanOrEqual(score);
    expect(high).toBeGreaterThanOrEqual(score);
    expect(html).toContain(`${score} (95% CI ${low}–${high})`);
    expect(markdown).toContain(`${score} (95% CI ${low}–${high})`);
    expect(mail.text).toContain(`Score: ${score}/100 (risk: ${audit.audit.risk}, 95% CI ${low}–${high})`);
    expect(cli).toContain(`Score: ${score}/100 (95% interval ${low}-${high})`);
    expect(mcp.verdict).toMatchObject({ score, scoreInterval: [low, high] });
  });

  it('the competitors named instead: the same names in the same order, and nobody with 0 under that heading', () => {
    expect(insteadNames).toEqual(['Salesforce', 'Zoho CRM', 'Pipedrive']);
    expect(mail.text).toContain(`Competitors named instead (in answers without HubSpot): ${insteadNames.join(', ')}`);
    expect(mcp.competitorsNamedInstead?.map((competitor) => competitor.name)).toEqual(insteadNames);
    const cliList = cli.slice(cli.indexOf('Named instead of HubSpot:'), cli.indexOf('Buyer questions'));
    expect([...cliList.matchAll(/\d+\. ([^:]+):/gu)].map((match) => match[1])).toEqual(insteadNames);
    for (const competitor of audit.competitors.filter((entry) => entry.namedInstead > 0)) {
      expect(html).toMatch(new RegExp(`${competitor.rank} ${competitor.name} ${competitor.namedInstead} ${competitor.mentions} `, 'u'));
      expect(markdown).toContain(`| ${competitor.rank} | ${competitor.name} | ${competitor.namedInstead} | ${competitor.mentions} |`);
      expect(cli).toContain(`${competitor.name}: in ${competitor.namedInstead} answers without HubSpot`);
      expect(mcp.competitorsNamedInstead).toContainEqual({ name: competitor.name, namedInstead: competitor.namedInstead, mentions: competitor.mentions });
    }
    // Copper is watched but never named: it is not a row of zeros in any "named instead" list.
    for (const text of [html.slice(html.indexOf('Competitors named instead')), markdown, mail.text, cli]) expect(text).not.toMatch(/Copper[^\n.]*\b0\b[^\n]*\b0\b/u);
    expect(mail.text).not.toContain('Copper');
  });

  it('share of voice: a brand’s mentions over all brand mentions, the same in the report and its markdown', () => {
    // HubSpot named in 10 answers; competitors mentioned 18 + 5 + 8 + 0 times: 10 / 41 = 24%, Salesforce 18 / 41 = 44%.
    expect(view.summary.shareOfVoice).toBeCloseTo(10 / 41, 3);
    expect(html).toContain('HubSpot’s share of voice: 24% of all brand mentions');
    expect(markdown).toContain('HubSpot’s share of voice: 24%** of all brand mentions');
    expect(html).toMatch(/1 Salesforce 8 18 44% /u);
    expect(markdown).toContain('| 1 | Salesforce | 8 | 18 | 44% |');
    // The chart is titled by what it plots: the mention rate (answers naming it over all answers), not share of voice.
    expect(html).toContain('Mention rate: share of the 18 answers naming HubSpot and each top competitor');
    expect(html).not.toMatch(/<title[^>]*>Share of voice/u);
  });

  it('the mention rate and per-provider scores agree between the report, the markdown and the CLI', () => {
    const rate = Math.round((audit.audit.mentionRate ?? 0) * 100);
    expect(html).toContain(`${rate}%`);
    expect(markdown).toContain(`${rate}%`);
    expect(cli).toContain(`Mention rate: ${rate}%`);
    for (const finding of audit.providerFindings) {
      expect(html).toContain(`${finding.score} (95% CI ${finding.scoreInterval[0]}–${finding.scoreInterval[1]})`);
      expect(markdown).toContain(`${finding.score} (95% CI ${finding.scoreInterval[0]}–${finding.scoreInterval[1]})`);
      expect(cli).toContain(`${finding.provider} (${finding.model}): score ${finding.score}`);
    }
  });
});
