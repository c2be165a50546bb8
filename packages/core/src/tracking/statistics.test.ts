import { describe, expect, it } from 'vitest';
import { detectChanges, MIN_EFFECT, normalCdf, twoProportionTest, type EarlierRun } from './statistics.js';
import type { StoredPoint, WatchChange } from './types.js';

function point(runId: string, rates: Record<string, [number, number]>, competitors: Array<[string, number]> = []): StoredPoint {
  let named = 0;
  let answers = 0;
  const providers: StoredPoint['providers'] = {};
  for (const [provider, [hits, total]] of Object.entries(rates)) {
    providers[provider as 'openai'] = { model: 'm', mentionRate: hits / total, low: 0, high: 1, answers: total, named: hits, failed: 0, rank: null };
    named += hits;
    answers += total;
  }
  return {
    runId,
    at: `2026-11-${runId.padStart(2, '0')}T00:00:00.000Z`,
    mode: 'demo',
    providers,
    overall: { mentionRate: named / answers, low: 0, high: 1, answers, named },
    shareOfVoice: null,
    topCompetitors: [],
    costUsd: 0,
    competitors: competitors.map(([name, mentions]) => ({ name, mentions })),
  };
}

const earlierRuns = (points: StoredPoint[], changes: WatchChange[][] = []): EarlierRun[] =>
  points.map((entry, index) => ({ runId: entry.runId, point: entry, changes: changes[index] ?? [] })).reverse();

describe('the two-proportion test', () => {
  it('matches the normal distribution and textbook values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-2.5758)).toBeCloseTo(0.005, 4);
    // 45/100 vs 60/100: pooled 0.525, SE = sqrt(0.525 × 0.475 × 0.02) = 0.07062, z = 0.15 / SE = 2.1240, p = 0.0337.
    const test = twoProportionTest(45, 100, 60, 100);
    expect(test.z).toBeCloseTo(2.124, 3);
    expect(test.pValue).toBeCloseTo(0.0337, 3);
    expect(twoProportionTest(0, 10, 0, 10).pValue).toBe(1);
    expect(twoProportionTest(3, 0, 1, 10).pValue).toBe(1);
  });
});

describe('change detection', () => {
  it('reports nothing on the first run, and nothing for a wiggle', () => {
    expect(detectChanges({ runId: '1', at: 'x', point: point('1', { openai: [15, 30] }) }, [])).toEqual([]);
    const before = earlierRuns([point('1', { openai: [15, 30] }), point('2', { openai: [16, 30] })]);
    expect(detectChanges({ runId: '3', at: 'x', point: point('3', { openai: [12, 30] }) }, before)).toEqual([]);
  });

  it('reports a real fall per provider and overall, with both intervals, the effect and the p-value', () => {
    const before = earlierRuns([
      point('1', { openai: [20, 30], gemini: [18, 30] }),
      point('2', { openai: [21, 30], gemini: [19, 30] }),
      point('3', { openai: [19, 30], gemini: [18, 30] }),
    ]);
    const changes = detectChanges({ runId: '4', at: '2026-11-04T00:00:00.000Z', point: point('4', { openai: [3, 30], gemini: [18, 30] }) }, before);
    const openai = changes.find((change) => change.provider === 'openai');
    expect(openai).toMatchObject({ kind: 'mention_rate', direction: 'down', from: 0.6667, to: 0.1, baselineAnswers: 90, latestAnswers: 30, baselineRuns: 3 });
    expect(openai?.pValue).toBeLessThan(openai?.threshold ?? 0);
    expect(openai?.effect).toBeCloseTo(-0.5667, 3);
    expect(openai?.fromInterval[0]).toBeGreaterThan(openai?.toInterval[1] ?? 1);
    expect(changes.some((change) => change.provider === 'gemini')).toBe(false);
    expect(changes.find((change) => change.provider === 'overall')?.direction).toBe('down');
  });

  it('calls a fall to zero dropped_out, and does not repeat a change on the next run', () => {
    const history = [point('1', { openai: [20, 30] }), point('2', { openai: [21, 30] })];
    const latest = point('3', { openai: [0, 30] });
    const changes = detectChanges({ runId: '3', at: 'x', point: latest }, earlierRuns(history));
    expect(changes.find((change) => change.provider === 'openai')?.kind).toBe('dropped_out');
    // Run 4 stays at the new level: its baseline starts at run 3, so nothing new is reported.
    const next = detectChanges({ runId: '4', at: 'y', point: point('4', { openai: [1, 30] }) }, earlierRuns([...history, latest], [[], [], changes]));
    expect(next).toEqual([]);
  });

  it('does not report the return of a one-run outlier to the old level as a second change', () => {
    const level = [point('1', { openai: [15, 30] }), point('2', { openai: [16, 30] }), point('3', { openai: [15, 30] })];
    const outlier = point('4', { openai: [30, 30] });
    const first = detectChanges({ runId: '4', at: 'x', point: outlier }, earlierRuns(level));
    expect(first.some((change) => change.provider === 'openai')).toBe(true);
    const back = detectChanges({ runId: '5', at: 'y', point: point('5', { openai: [15, 30] }) }, earlierRuns([...level, outlier], [[], [], [], first]));
    expect(back).toEqual([]);
  });

  it('needs a move of at least MIN_EFFECT however many answers there are', () => {
    const before = earlierRuns([point('1', { openai: [5000, 10000] })]);
    const changes = detectChanges({ runId: '2', at: 'x', point: point('2', { openai: [5600, 10000] }) }, before);
    expect(0.06).toBeLessThan(MIN_EFFECT);
    expect(changes).toEqual([]);
  });

  it('reports a competitor that enters the answers, and one that leaves them', () => {
    const before = earlierRuns([
      point('1', { openai: [15, 30], gemini: [15, 30] }, [['HubSpot', 40], ['Close', 30]]),
      point('2', { openai: [15, 30], gemini: [15, 30] }, [['HubSpot', 41], ['Close', 29]]),
    ]);
    const changes = detectChanges({ runId: '3', at: 'x', point: point('3', { openai: [15, 30], gemini: [15, 30] }, [['HubSpot', 40], ['Attio', 30]]) }, before);
    expect(changes.map((change) => [change.kind, change.competitor])).toEqual([
      ['new_competitor', 'Attio'],
      ['dropped_out', 'Close'],
    ]);
    expect(changes.every((change) => change.provider === 'overall')).toBe(true);
  });
});
