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

  it('is fitted and committed, and shows in --explain as one driver', () => {
    expect(committedWeights().secondLook?.length).toBeGreaterThan(0);
    const { candidates } = explainExtraction(ANSWER);
    expect(candidates.some((candidate) => candidate.drivers.some(([name]) => name === 'second_look'))).toBe(true);
  });
});
