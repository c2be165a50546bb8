// The second look: once every candidate of an answer has its score, each one is looked at again
// beside the others. A name among list heads that all scored as brands is likelier one; a heading
// whose sibling headings all read as labels likelier a label. These features describe what the
// model made of the rest of the answer (binned, so small trees can split on them), and a few boosted
// trees (boost.ts) fitted on out-of-fold scores add what they say to each candidate's log-odds.

import type { Candidate } from './candidates.js';
import { compactBrandKey } from './brand-key.js';
import { enumerated } from './features.js';

/** Probability cuts the neighbours' scores are binned at. */
const SCORE_CUTS = [0.2, 0.4, 0.5, 0.6, 0.8];
/** Cuts for the candidate's own score. */
const OWN_CUTS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
/** Cuts for how many there are (siblings, other candidates in the paragraph). */
const COUNT_CUTS = [1, 2, 4];
/** Cuts for a share of brands. */
const SHARE_CUTS = [0.25, 0.5, 0.75, 0.99];
const SLOT_SHARE_CUTS = [0.2, 0.4, 0.6, 0.8];

/** The feature names of a binned value, made once: `look:<name>_<bin>`. */
function binNames(name: string, cuts: readonly number[]): string[] {
  return Array.from({ length: cuts.length + 1 }, (_, bin) => `look:${name}_${bin}`);
}

const NAMES = {
  siblings: binNames('siblings', COUNT_CUTS),
  siblingsMean: binNames('siblings_mean', SCORE_CUTS),
  siblingsBrands: binNames('siblings_brands', SHARE_CUTS),
  sameNameBest: binNames('same_name_best', SCORE_CUTS),
  sameBlockBest: binNames('same_block_best', SCORE_CUTS),
  sameBlock: binNames('same_block', COUNT_CUTS),
  slotsBrands: binNames('slots_brands', SLOT_SHARE_CUTS),
  own: binNames('own', OWN_CUTS),
  enumeration: binNames('enumeration', COUNT_CUTS),
  enumerationMean: binNames('enumeration_mean', SCORE_CUTS),
  enumerationBrands: binNames('enumeration_brands', SHARE_CUTS),
};
const SLOT_NAMES = new Map<string, string>();

/**
 * Which candidates stand in the same place of the structure as siblings: heads of items of one list,
 * cells of one table column, headings of one level, bold spans of the same kind of block. None for prose.
 */
function siblingGroup(candidate: Candidate): string | undefined {
  const { block } = candidate;
  switch (candidate.slot) {
    case 'list_head':
      return block.list === undefined ? undefined : `list ${block.list.depth} ${block.list.size} ${block.list.ordered} ${block.section}`;
    case 'heading':
      return `heading ${block.depth ?? 0}`;
    case 'table_cell':
    case 'table_header':
      return block.table === undefined ? undefined : `${candidate.slot} ${block.table.column} ${block.table.header}`;
    case 'bold':
      return `bold ${block.list === undefined ? block.kind : 'list'}`;
    default:
      return undefined;
  }
}

/**
 * The enumeration each candidate stands in ("Acme, Globex and Initech" in running text): the index of
 * its first member, the same for every member; undefined for a candidate that stands alone.
 */
function enumerationGroups(candidates: readonly Candidate[]): Array<number | undefined> {
  const groups: Array<number | undefined> = candidates.map(() => undefined);
  for (const indices of indexBy(candidates, (candidate) => candidate.block).values()) {
    const order = [...indices].sort((left, right) => (candidates[left] as Candidate).from - (candidates[right] as Candidate).from);
    order.forEach((index, position) => {
      const previous = order[position - 1];
      if (previous === undefined || !enumerated(candidates[previous] as Candidate, candidates[index] as Candidate)) return;
      const first = groups[previous] ?? previous;
      groups[previous] = first;
      groups[index] = first;
    });
  }
  return groups;
}

