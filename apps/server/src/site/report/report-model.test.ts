import { describe, expect, it } from 'vitest';
import { toReportView } from './report-model.js';
import { AUDIT_ID, auditResponse, buyerQuestionMap, CREATED_AT, oldResponse } from './test-support/fixture.js';

const base = { auditId: AUDIT_ID, createdAt: CREATED_AT };

describe('toReportView', () => {
  it('reads the headline, findings, failed providers and competitors of a stored response', () => {
    const view = toReportView({ ...base, response: auditResponse() as unknown as Record<string, unknown> });
    expect(view).toMatchObject({ brand: 'HubSpot', website: 'https://www.hubspot.com', category: 'CRM software', mode: 'live', isDemo: false });
    expect(view.summary).toMatchObject({ measured: true, score: 46, scoreInterval: [35, 58], risk: 'medium', confidence: 'medium', degraded: false });
    expect(view.findings.map((finding) => [finding.provider, finding.model, finding.score, finding.brandMentions])).toEqual([
      ['openai', 'gpt-4.1-mini-2025-04-14', 62, 7],
      ['gemini', 'gemini-2.5-flash', 30, 3],
    ]);
    expect(view.failedProviders).toEqual([
      { provider: 'anthropic', model: 'claude-sonnet-4-5', demo: false, reason: 'The provider was overloaded and did not answer after retries.', kind: 'overloaded', failedSamples: 9 },
    ]);
    // Share of voice: the brand's answers (7 + 3 of 18), then the ranked competitors that were named.
    expect(view.shareOfVoice).toEqual({
      totalAnswers: 18,
      entries: [
        { name: 'HubSpot', isBrand: true, mentions: 10, namedInstead: null },
        { name: 'Salesforce', isBrand: false, mentions: 18, namedInstead: 8 },
        { name: 'Zoho CRM', isBrand: false, mentions: 5, namedInstead: 4 },
        { name: 'Pipedrive', isBrand: false, mentions: 8, namedInstead: 2 },
      ],
    });
    expect(view.mapState).toEqual({ kind: 'not_started' });
    expect(view.buyerQuestions).toHaveLength(3);
    expect(view.benchmark).toEqual({ audits: 12, averageScore: 41.5, medianScore: 39 });
  });

  it('labels a map column with the model that answered (one label per model across the report)', () => {
    const map = buyerQuestionMap();
    // The map stores the id requested; its cells the dated snapshot that answered, as the findings do.
    map.providers = map.providers.map((entry) => (entry.provider === 'openai' ? { ...entry, model: 'gpt-4.1-mini' } : entry));
    const view = toReportView({ ...base, response: auditResponse() as unknown as Record<string, unknown>, map });
    expect(view.map?.providers.find((entry) => entry.provider === 'openai')?.model).toBe('gpt-4.1-mini-2025-04-14');
    expect(view.findings.find((finding) => finding.provider === 'openai')?.model).toBe('gpt-4.1-mini-2025-04-14');
  });

  it('reads the map grid in the map provider order, and the running state', () => {
    const response = auditResponse() as unknown as Record<string, unknown>;
    const view = toReportView({ ...base, response, map: buyerQuestionMap() });
    expect(view.mapState).toEqual({ kind: 'ready' });
    expect(view.map?.providers.map((provider) => provider.provider)).toEqual(['openai', 'gemini', 'anthropic']);
    expect(view.map?.rows[1]?.cells.map((cell) => [cell?.named, cell?.position, cell?.namedInstead, cell?.failureReason])).toEqual([
      [true, 3, [], null],
      [false, null, ['Salesforce', 'Zoho CRM'], null],
      [false, null, [], 'The provider was overloaded.'],
    ]);
    expect(view.map).toMatchObject({ questions: 3, questionsWon: 2 });

    const running = toReportView({ ...base, response, mapStatus: { status: 'running', completed: 4, total: 9 } });
    expect(running.mapState).toEqual({ kind: 'running', completed: 4, total: 9 });
    const remeasuring = toReportView({ ...base, response, map: buyerQuestionMap(), mapStatus: { status: 'running', completed: 1, total: 9 } });
    expect(remeasuring.remeasuring).toEqual({ completed: 1, total: 9 });
  });

  it('tells a demo lineup from its mode, or from demo- model ids when an old response has no mode', () => {
    const demo = auditResponse();
    demo.mode = 'demo';
    expect(toReportView({ ...base, response: demo as unknown as Record<string, unknown> }).isDemo).toBe(true);
    const noMode = auditResponse() as unknown as Record<string, unknown>;
    delete noMode['mode'];
    (noMode['providerFindings'] as Array<{ model: string }>)[0]!.model = 'demo-gpt-4.1-mini';
    expect(toReportView({ ...base, response: noMode }).isDemo).toBe(true);
  });

  it('reads an old response with only the contract fields without throwing', () => {
    const view = toReportView({ ...base, response: oldResponse() });
    expect(view.summary).toMatchObject({ measured: true, score: 55, scoreInterval: null, confidence: null, degraded: false });
    expect(view.failedProviders).toEqual([]);
    expect(view.findings[0]).toMatchObject({ provider: 'openai', model: '', score: 61, scoreInterval: null, mentionRate: null, brandMentions: null });
    expect(view.competitors).toEqual([{ name: 'Asana', namedInstead: 0, mentions: 7, rank: 1, watched: false, shareOfVoice: null }]);
    expect(view.shareOfVoice).toBeNull();
    expect(view.mapState).toEqual({ kind: 'no_fanout', reason: null });
  });

  it('never throws on malformed or empty responses', () => {
    for (const response of [{}, { audit: null, providerFindings: 'x', providerErrors: [null, 3], competitors: {} }, { audit: { score: 'high', scoreInterval: [1] } }]) {
      const view = toReportView({ ...base, response: response as Record<string, unknown> });
      expect(view.summary.measured).toBe(false);
      expect(view.summary.score).toBeNull();
    }
  });

  it('reports an unmeasured audit without a score, even though the stored score is 0', () => {
    const response = auditResponse();
    response.audit = { ...response.audit, measured: false, score: 0, risk: 'unknown', scoreInterval: null, notMeasuredReason: 'Every provider call failed.' };
    response.providerFindings = [];
    const view = toReportView({ ...base, response: response as unknown as Record<string, unknown> });
    expect(view.summary).toMatchObject({ measured: false, score: null, risk: 'unknown', notMeasuredReason: 'Every provider call failed.' });
    expect(view.shareOfVoice).toBeNull();
  });
});
