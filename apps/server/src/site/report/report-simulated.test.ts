// A real audit, measured through the real SDK adapters against the provider simulator, rendered end to
// end: the view reads the field names the audit actually produces, not only the hand-built fixture's.
import { createProviderLineup, runAudit, type ProviderId } from '@visibility/core';
import { startSimulator, type RunningSimulator } from '@visibility/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toReportView } from './report-model.js';
import { renderReportHtml } from './report-view.js';
import { renderReportMarkdown } from './report-markdown.js';
import { markupProblems, svgs } from './test-support/markup.js';

let simulator: RunningSimulator;

beforeAll(async () => {
  simulator = await startSimulator({ seed: 7, latencyMs: 0 });
});

afterAll(async () => {
  await simulator.close();
});

describe('a simulated audit, rendered', () => {
  it('renders every provider with its demo model, its interval and the competitors named instead', async () => {
    const models: Record<ProviderId, string> = { openai: 'demo-gpt-4.1-mini', anthropic: 'demo-claude-sonnet-4-5', gemini: 'demo-gemini-2.5-flash' };
    const lineup = createProviderLineup(
      Object.fromEntries((['openai', 'anthropic', 'gemini'] as const).map((id) => [id, { apiKey: 'demo-key', baseURL: simulator.baseUrls[id], model: models[id] }])),
      // a generous timeout: no test here is about timeouts, and a loaded CI machine (the refit test) slowed a call past 5 s
      { timeoutMs: 15_000, maxRetries: 0, maxConcurrentPerProvider: 4, retry: { sleep: async () => {} } },
    );
    const report = await runAudit(
      { mode: 'demo', lineup },
      { brand: 'HubSpot', website: 'https://www.hubspot.com', category: 'CRM software', competitors: 'Pipedrive, Copper', crawl: undefined },
    );
    const response = JSON.parse(JSON.stringify({ id: 'a1', createdAt: '2025-05-01T00:00:00.000Z', ...report })) as Record<string, unknown>;
    const view = toReportView({ auditId: 'a1', createdAt: '2025-05-01T00:00:00.000Z', response });

    expect(view.isDemo).toBe(true);
    expect(view.summary.measured).toBe(true);
    expect(view.summary.scoreInterval).not.toBeNull();
    expect(view.findings).toHaveLength(3);
    for (const finding of view.findings) {
      expect(finding.model.startsWith('demo-')).toBe(true);
      expect(finding.scoreInterval).not.toBeNull();
      expect(finding.brandMentions).toBe(Math.round((finding.mentionRate ?? 0) * (finding.successfulSamples ?? 0)));
    }
    expect(view.competitors.length).toBeGreaterThan(0);
    expect(view.shareOfVoice?.entries[0]).toMatchObject({ name: 'HubSpot', isBrand: true });
    expect(view.buyerQuestions.length).toBeGreaterThanOrEqual(6);
    expect(view.nextSteps.length).toBeGreaterThan(0);

    const html = renderReportHtml(view, { mapAction: { formAction: '/api/audit/a1/fanout-map' } });
    expect(markupProblems(html)).toEqual([]);
    expect(svgs(html)).toHaveLength(2);
    for (const svg of svgs(html)) expect(markupProblems(svg, 'xml')).toEqual([]);
    expect(html).toContain('Demo lineup: simulated answers, not real model output');
    expect(html).toMatch(/\d+ \(95% CI \d+–\d+\)/u);
    expect(html).toContain('Ask the buyer questions to every provider');
    const markdown = renderReportMarkdown(view);
    expect(markdown).toContain('| openai | demo-gpt-4.1-mini');
  });
});
