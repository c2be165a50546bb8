import { describe, expect, it } from 'vitest';
import { computeRepeatMetrics, type RepeatRun } from './repeat-metrics.js';

const ok = (...brands: string[]): RepeatRun => ({ ok: true, brands, answer: brands.join(', ') });
const failed: RepeatRun = { ok: false, brands: [], answer: null, error: 'rate limited' };

describe('computeRepeatMetrics', () => {
  it('computes pairs, same-set pairs and the mean Jaccard over successful runs', () => {
    const metrics = computeRepeatMetrics([ok('HubSpot', 'Pipedrive'), ok('Pipedrive', 'HubSpot'), ok('HubSpot', 'Zoho CRM')]);
    expect(metrics.okRuns).toBe(3);
    expect(metrics.comparable).toBe(true);
    expect(metrics.pairs).toBe(3);
    expect(metrics.sameSetPairs).toBe(1);
    // (1 + 1/3 + 1/3) / 3
    expect(metrics.jaccardMean).toBeCloseTo(0.556, 3);
    expect(metrics.union).toBe(3);
    expect(metrics.inAll).toEqual(['HubSpot']);
    expect(metrics.once).toEqual(['Zoho CRM']);
  });

  it('leaves failed runs out of pairs and inAll but keeps perRun aligned', () => {
    const metrics = computeRepeatMetrics([ok('Notion'), failed, ok('Notion', 'Obsidian'), failed, ok('Notion')]);
    expect(metrics.okRuns).toBe(3);
    expect(metrics.pairs).toBe(3);
    expect(metrics.inAll).toEqual(['Notion']);
    expect(metrics.once).toEqual(['Obsidian']);
    expect(metrics.perRun).toEqual([['Notion'], [], ['Notion', 'Obsidian'], [], ['Notion']]);
  });

  it('has no pairs and a null jaccardMean with fewer than two successful runs', () => {
    const one = computeRepeatMetrics([ok('Asana'), failed, failed]);
    expect(one).toMatchObject({ okRuns: 1, comparable: false, pairs: 0, sameSetPairs: 0, jaccardMean: null, union: 1, inAll: ['Asana'], once: ['Asana'] });
    const none = computeRepeatMetrics([failed, failed]);
    expect(none).toMatchObject({ okRuns: 0, comparable: false, pairs: 0, jaccardMean: null, union: 0, inAll: [], once: [] });
  });

  it('compares brands case- and accent-insensitively and reports the first form seen', () => {
    const metrics = computeRepeatMetrics([ok('Mercado Pago'), ok('mercado pago'), ok('MERCADO PAGO', 'Clip')]);
    expect(metrics.union).toBe(2);
    expect(metrics.inAll).toEqual(['Mercado Pago']);
    expect(metrics.sameSetPairs).toBe(1);
  });

  it('counts two runs that named nothing as the same set with full overlap', () => {
    const metrics = computeRepeatMetrics([ok(), ok()]);
    expect(metrics.sameSetPairs).toBe(1);
    expect(metrics.jaccardMean).toBe(1);
    expect(metrics.inAll).toEqual([]);
  });
});
