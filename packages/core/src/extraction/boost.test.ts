import { describe, expect, it } from 'vitest';
import { fitTrees, treesScore, treesScoreOfNames, type BoostOptions } from './boost.js';
import type { Features } from './features.js';

const OPTIONS: BoostOptions = { trees: 20, depth: 2, rate: 0.5, lambda: 1, minChild: 0.5, minRows: 1 };

function rows(): Array<{ features: Features; label: 0 | 1 }> {
  // the label is "exactly one of a and b": no single weight can say that, a tree of depth 2 can
  // (a alone is the commonest, so the first split already gains something)
  const out: Array<{ features: Features; label: 0 | 1 }> = [];
  for (let copy = 0; copy < 10; copy += 1) {
    for (const [a, b] of [[0, 0], [0, 1], [1, 0], [1, 0], [1, 1]] as const) {
      const features: Features = new Map([['bias', 1]]);
      if (a === 1) features.set('a', 1);
      if (b === 1) features.set('b', 1);
      out.push({ features, label: a !== b ? 1 : 0 });
    }
  }
  return out;
}

describe('boosted trees', () => {
  it('learn a combination of features no single weight can', () => {
    const data = rows();
    const trees = fitTrees(data, new Float64Array(data.length), OPTIONS);
    const score = (features: Array<[string, number]>): number => treesScore(new Map(features), 'S|', trees);
    expect(score([['a', 1]])).toBeGreaterThan(1);
    expect(score([['b', 1]])).toBeGreaterThan(1);
    expect(score([['a', 1], ['b', 1]])).toBeLessThan(-1);
    expect(score([])).toBeLessThan(-1);
  });

  it('fit the same trees from the same rows', () => {
    const data = rows();
    expect(fitTrees(data, new Float64Array(data.length), OPTIONS)).toEqual(fitTrees(data, new Float64Array(data.length), OPTIONS));
  });

  it('read a slot-only split only for candidates in a name slot', () => {
    const trees = [{ split: ['S|formatted'], leaves: [2, -1] }];
    expect(treesScore(new Map([['formatted', 1]]), 'S|', trees)).toBe(2);
    expect(treesScore(new Map([['formatted', 1]]), 'P|', trees)).toBe(-1);
    expect(treesScore(new Map([['bias', 1]]), 'S|', trees)).toBe(-1);
  });

  it('start from the margins they are given and fit only what is left', () => {
    const data = rows();
    const perfect = Float64Array.from(data, (row) => (row.label === 1 ? 20 : -20));
    const trees = fitTrees(data, perfect, OPTIONS);
    for (const tree of trees) for (const leaf of tree.leaves) expect(Math.abs(leaf)).toBeLessThan(1e-3);
  });

  it('score a candidate given by feature names as by its features, empty splits included', () => {
    const data = rows();
    const trees = [...fitTrees(data, new Float64Array(data.length), OPTIONS), { split: ['', 'a', ''], leaves: [5, 6, 7, 8] }];
    for (const names of [[], ['a'], ['b'], ['a', 'b']]) {
      expect(treesScoreOfNames(names, trees)).toBe(treesScore(new Map(names.map((name) => [name, 1])), 'S|', trees));
    }
    // the hand-made tree: the root asks nothing (no), its "no" child asks nothing (no): leaf 3 = 8
    expect(treesScoreOfNames(['a'], [{ split: ['', 'a', ''], leaves: [5, 6, 7, 8] }])).toBe(8);
  });
});
