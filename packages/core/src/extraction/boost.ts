// Boosted trees on top of the logistic model: small trees fitted on what the weights leave
// unexplained, so feature combinations (a list head AND a known place word AND no verb after it)
// count for what they are together. Pure and deterministic, like the logistic fit.

import { featureCopy, type Features } from './features.js';

/**
 * One tree in heap order: node i asks whether feature `split[i]` is present (yes → 2i+1, no → 2i+2);
 * an empty name asks nothing and goes on to "no". The leaves follow, `leaves[j]` for leaf j of 2^depth.
 */
export interface Tree {
  split: string[];
  leaves: number[];
}

export interface BoostOptions {
  trees: number;
  depth: number;
  /** Shrinkage: each tree adds this share of its Newton step. */
  rate: number;
  /** L2 penalty on the leaf values. */
  lambda: number;
  /** Neither side of a split may hold less curvature (Σ p(1−p)·weight) than this. */
  minChild: number;
  /** Features on fewer rows than this are not split on. */
  minRows: number;
}

/** Chosen on 5-fold cross-validation over the 780 training answers (docs/extraction.md). */
export const DEFAULT_BOOST: BoostOptions = {
  trees: Number(process.env.BOOST_TREES ?? 300),
  depth: Number(process.env.BOOST_DEPTH ?? 6),
  rate: Number(process.env.BOOST_RATE ?? 0.3),
  lambda: Number(process.env.BOOST_LAMBDA ?? 5),
  minChild: Number(process.env.BOOST_MIN_CHILD ?? 5),
  minRows: Number(process.env.BOOST_MIN_ROWS ?? 30),
};

/** Trees made ready to walk: each split a number, all trees in one array, and each feature name the numbers it answers. */
interface CompiledTrees {
  /** Feature name → [its plain split number, its `S|` copy's, its `P|` copy's] (−1: none). */
  ids: Map<string, [number, number, number]>;
  /**
   * Which split numbers the candidate being scored has (all 0 between candidates). One more slot than
   * there are numbers, never set: an empty split asks it, so the walk needs no test for "no split".
   */
  present: Uint8Array;
  /** Every tree's splits, one after another: tree t's from `starts[t]`, `sizes[t]` of them. */
  splits: Int32Array;
  starts: Int32Array;
  sizes: Int32Array;
  /** Every tree's leaves, one after another: tree t's from `leafStarts[t]`. */
  leaves: Float64Array;
  leafStarts: Int32Array;
}

const compiled = new WeakMap<readonly Tree[], CompiledTrees>();

function compile(trees: readonly Tree[]): CompiledTrees {
  let done = compiled.get(trees);
  if (done !== undefined) return done;
  const ids = new Map<string, [number, number, number]>();
  const numbers = new Map<string, number>();
  const numberOf = (name: string): number => {
    let id = numbers.get(name);
    if (id === undefined) {
      id = numbers.size;
      numbers.set(name, id);
      const [base, copy] = featureCopy(name);
      const slots = ids.get(base) ?? [-1, -1, -1];
      slots[copy] = id;
      ids.set(base, slots);
    }
    return id;
  };
  const numbered = trees.map((tree) => tree.split.map((name) => (name === '' ? -1 : numberOf(name))));
  const never = numbers.size;
  const starts = new Int32Array(trees.length);
  const sizes = new Int32Array(trees.length);
  const leafStarts = new Int32Array(trees.length);
  let splitCount = 0;
  let leafCount = 0;
  trees.forEach((tree, t) => {
    starts[t] = splitCount;
    sizes[t] = tree.split.length;
    leafStarts[t] = leafCount;
    splitCount += tree.split.length;
    leafCount += tree.leaves.length;
  });
  const splits = new Int32Array(splitCount);
  const leaves = new Float64Array(leafCount);
  trees.forEach((tree, t) => {
    splits.set(numbered[t]?.map((id) => (id === -1 ? never : id)) ?? [], starts[t]);
    leaves.set(tree.leaves, leafStarts[t]);
  });
  done = { ids, present: new Uint8Array(never + 1), splits, starts, sizes, leaves, leafStarts };
  compiled.set(trees, done);
  return done;
}

/** The trees' sum for a candidate's features (`group` is its slot-or-prose prefix, `S|` or `P|`). */
export function treesScore(features: Features, group: string, trees: readonly Tree[]): number {
  const model = compile(trees);
  // one buffer per model, cleared after use: no flag array per candidate
  const { present } = model;
  const marked: number[] = [];
  const copy = group === 'S|' ? 1 : 2;
  for (const [name, value] of features) {
    if (value <= 0) continue;
    const slots = model.ids.get(name);
    if (slots === undefined) continue;
    const plain = slots[0];
    const grouped = slots[copy] as number;
    if (plain >= 0) present[plain] = 1;
    if (grouped >= 0) present[grouped] = 1;
    marked.push(plain, grouped);
  }
  const sum = walk(model);
  for (const id of marked) if (id >= 0) present[id] = 0;
  return sum;
}