/** The index of the first cut `value` is under (cuts.length when above them all). */
function binOf(value: number, cuts: readonly number[]): number {
  let index = 0;
  while (index < cuts.length && value >= (cuts[index] as number)) index += 1;
  return index;
}

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** Indices of the items by a key (items without one are left out). */
function indexBy<T>(items: readonly T[], keyOf: (item: T, index: number) => unknown): Map<unknown, number[]> {
  const out = new Map<unknown, number[]>();
  items.forEach((item, index) => {
    const key = keyOf(item, index);
    if (key === undefined) return;
    const list = out.get(key);
    if (list === undefined) out.set(key, [index]);
    else list.push(index);
  });
  return out;
}

/**
 * The second-look features of every candidate of an answer (names of binary features), given the
 * first look's probabilities (`probabilities[i]` for `candidates[i]`); `oneLine` when the answer came on one line.
 */
export function secondLookFeatures(candidates: readonly Candidate[], probabilities: readonly number[], oneLine: boolean): string[][] {
  const groups = candidates.map(siblingGroup);
  const byGroup = indexBy(candidates, (_, index) => groups[index]);
  const keys = candidates.map((candidate) => compactBrandKey(candidate.surface));
  const byKey = indexBy(candidates, (_, index) => keys[index]);
  const byBlock = indexBy(candidates, (candidate) => candidate.block);
  const enumerations = enumerationGroups(candidates);
  const byEnumeration = indexBy(candidates, (_, index) => enumerations[index]);
  let structural = 0;
  let structuralBrands = 0;
  candidates.forEach((candidate, index) => {
    if (candidate.slot === 'prose') return;
    structural += 1;
    if ((probabilities[index] ?? 0) >= 0.5) structuralBrands += 1;
  });
  const slotsBrands = structural === 0 ? 'look:slots_none' : (NAMES.slotsBrands[binOf(structuralBrands / structural, SLOT_SHARE_CUTS)] as string);
  const others = (indices: readonly number[] | undefined, self: number): number[] => (indices ?? []).filter((index) => index !== self).map((index) => probabilities[index] ?? 0);
  return candidates.map((candidate, index) => {
    const names: string[] = [];
    const siblings = groups[index] === undefined ? [] : others(byGroup.get(groups[index]), index);
    names.push(NAMES.siblings[binOf(siblings.length, COUNT_CUTS)] as string);
    if (siblings.length > 0) {
      names.push(NAMES.siblingsMean[binOf(mean(siblings), SCORE_CUTS)] as string);
      names.push(NAMES.siblingsBrands[binOf(siblings.filter((value) => value >= 0.5).length / siblings.length, SHARE_CUTS)] as string);
    }
    const sameName = others(byKey.get(keys[index]), index);
    names.push(sameName.length > 0 ? (NAMES.sameNameBest[binOf(Math.max(...sameName), SCORE_CUTS)] as string) : 'look:same_name_none');
    const sameBlock = others(byBlock.get(candidate.block), index);
    if (sameBlock.length > 0) names.push(NAMES.sameBlockBest[binOf(Math.max(...sameBlock), SCORE_CUTS)] as string);
    names.push(NAMES.sameBlock[binOf(sameBlock.length, COUNT_CUTS)] as string);
    names.push(slotsBrands);
    // the other names of its enumeration: "Acme, Globex and Initech" are brands or none is
    const members = enumerations[index] === undefined ? [] : others(byEnumeration.get(enumerations[index]), index);
    if (members.length === 0) names.push('look:enumeration_none');
    else {
      names.push(NAMES.enumeration[binOf(members.length, COUNT_CUTS)] as string);
      names.push(NAMES.enumerationMean[binOf(mean(members), SCORE_CUTS)] as string);
      names.push(NAMES.enumerationBrands[binOf(members.filter((value) => value >= 0.5).length / members.length, SHARE_CUTS)] as string);
    }
    names.push(NAMES.own[binOf(probabilities[index] ?? 0, OWN_CUTS)] as string);
    let slot = SLOT_NAMES.get(candidate.slot);
    if (slot === undefined) SLOT_NAMES.set(candidate.slot, (slot = `look:slot_${candidate.slot}`));
    names.push(slot);
    names.push(oneLine ? 'look:one_line' : 'look:markdown');
    return names;
  });
}
