import { describe, expect, it } from 'vitest';
import { computeCategoryBenchmark } from './benchmark.js';
import { confidenceLevel, median, positionWeight, riskBand, scoreFromMentions, wilsonInterval } from './statistics.js';

describe('wilsonInterval', () => {
  // Published values: Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('matches the published interval for %i of %i', (successes, trials, low, high) => {
    const [computedLow, computedHigh] = wilsonInterval(successes, trials);
    expect(computedLow).toBeCloseTo(low, 4);
    expect(computedHigh).toBeCloseTo(high, 4);
  });

  it.each([
    [7, 9, 0.4526, 0.9368],
    [5, 10, 0.2366, 0.7634],
    [0, 10, 0, 0.2775],
    [10, 10, 0.7225, 1],
  ])('gives %i of %i as [%f, %f]', (successes, trials, low, high) => {
    const [computedLow, computedHigh] = wilsonInterval(successes, trials);
    expect(computedLow).toBeCloseTo(low, 4);
    expect(computedHigh).toBeCloseTo(high, 4);
  });

  it('keeps exact bounds at 0 and n successes and knows nothing without trials', () => {
    expect(wilsonInterval(0, 54)[0]).toBe(0);
    expect(wilsonInterval(54, 54)[1]).toBe(1);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });

  it('narrows as samples grow at the same rate', () => {
    const width = (successes: number, trials: number): number => {
      const [low, high] = wilsonInterval(successes, trials);
      return high - low;
    };
    expect(width(27, 54)).toBeLessThan(width(9, 18));
    expect(width(9, 18)).toBeLessThan(width(3, 6));
  });

  it('rejects impossible counts', () => {
    expect(() => wilsonInterval(4, 3)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 3)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 3)).toThrow(RangeError);
  });
});

describe('positionWeight and scoreFromMentions', () => {
  it('weighs 1 at the first place, 0.1 less per place, at least 0.5', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 12].map(positionWeight)).toEqual([1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.5]);
    expect(positionWeight(null)).toBe(0.5);
  });

  it('scores 100 × mention rate × mean position weight, with the Wilson interval of that mean', () => {
    // 7 of 9 named, all first: mean 0.778 → 78; Wilson 45.3–93.7 → 45–94 (the mention rate's own interval).
    expect(scoreFromMentions(Array(7).fill(1), 9)).toEqual({ score: 78, interval: [45, 94] });
    // 7 of 9 named, all second: mean 0.7 → 70; Wilson(0.7, 9) 38.2–89.8 → 38–90.
    expect(scoreFromMentions(Array(7).fill(0.9), 9)).toEqual({ score: 70, interval: [38, 90] });
    expect(scoreFromMentions([1, 1, 1], 3).score).toBe(100);
  });

  it('puts the score strictly inside its interval, not at its top edge, when every answer names the brand below first place', () => {
    // The Pipedrive case: 72 of 72 answers name it, mean weight 0.85. The old interval (rate interval × weight) was 80–85.
    const { score, interval } = scoreFromMentions(Array(72).fill(0.85), 72);
    expect(score).toBe(85);
    expect(interval[0]).toBeLessThan(score);
    expect(interval[1]).toBeGreaterThan(score);
  });

  it('keeps every score inside its interval (many counts and weights)', () => {
    for (let trials = 1; trials <= 60; trials += 7) {
      for (let named = 0; named <= trials; named += 1) {
        for (const weight of [0.5, 0.7, 0.9, 1]) {
          const { score, interval } = scoreFromMentions(Array(named).fill(weight), trials);
          expect(interval[0], `${named}/${trials} × ${weight}`).toBeLessThanOrEqual(score);
          expect(interval[1], `${named}/${trials} × ${weight}`).toBeGreaterThanOrEqual(score);
          if (score > 0 && score < 100) expect(interval[1] - interval[0]).toBeGreaterThan(0);
        }
      }
    }
  });

  it('scores 0 when never named, with an upper bound from the mention rate alone', () => {
    expect(scoreFromMentions([], 10)).toEqual({ score: 0, interval: [0, 28] });
  });
});

describe('riskBand', () => {
  it.each([
    [100, 'low'],
    [70, 'low'],
    [69, 'medium'],
    [40, 'medium'],
    [39, 'high'],
    [15, 'high'],
    [14, 'critical'],
    [0, 'critical'],
  ] as const)('puts score %i in the %s band', (score, band) => {
    expect(riskBand(score)).toBe(band);
  });

  it('is unknown when nothing was measured, whatever the score', () => {
    expect(riskBand(0, false)).toBe('unknown');
  });
});

describe('confidenceLevel', () => {
  it('is high with many answers and a narrow interval', () => {
    expect(confidenceLevel(54, wilsonInterval(27, 54), false)).toBe('high');
  });

  it('is never high in degraded mode', () => {
    expect(confidenceLevel(54, wilsonInterval(27, 54), true)).toBe('medium');
  });

  it('is medium with a mid-sized sample, low with few answers or none', () => {
    expect(confidenceLevel(18, wilsonInterval(9, 18), false)).toBe('medium');
    expect(confidenceLevel(35, wilsonInterval(0, 35), false)).toBe('medium');
    expect(confidenceLevel(36, wilsonInterval(0, 36), false)).toBe('high');
    expect(confidenceLevel(9, wilsonInterval(7, 9), false)).toBe('low');
    expect(confidenceLevel(0, null, false)).toBe('low');
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe('computeCategoryBenchmark', () => {
  it('averages and takes the median of the other audits', () => {
    expect(computeCategoryBenchmark([80, 20, 50, 41])).toEqual({ audits: 4, averageScore: 47.8, medianScore: 45.5 });
    expect(computeCategoryBenchmark([33])).toEqual({ audits: 1, averageScore: 33, medianScore: 33 });
  });

  it('is null when there are no other audits, or no usable scores', () => {
    expect(computeCategoryBenchmark([])).toBeNull();
    expect(computeCategoryBenchmark([Number.NaN, -1, 101])).toBeNull();
  });
});
