import { describe, expect, it } from 'vitest';
import type { MapCellRecord, MapJobRecord } from '../store/map-repository.js';
import { buildBuyerQuestionMap } from './grid.js';

const JOB: MapJobRecord = {
  auditId: '00000000-0000-4000-8000-000000000001',
  generation: 3,
  status: 'running',
  mode: 'live',
  brand: 'Pipedrive',
  website: 'https://www.pipedrive.com/',
  competitors: ['Zoho'],
  questions: ['Which CRM?', 'Which cheap CRM?'],
  providers: [
    { provider: 'openai', model: 'gpt-4.1-mini' },
    { provider: 'anthropic', model: 'claude' },
  ],
  chargedEmail: 'owner@pipedrive.test',
  createdAt: '2025-01-01T00:00:00.000Z',
  completedAt: undefined,
  map: undefined,
};

function answered(questionIndex: number, provider: MapCellRecord['provider'], brands: string[], named: boolean, position: number | null): MapCellRecord {
  return {
    auditId: JOB.auditId,
    generation: 3,
    questionIndex,
    provider,
    ok: true,
    model: `${provider}-exact`,
    answer: brands.join(', '),
    brands,
    named,
    position,
    failureKind: null,
    failureMessage: null,
    answeredAt: '2025-01-01T00:00:01.000Z',
  };
}

describe('buildBuyerQuestionMap', () => {
  it('lays the cells out by question and provider, groups competitors like the audit, and summarises', () => {
    const map = buildBuyerQuestionMap(
      JOB,
      [
        answered(0, 'openai', ['Zoho CRM', 'pipedrive.com', 'HubSpot'], true, 2),
        answered(0, 'anthropic', ['Zoho', 'HubSpot'], false, null),
        answered(1, 'openai', ['HubSpot'], false, null),
        { ...answered(1, 'anthropic', [], false, null), ok: false, model: null, answer: null, failureKind: 'timeout', failureMessage: 'the provider did not answer in time' },
      ],
      '2025-01-01T00:01:00.000Z',
    );
    expect(map).toMatchObject({ generation: 3, mode: 'live', measuredAt: '2025-01-01T00:01:00.000Z', startedAt: JOB.createdAt });
    expect(map.rows.map((row) => [row.won, row.namedBy])).toEqual([
      [true, ['openai']],
      [false, []],
    ]);
    // The brand's own domain is the brand, not a competitor.
    expect(map.rows[0]?.cells[0]).toMatchObject({ competitors: ['Zoho CRM', 'HubSpot'], namedInstead: [] });
    expect(map.rows[0]?.cells[1]).toMatchObject({ competitors: ['Zoho', 'HubSpot'], namedInstead: ['Zoho', 'HubSpot'] });
    expect(map.rows[1]?.cells[1]).toMatchObject({ ok: false, failure: { kind: 'timeout', message: 'the provider did not answer in time' } });
    expect(map.summary).toMatchObject({ cells: 4, answeredCells: 3, failedCells: 1, questionsWon: 1, cellsWon: 1, providersAnswered: ['openai', 'anthropic'] });
    // "Zoho CRM" and "Zoho" are one competitor, under the watch list's spelling.
    expect(map.summary.topCompetitors).toEqual([
      { name: 'HubSpot', namedInstead: 2, mentions: 3 },
      { name: 'Zoho', namedInstead: 1, mentions: 2 },
    ]);
    expect(map.providerSummaries[1]).toMatchObject({ provider: 'anthropic', answered: 1, failed: 1, questionsWon: 0, winRate: 0, averagePosition: null });
  });

  it('shows a cell missing from the store as a failure, never as an answer', () => {
    const map = buildBuyerQuestionMap(JOB, [], '2025-01-01T00:01:00.000Z');
    expect(map.rows[0]?.cells[0]).toMatchObject({ ok: false, answer: null, failure: { kind: 'unexpected' } });
    expect(map.summary).toMatchObject({ answeredCells: 0, failedCells: 4, questionsWon: 0, providersAnswered: [] });
  });
});