/** The trees' sum for a candidate described by feature names alone (each present, none slot-or-prose). */
export function treesScoreOfNames(names: readonly string[], trees: readonly Tree[]): number {
  const model = compile(trees);
  const { present, ids } = model;
  const marked: number[] = [];
  for (const name of names) {
    const id = ids.get(name)?.[0] ?? -1;
    if (id < 0) continue;
    present[id] = 1;
    marked.push(id);
  }
  const sum = walk(model);
  for (const id of marked) present[id] = 0;
  return sum;
}

/** Walks every tree for the features marked in `present`. */
function walk(model: CompiledTrees): number {
  const { present, splits, starts, sizes, leaves, leafStarts } = model;
  let sum = 0;
  for (let t = 0; t < starts.length; t += 1) {
    const start = starts[t] as number;
    const size = sizes[t] as number;
    let node = 0;
    // yes (1) → 2·node + 1, no (0) → 2·node + 2: no branch to mispredict
    while (node < size) node = 2 * node + 2 - (present[splits[start + node] as number] as number);
    sum += leaves[(leafStarts[t] as number) + node - size] as number;
  }
  return sum;
}

interface BoostRow {
  features: Features;
  label: 0 | 1;
  weight?: number;
}

/**
 * Fits `options.trees` trees by Newton boosting on the rows' log loss, starting from the margins the
 * logistic weights give. Deterministic: ties go to the feature first in name order.
 */
