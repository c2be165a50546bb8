import { describe, expect, it } from 'vitest';
import { checkVerdict, computeCheckScore, listPoints } from './check-score.js';

const withList = { blindListAsked: true } as const;

describe('computeCheckScore', () => {
  it('gives 100 to a known brand listed first and recommended', () => {
    expect(computeCheckScore({ ...withList, knows: true, listPosition: 1, recommendVerdict: 'yes' })).toBe(100);
  });

  it('gives 0 to an unknown brand, not listed, not recommended', () => {
    expect(computeCheckScore({ ...withList, knows: false, listPosition: null, recommendVerdict: 'no' })).toBe(0);
  });

  it('falls linearly from 40 points at position 1 to 12 at position 8, and 0 when absent', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((position) => listPoints(position))).toEqual([40, 36, 32, 28, 24, 20, 16, 12]);
    expect(listPoints(null)).toBe(0);
    expect(listPoints(9)).toBe(0);
    expect(listPoints(0)).toBe(0);
  });

  it('adds recognition 30, the list points and the recommendation (yes 30, unsure 10, no 0)', () => {
    expect(computeCheckScore({ ...withList, knows: true, listPosition: 8, recommendVerdict: 'yes' })).toBe(72);
    expect(computeCheckScore({ ...withList, knows: true, listPosition: 5, recommendVerdict: 'yes' })).toBe(84);
    expect(computeCheckScore({ ...withList, knows: true, listPosition: 3, recommendVerdict: 'unsure' })).toBe(72);
    expect(computeCheckScore({ ...withList, knows: true, listPosition: null, recommendVerdict: 'yes' })).toBe(60);
    expect(computeCheckScore({ ...withList, knows: true, listPosition: null, recommendVerdict: 'unsure' })).toBe(40);
    expect(computeCheckScore({ ...withList, knows: true, listPosition: null, recommendVerdict: 'no' })).toBe(30);
    expect(computeCheckScore({ ...withList, knows: true, listPosition: 1, recommendVerdict: 'no' })).toBe(70);
  });

  it('counts a "yes" about a brand the model does not know as unsure', () => {
    expect(computeCheckScore({ ...withList, knows: false, listPosition: null, recommendVerdict: 'yes' })).toBe(10);
    expect(computeCheckScore({ ...withList, knows: false, listPosition: 1, recommendVerdict: 'yes' })).toBe(50);
  });

  it('reflects recognition only without a blind list, below ai_approved', () => {
    expect(computeCheckScore({ blindListAsked: false, knows: true, listPosition: null, recommendVerdict: 'yes' })).toBe(60);
    expect(computeCheckScore({ blindListAsked: false, knows: false, listPosition: null, recommendVerdict: 'yes' })).toBe(0);
    expect(checkVerdict(60)).toBe('barely_visible');
  });

  it('always returns an integer from 0 to 100', () => {
    for (const knows of [true, false]) {
      for (const listPosition of [null, 1, 2, 3, 4, 5, 6, 7, 8]) {
        for (const recommendVerdict of ['yes', 'no', 'unsure'] as const) {
          for (const blindListAsked of [true, false]) {
            const score = computeCheckScore({ knows, listPosition, recommendVerdict, blindListAsked });
            expect(Number.isInteger(score)).toBe(true);
            expect(score).toBeGreaterThanOrEqual(0);
            expect(score).toBeLessThanOrEqual(100);
          }
        }
      }
    }
  });
});

describe('checkVerdict', () => {
  it.each([
    [100, 'ai_approved'],
    [75, 'ai_approved'],
    [74, 'barely_visible'],
    [40, 'barely_visible'],
    [39, 'invisible'],
    [0, 'invisible'],
  ] as const)('puts %i in %s', (score, verdict) => {
    expect(checkVerdict(score)).toBe(verdict);
  });
});
