import { describe, expect, it } from 'vitest';
import { readBlocks } from './answer-blocks.js';
import { readCandidates } from './candidates.js';
import { explainExtraction } from './extract-brands.js';
import { committedWeights } from './model.js';
import { secondLookFeatures } from './second-look.js';

const ANSWER = ['Good picks:', '', '1. **Acme Desk** – sturdy', '2. **Globex Lift** – quiet', '3. **Zorblax** – cheap', '', 'Zorblax also sells mats.'].join('\n');

function looks(probabilities: (surface: string) => number): Array<{ surface: string; slot: string; features: string[] }> {
  const candidates = readCandidates(readBlocks(ANSWER));
  return secondLookFeatures(candidates, candidates.map((candidate) => probabilities(candidate.surface)), false).map((features, index) => ({
    surface: candidates[index]?.surface ?? '',
    slot: candidates[index]?.slot ?? '',
    features: [...features].sort(),
  }));
}

describe('the second look', () => {
  it("describes each candidate by what the first look made of its siblings, its other mentions and the answer's slots", () => {
    const scored = looks((surface) => (surface === 'Zorblax' ? 0.3 : surface.includes(' ') ? 0.9 : 0.05));
    const head = scored.find((candidate) => candidate.surface === 'Zorblax' && candidate.slot !== 'prose');
    const prose = scored.find((candidate) => candidate.surface === 'Zorblax' && candidate.slot === 'prose');
    // two sibling heads, both scored as brands (0.9): mean in the top bin, all of them brands
    expect(head?.features).toEqual(expect.arrayContaining(['look:siblings_2', 'look:siblings_mean_5', 'look:siblings_brands_4', 'look:own_3', 'look:markdown']));
    // the same name again in prose, scored 0.3 there
    expect(head?.features).toContain('look:same_name_best_1');
    // prose has no siblings; two of the three heads scored as brands
    expect(prose?.features).toEqual(expect.arrayContaining(['look:siblings_0', 'look:slots_brands_3', 'look:slot_prose']));
    expect(prose?.features.some((name) => name.startsWith('look:siblings_mean'))).toBe(false);
  });

  it('describes a name in running text by what the first look made of the other names of its enumeration', () => {
    const text = 'Shops stock Acme, Globex and Initech boards. Zorblax sells mats.';
    const candidates = readCandidates(readBlocks(text));
    const score: Record<string, number> = { Acme: 0.9, Globex: 0.1, Initech: 0.7, Zorblax: 0.3 };
    const features = secondLookFeatures(candidates, candidates.map((candidate) => score[candidate.surface] ?? 0), false);
    const of = (surface: string): string[] => features[candidates.findIndex((candidate) => candidate.surface === surface)] ?? [];
    // Globex beside Acme (0.9) and Initech (0.7): two others, mean 0.8 (bin 5), both brands
    expect(of('Globex')).toEqual(expect.arrayContaining(['look:enumeration_2', 'look:enumeration_mean_5', 'look:enumeration_brands_4']));
    // Initech beside Acme (0.9) and Globex (0.1): mean 0.5 (bin 3), one of two a brand
    expect(of('Initech')).toEqual(expect.arrayContaining(['look:enumeration_2', 'look:enumeration_mean_3', 'look:enumeration_brands_2']));
    // the next sentence's name stands alone
    expect(of('Zorblax')).toContain('look:enumeration_none');
    expect(of('Zorblax').some((name) => name.startsWith('look:enumeration_mean'))).toBe(false);
  });

  it('is fitted and committed, and shows in --explain as one driver', () => {
    expect(committedWeights().secondLook?.length).toBeGreaterThan(0);
    const { candidates } = explainExtraction(ANSWER);
    expect(candidates.some((candidate) => candidate.drivers.some(([name]) => name === 'second_look'))).toBe(true);
  });
});