export function fitTrees(rows: readonly BoostRow[], margins: Float64Array, options: BoostOptions = DEFAULT_BOOST): Tree[] {
  const counts = new Map<string, number>();
  for (const row of rows) for (const [name, value] of row.features) if (value > 0) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = [...counts].filter(([name, count]) => count >= options.minRows && name !== 'bias').map(([name]) => name).sort();
  const index = new Map(names.map((name, position) => [name, position]));
  const size = names.length;
  // Rows alike in every way the trees can see (the features they split on, the starting margin, the
  // label) are one row with their weights added: the copies of an answer repeat most candidates.
  const merged = new Map<string, number>();
  const rowFeatures: Int32Array[] = [];
  const labels: number[] = [];
  const rowWeights: number[] = [];
  const starts: number[] = [];
  rows.forEach((row, position) => {
    const list: number[] = [];
    for (const [name, value] of row.features) {
      const at = index.get(name);
      if (at !== undefined && value > 0) list.push(at);
    }
    list.sort((a, b) => a - b);
    const start = margins[position] ?? 0;
    const key = `${row.label} ${start} ${list.join(',')}`;
    const seen = merged.get(key);
    if (seen !== undefined) {
      rowWeights[seen] = (rowWeights[seen] ?? 0) + (row.weight ?? 1);
      return;
    }
    merged.set(key, rowFeatures.length);
    rowFeatures.push(Int32Array.from(list));
    labels.push(row.label);
    rowWeights.push(row.weight ?? 1);
    starts.push(start);
  });
  const n = rowFeatures.length;
  // the rows' split features in one array: row r's from featureStart[r] to featureStart[r + 1]
  const featureStart = new Int32Array(n + 1);
  for (let r = 0; r < n; r += 1) featureStart[r + 1] = (featureStart[r] as number) + (rowFeatures[r] as Int32Array).length;
  const featureList = new Int32Array(featureStart[n] as number);
  rowFeatures.forEach((list, r) => featureList.set(list, featureStart[r] as number));
  const labelOf = Float64Array.from(labels);
  const weightOf = Float64Array.from(rowWeights);
  const margin = Float64Array.from(starts);
  const gradient = new Float64Array(n);
  const curvature = new Float64Array(n);
  const node = new Int32Array(n);
  // The rows grouped by the node they are at, in row order within each node: a node's sums are then
  // added up in the same order as over all rows, while its sums stay in one small block of memory.
  let order = new Int32Array(n);
  let spare = new Int32Array(n);
  const inner = 2 ** options.depth - 1;
  const trees: Tree[] = [];
  for (let t = 0; t < options.trees; t += 1) {
    for (let r = 0; r < n; r += 1) {
      const p = 1 / (1 + Math.exp(-(margin[r] as number)));
      const weight = weightOf[r] as number;
      gradient[r] = (p - (labelOf[r] as number)) * weight;
      curvature[r] = Math.max(p * (1 - p), 1e-9) * weight;
      order[r] = r;
    }
    node.fill(0);
    const split: string[] = new Array<string>(inner).fill('');
    // Per level, each node's sums of gradient and curvature per feature (interleaved: g, h). Only the
    // smaller child of each pair is summed over its rows; its sibling is the parent's sums minus its own.
    let parentSums = new Float64Array(0);
    let parentTotalG = new Float64Array(0);
    let parentTotalH = new Float64Array(0);
    let bounds = Int32Array.of(0, n);
    for (let level = 0; level < options.depth; level += 1) {
      const first = 2 ** level - 1;
      const width = 2 ** level;
      const totalG = new Float64Array(width);
      const totalH = new Float64Array(width);
      const sums = new Float64Array(2 * width * size);
      // the nodes summed directly: the root, then the smaller of each pair (the left one on a tie)
      const direct = new Uint8Array(width);
      if (level === 0) direct[0] = 1;
      else for (let left = 0; left < width; left += 2) direct[(bounds[left + 1] as number) - (bounds[left] as number) <= (bounds[left + 2] as number) - (bounds[left + 1] as number) ? left : left + 1] = 1;
      for (let at = 0; at < width; at += 1) {
        const from = bounds[at] as number;
        const to = bounds[at + 1] as number;
        if (direct[at] === 1) {
          const base = 2 * at * size;
          let G = 0;
          let H = 0;
          for (let position = from; position < to; position += 1) {
            const r = order[position] as number;
            const gr = gradient[r] as number;
            const hr = curvature[r] as number;
            G += gr;
            H += hr;
            const end = featureStart[r + 1] as number;
            for (let i = featureStart[r] as number; i < end; i += 1) {
              const f = base + 2 * (featureList[i] as number);
              sums[f] = (sums[f] as number) + gr;
              sums[f + 1] = (sums[f + 1] as number) + hr;
            }
          }
          totalG[at] = G;
          totalH[at] = H;
        }
      }
      for (let at = 0; at < width; at += 1) {
        if (direct[at] === 1) continue;
        const sibling = at ^ 1;
        const parent = at >> 1;
        totalG[at] = (parentTotalG[parent] as number) - (totalG[sibling] as number);
        totalH[at] = (parentTotalH[parent] as number) - (totalH[sibling] as number);
        const own = 2 * at * size;
        const other = 2 * sibling * size;
        const above = 2 * parent * size;
        for (let f = 0; f < 2 * size; f += 1) sums[own + f] = (parentSums[above + f] as number) - (sums[other + f] as number);
      }
      const chosen = new Int32Array(width).fill(-1);
      for (let at = 0; at < width; at += 1) {
        const G = totalG[at] as number;
        const H = totalH[at] as number;
        const parent = (G * G) / (H + options.lambda);
        let best = 1e-6;
        const base = 2 * at * size;
        for (let f = 0; f < size; f += 1) {
          const gl = sums[base + 2 * f] as number;
          const hl = sums[base + 2 * f + 1] as number;
          const hr = H - hl;
          if (hl < options.minChild || hr < options.minChild) continue;
          const gr = G - gl;
          const gain = (gl * gl) / (hl + options.lambda) + (gr * gr) / (hr + options.lambda) - parent;
          if (gain > best) {
            best = gain;
            chosen[at] = f;
          }
        }
        if ((chosen[at] as number) >= 0) split[first + at] = names[chosen[at] as number] ?? '';
      }
      // move each row one level down: each node's rows split into its yes child's, then its no child's, in row order
      const next = new Int32Array(2 * width + 1);
      let write = 0;
      for (let at = 0; at < width; at += 1) {
        const from = bounds[at] as number;
        const to = bounds[at + 1] as number;
        const f = chosen[at] as number;
        const current = first + at;
        next[2 * at] = write;
        if (f >= 0) {
          for (let position = from; position < to; position += 1) {
            const r = order[position] as number;
            if (binaryHas(featureList, featureStart[r] as number, featureStart[r + 1] as number, f)) {
              spare[write] = r;
              write += 1;
              node[r] = 2 * current + 1;
            }
          }
        }
        next[2 * at + 1] = write;
        for (let position = from; position < to; position += 1) {
          const r = order[position] as number;
          if (node[r] === current) {
            spare[write] = r;
            write += 1;
            node[r] = 2 * current + 2;
          }
        }
      }
      next[2 * width] = write;
      [order, spare] = [spare, order];
      bounds = next;
      parentSums = sums;
      parentTotalG = totalG;
      parentTotalH = totalH;
    }
    const leafCount = inner + 1;
    const leafG = new Float64Array(leafCount);
    const leafH = new Float64Array(leafCount);
    for (let r = 0; r < n; r += 1) {
      const leaf = (node[r] as number) - inner;
      leafG[leaf] = (leafG[leaf] as number) + (gradient[r] as number);
      leafH[leaf] = (leafH[leaf] as number) + (curvature[r] as number);
    }
    // rounded as the weights are, and never -0 (JSON writes it as 0, so a refit would not read back equal)
    const leaves = Array.from(leafG, (G, leaf) => Math.round((-G / ((leafH[leaf] as number) + options.lambda)) * options.rate * 1e4) / 1e4 || 0);
    for (let r = 0; r < n; r += 1) margin[r] = (margin[r] as number) + (leaves[(node[r] as number) - inner] ?? 0);
    trees.push({ split, leaves });
  }
  return trees;
}

/** Whether the sorted `list[from..to)` holds `value`. */
function binaryHas(list: Int32Array, from: number, to: number, value: number): boolean {
  let low = from;
  let high = to - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = list[mid] as number;
    if (at === value) return true;
    if (at < value) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}
