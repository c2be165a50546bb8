// The scored model that decides which candidates are brands: logistic regression over named
// features and boosted trees on top of it (boost.ts), fitted on the dev set and the training-only
// answers (scripts/extraction/fit.ts) and committed as data.

import { readFileSync } from 'node:fs';
import { EXTRACTION_DATA_DIR } from './knowledge.js';
import { treesScore, type Tree } from './boost.js';
import { featureCopy, groupOf, UNGROUPED, type Features } from './features.js';

export interface ModelWeights {
  /** Feature name → weight; a feature missing here weighs 0. */
  weights: Record<string, number>;
  /** A candidate with probability at or above this makes an entry. */
  threshold: number;
  /** A candidate at or above this (but under `threshold`) may only join an entry others made. */
  joinThreshold: number;
  /**
   * The same two for an answer on one line (copied from a web page, its line breaks lost, then
   * restored as far as they can be); without them, `threshold` and `joinThreshold`.
   */
  oneLine?: { threshold: number; joinThreshold: number };
  /** Boosted trees fitted on what the weights leave unexplained (boost.ts); none in a plain model. */
  trees?: Tree[];
  /** The second look (second-look.ts): trees on what the rest of the answer scored; none in a plain model. */
  secondLook?: Tree[];
  fit?: Record<string, unknown>;
}

let loaded: ModelWeights | undefined;

/** The committed weights (packages/core/data/extraction/weights.json). */
export function committedWeights(): ModelWeights {
  loaded ??= JSON.parse(readFileSync(`${EXTRACTION_DATA_DIR}weights.json`, 'utf8')) as ModelWeights;
  return loaded;
}

export function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

/** Feature name → [its weight, its `S|` copy's, its `P|` copy's]: one lookup per feature, no name built. */
type WeightTable = Map<string, [number, number, number]>;

const tables = new WeakMap<Readonly<Record<string, number>>, WeightTable>();

function weightTable(weights: Readonly<Record<string, number>>): WeightTable {
  let table = tables.get(weights);
  if (table !== undefined) return table;
  table = new Map();
  for (const [name, weight] of Object.entries(weights)) {
    const [base, copy] = featureCopy(name);
    const entry = table.get(base) ?? [0, 0, 0];
    entry[copy] = weight;
    table.set(base, entry);
  }
  tables.set(weights, table);
  return table;
}

/** The model's score for a candidate (log-odds): each feature's weight plus its slot-or-prose copy's. */
export function logit(features: Features, weights: Readonly<Record<string, number>>): number {
  const table = weightTable(weights);
  const copy = groupOf(features) === 'S|' ? 1 : 2;
  let sum = 0;
  for (const [name, value] of features) {
    const entry = table.get(name);
    if (entry === undefined) continue;
    sum += entry[0] * value;
    if (!UNGROUPED.test(name)) sum += entry[copy] * value;
  }
  return sum;
}

/** The whole model's score for a candidate (log-odds): the weights' and the trees'. */
export function modelLogit(features: Features, model: Pick<ModelWeights, 'weights' | 'trees'>): number {
  const sum = logit(features, model.weights);
  return model.trees === undefined || model.trees.length === 0 ? sum : sum + treesScore(features, groupOf(features), model.trees);
}

/**
 * The features that pushed a decision most, strongest first: [name, contribution]. The trees'
 * share counts as one driver, `trees` (feature combinations the single weights do not cover).
 */
export function contributions(features: Features, model: Pick<ModelWeights, 'weights' | 'trees'>): Array<[string, number]> {
  const { weights } = model;
  const group = groupOf(features);
  const out: Array<[string, number]> = [];
  for (const [name, value] of features) {
    out.push([name, (weights[name] ?? 0) * value]);
    if (!UNGROUPED.test(name)) out.push([group + name, (weights[group + name] ?? 0) * value]);
  }
  if (model.trees !== undefined && model.trees.length > 0) out.push(['trees', Math.round(treesScore(features, group, model.trees) * 1e4) / 1e4]);
  return out.filter(([, contribution]) => contribution !== 0).sort((left, right) => Math.abs(right[1]) - Math.abs(left[1]));
}
