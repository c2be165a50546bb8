// Fitting and cross-validating the extractor's model on a hand-labelled dev set. Pure and
// deterministic: the same items give the same weights, so a test can show the committed weights
// are what the script produces. Used by scripts/extraction/fit.ts and the eval.

import { readFileSync } from 'node:fs';
import { decide, scoreCandidates } from './extract-brands.js';
import { expandFeatures, type Features } from './features.js';
import { modelLogit, sigmoid, type ModelWeights } from './model.js';
import { DEFAULT_BOOST, fitTrees, type BoostOptions, type Tree } from './boost.js';
import { secondLookFeatures } from './second-look.js';
import { EXTRACTION_DATA_DIR } from './knowledge.js';

export interface DevItem {
  id: string;
  question?: string;
  category?: string;
  lang?: string;
  brand?: string;
  answer: string;
  gold: string[][];
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

export interface Scores extends Counts {
  precision: number;
  recall: number;
  f1: number;
}

export interface FitOptions {
  /** L2 penalty on the weights (the bias is not penalised). */
  l2: number;
  /** Newton steps at most (it stops earlier once converged). */
  iterations: number;
  /**
   * The entry threshold; without one, the threshold with the best F1 on the training answers. That
   * in-sample choice runs high (0.5–0.6 in every fold, where the held-out answers are best at 0.45:
   * docs/extraction.md), so the default is the threshold cross-validation chose.
   */
  threshold?: number;
  /**
   * The entry threshold for an answer on one line; without one, `threshold`. The one-line copies
   * are best at a lower one than the answers with their markdown (docs/extraction.md).
   */
  oneLineThreshold?: number;
  /**
   * Weights to start Newton's method from (a model fitted on more of the same answers): the fit is
   * convex, so it ends at the same optimum, in three or four steps instead of ten.
   */
  initial?: Readonly<Record<string, number>>;
  /** Boosted trees on top of the weights (boost.ts); none when `trees` is 0. */
  boost?: BoostOptions;
  /** The second look (second-look.ts) and how many folds give its out-of-fold scores; none when `trees` is 0. */
  secondLook?: BoostOptions & { folds: number };
}

/** Chosen on 5-fold cross-validation over the 780 training answers (docs/extraction.md). */
export const DEFAULT_SECOND_LOOK: BoostOptions & { folds: number } = {
  trees: Number(process.env.LOOK_TREES ?? 100),
  depth: Number(process.env.LOOK_DEPTH ?? 4),
  rate: Number(process.env.LOOK_RATE ?? 0.2),
  lambda: 5,
  minChild: 5,
  minRows: 30,
  folds: Number(process.env.LOOK_FOLDS ?? 5),
};

const MIN_FEATURE_ROWS = 3;
export const DEFAULT_FIT: FitOptions = {
  l2: Number(process.env.FIT_L2 ?? 3),
  iterations: 30,
  threshold: Number(process.env.FIT_THRESHOLD ?? 0.55),
  oneLineThreshold: Number(process.env.FIT_ONE_LINE_THRESHOLD ?? 0.45),
  boost: DEFAULT_BOOST,
  secondLook: DEFAULT_SECOND_LOOK,
};
const THRESHOLDS = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7];
const JOIN_GAP = 0.2;

export function loadDevItems(path: string): DevItem[] {
  return readFileSync(path, 'utf8')
    .split(/\r?\n/u)
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DevItem);
}

// The dev set's own normalisation (its score.mjs), so labels and scores mean what the scorer means.
const MARKS = /[\u00AE\u2122\u2120\u00A9]/gu;
const EDGES = /^[\s\p{P}\p{Z}`|~^]+|[\s\p{P}\p{Z}`|~^]+$/gu;
const LEGAL_SUFFIX = /[\s,]+(?:inc|llc|ltd)$/u;

export function scorerKey(text: string): string {
  let value = String(text)
    .replace(MARKS, '')
    .replace(/[\u2018\u2019\u02BC\u2032]/gu, "'")
    .replace(/[\u201C\u201D\u2033]/gu, '"')
    .replace(/[\u2010-\u2015\u2212]/gu, '-')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/gu, ' ');
  for (;;) {
    const before = value;
    value = value.replace(EDGES, '').replace(LEGAL_SUFFIX, '');
    if (value === before) break;
  }
  return value;
}

/** Scores one item's predictions as the dev set's scorer does (maximum matching on aliases). */
export function scoreItem(item: DevItem, predictions: readonly string[]): Counts & { misses: string[]; extras: string[] } {
  const goldSets = item.gold.map((entry) => new Set(entry.map(scorerKey).filter((alias) => alias !== '')));
  const kept = predictions.map((raw) => ({ raw, value: scorerKey(raw) })).filter(({ value }) => value !== '');
  const options = kept.map(({ value }) => goldSets.flatMap((aliases, index) => (aliases.has(value) ? [index] : [])));
  const owner = new Array<number>(goldSets.length).fill(-1);
  const assign = (prediction: number, visited: Set<number>): boolean => {
    for (const gold of options[prediction] ?? []) {
      if (visited.has(gold)) continue;
      visited.add(gold);
      const current = owner[gold] ?? -1;
      if (current === -1 || assign(current, visited)) {
        owner[gold] = prediction;
        return true;
      }
    }
    return false;
  };
  kept.forEach((_, index) => assign(index, new Set()));
  const matched = new Set(owner.filter((index) => index !== -1));
  return {
    tp: matched.size,
    fp: kept.length - matched.size,
    fn: owner.filter((index) => index === -1).length,
    misses: item.gold.filter((_, index) => owner[index] === -1).map((entry) => entry[0] ?? ''),
    extras: kept.filter((_, index) => !matched.has(index)).map(({ raw }) => raw),
  };
}

export function toScores(counts: Counts): Scores {
  const precision = counts.tp + counts.fp === 0 ? 0 : counts.tp / (counts.tp + counts.fp);
  const recall = counts.tp + counts.fn === 0 ? 1 : counts.tp / (counts.tp + counts.fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { ...counts, precision, recall, f1 };
}

const scoredCache = new WeakMap<DevItem, ReturnType<typeof scoreCandidates>>();

/** An item's candidates and features, computed once per item object. */
function scoredOnce(item: DevItem): ReturnType<typeof scoreCandidates> {
  let scored = scoredCache.get(item);
  if (scored === undefined) {
    scored = scoreCandidates(item.answer, item.brand);
    scoredCache.set(item, scored);
  }
  return scored;
}

interface Row {
  features: Features;
  label: 0 | 1;
  /** How much the row counts in the fit (1 unless its copy of the answer is weighed down). */
  weight?: number;
}

/** Every candidate of the items, labelled 1 when it is one of the gold aliases. */
export function trainingRows(items: readonly DevItem[], weight = 1): Row[] {
  const rows: Row[] = [];
  for (const item of items) {
    const aliases = new Set(item.gold.flat().map(scorerKey));
    for (const { candidate, features } of scoredOnce(item)) {
      rows.push({ features: expandFeatures(features), label: aliases.has(scorerKey(candidate.surface)) ? 1 : 0, weight });
    }
  }
  return rows;
}

/**
 * L2-regularised logistic regression by Newton's method (iteratively reweighted least squares):
 * it converges to the one optimum, so the same rows always give the same weights.
 */
export function fitLogistic(rows: readonly Row[], options: FitOptions = DEFAULT_FIT): Record<string, number> {
  // Features seen on fewer than MIN_FEATURE_ROWS candidates carry no evidence worth a weight.
  const seen = new Map<string, number>();
  for (const row of rows) for (const name of row.features.keys()) seen.set(name, (seen.get(name) ?? 0) + 1);
  const names = [...seen].filter(([name, count]) => count >= MIN_FEATURE_ROWS || name === 'bias').map(([name]) => name).sort();
  const index = new Map(names.map((name, position) => [name, position]));
  const size = names.length;
  const data = rows.map((row) => {
    const entries = [...row.features]
      .map(([name, value]) => [index.get(name), value] as const)
      .filter((entry): entry is readonly [number, number] => entry[0] !== undefined)
      .sort((left, right) => left[0] - right[0]);
    return { features: Int32Array.from(entries, (entry) => entry[0]), values: Float64Array.from(entries, (entry) => entry[1]), label: row.label, weight: row.weight ?? 1 };
  });
  const bias = index.get('bias');
  const weights = new Float64Array(size);
  if (options.initial !== undefined) names.forEach((name, position) => (weights[position] = options.initial?.[name] ?? 0));
  // From given weights the Hessian hardly changes on the way: its factor is reused (a chord method),
  // so a step costs one pass over the rows instead of an n³/6 factorisation. Each chord step shrinks
  // the step to about a third on a cross-validation fold; only when one shrinks it by less than half is
  // the Hessian factored again where the weights are.
  const chord = options.initial !== undefined;
  const penalties = Float64Array.from(names, (_, feature) => (feature === bias ? 1e-6 : options.l2));
  let factor: Float64Array | undefined;
  let previous = Number.POSITIVE_INFINITY;
  let slowing = false;
  // Newton's method (and a stale factor more so) can overshoot from weights far from the optimum, where
  // p(1 − p) is small, and run away: a step that raised the loss is taken back and half of it tried,
  // until one lowers it. Near the optimum every full step lowers it, and none is taken back.
  const accepted = new Float64Array(size);
  let acceptedLoss = Number.POSITIVE_INFINITY;
  let lastStep: Float64Array = new Float64Array(0);
  let share = 1;
  for (let iteration = 0; iteration < (chord ? 4 * options.iterations : options.iterations); iteration += 1) {
    const refactor = factor === undefined || !chord || slowing;
    const gradient = new Float64Array(size);
    const hessian = new Float64Array(refactor ? size * size : 0);
    let loss = 0;
    for (const row of data) {
      const { features, values } = row;
      let sum = 0;
      for (let i = 0; i < features.length; i += 1) sum += (weights[features[i] ?? 0] ?? 0) * (values[i] ?? 0);
      const p = 1 / (1 + Math.exp(-sum));
      // −log p for a 1, −log(1 − p) for a 0, without cancelling: log(1 + e^−|s|) + max(0, ∓s)
      const margin = row.label === 1 ? sum : -sum;
      loss += (Math.log1p(Math.exp(-Math.abs(margin))) + Math.max(0, -margin)) * row.weight;
      const error = (p - row.label) * row.weight;
      for (let i = 0; i < features.length; i += 1) gradient[features[i] ?? 0] = (gradient[features[i] ?? 0] ?? 0) + error * (values[i] ?? 0);
      if (!refactor) continue;
      const curvature = Math.max(p * (1 - p), 1e-9) * row.weight;
      // the Hessian is symmetric: its lower half is summed, and only that half is read
      for (let i = 0; i < features.length; i += 1) {
        const va = (values[i] ?? 0) * curvature;
        const rowStart = (features[i] ?? 0) * size;
        for (let j = 0; j <= i; j += 1) hessian[rowStart + (features[j] ?? 0)] = (hessian[rowStart + (features[j] ?? 0)] ?? 0) + va * (values[j] ?? 0);
      }
    }
    for (let feature = 0; feature < size; feature += 1) loss += ((penalties[feature] ?? 0) * (weights[feature] ?? 0) * (weights[feature] ?? 0)) / 2;
    if (loss > acceptedLoss + 1e-9 * Math.abs(acceptedLoss) && share > 1e-6) {
      // uphill (beyond rounding): back to the last accepted weights and half the last step, with the
      // Hessian factored afresh for the step after
      share /= 2;
      for (let feature = 0; feature < size; feature += 1) weights[feature] = (accepted[feature] ?? 0) - share * (lastStep[feature] ?? 0);
      slowing = true;
      continue;
    }
    accepted.set(weights);
    acceptedLoss = loss;
    share = 1;
    for (let feature = 0; feature < size; feature += 1) {
      const penalty = penalties[feature] ?? 0;
      gradient[feature] = (gradient[feature] ?? 0) + penalty * (weights[feature] ?? 0);
      if (refactor) hessian[feature * size + feature] = (hessian[feature * size + feature] ?? 0) + penalty;
    }
    if (refactor) factor = choleskyFactor(hessian, size);
    const step = solveFactored(factor ?? new Float64Array(0), gradient, size);
    lastStep = step;
    let largest = 0;
    for (let feature = 0; feature < size; feature += 1) {
      weights[feature] = (weights[feature] ?? 0) - (step[feature] ?? 0);
      largest = Math.max(largest, Math.abs(step[feature] ?? 0));
    }
    if (largest < 1e-7) break;
    slowing = largest > previous / 2;
    previous = largest;
  }
  const out: Record<string, number> = {};
  names.forEach((name, position) => {
    const weight = Math.round((weights[position] ?? 0) * 1e4) / 1e4;
    if (weight !== 0) out[name] = weight;
  });
  return out;
}

/**
 * The lower Cholesky factor of a symmetric positive-definite matrix (only its lower half is read).
 * The hot loop of the fit. Rows are computed four at a time, so each earlier row they are dotted with
 * is read from memory once for four rows instead of once each (the factor is n² doubles, 100 MB for
 * 3,600 features; reading it was the cost): about 2.4 times faster. Every entry's sum still runs over
 * k in the same order, so the factor is the same to the last bit.
 */
function choleskyFactor(matrix: Float64Array, size: number): Float64Array {
  const lower = new Float64Array(size * size);
  // one row's entries from column `from` on, each after the rows above it are done
  const finishRow = (i: number, from: number): void => {
    const rowI = i * size;
    for (let j = from; j <= i; j += 1) {
      const rowJ = j * size;
      let sum = matrix[rowI + j] as number;
      // typed-array reads are in bounds, so no `?? 0` on each
      for (let k = 0; k < j; k += 1) sum -= (lower[rowI + k] as number) * (lower[rowJ + k] as number);
      lower[rowI + j] = i === j ? Math.sqrt(Math.max(sum, 1e-12)) : sum / (lower[rowJ + j] as number);
    }
  };
  let first = 0;
  for (; first + 4 <= size; first += 4) {
    const row0 = first * size;
    const row1 = row0 + size;
    const row2 = row1 + size;
    const row3 = row2 + size;
    for (let j = 0; j < first; j += 1) {
      const rowJ = j * size;
      let sum0 = matrix[row0 + j] as number;
      let sum1 = matrix[row1 + j] as number;
      let sum2 = matrix[row2 + j] as number;
      let sum3 = matrix[row3 + j] as number;
      for (let k = 0; k < j; k += 1) {
        const shared = lower[rowJ + k] as number;
        sum0 -= (lower[row0 + k] as number) * shared;
        sum1 -= (lower[row1 + k] as number) * shared;
        sum2 -= (lower[row2 + k] as number) * shared;
        sum3 -= (lower[row3 + k] as number) * shared;
      }
      const diagonal = lower[rowJ + j] as number;
      lower[row0 + j] = sum0 / diagonal;
      lower[row1 + j] = sum1 / diagonal;
      lower[row2 + j] = sum2 / diagonal;
      lower[row3 + j] = sum3 / diagonal;
    }
    for (let i = first; i < first + 4; i += 1) finishRow(i, first);
  }
  for (let i = first; i < size; i += 1) finishRow(i, 0);
  return lower;
}

/** Solves L·Lᵀ·x = vector for a Cholesky factor L. */
function solveFactored(lower: Float64Array, vector: Float64Array, size: number): Float64Array {
  const y = new Float64Array(size);
  for (let i = 0; i < size; i += 1) {
    let sum = vector[i] ?? 0;
    for (let k = 0; k < i; k += 1) sum -= (lower[i * size + k] ?? 0) * (y[k] ?? 0);
    y[i] = sum / (lower[i * size + i] ?? 1);
  }
  const x = new Float64Array(size);
  for (let i = size - 1; i >= 0; i -= 1) {
    let sum = y[i] ?? 0;
    for (let k = i + 1; k < size; k += 1) sum -= (lower[k * size + i] ?? 0) * (x[k] ?? 0);
    x[i] = sum / (lower[i * size + i] ?? 1);
  }
  return x;
}

/** Runs the whole extractor with the given model over items and adds up the scorer's counts. */
export function evaluate(items: readonly DevItem[], model: ModelWeights): Counts {
  const total: Counts = { tp: 0, fp: 0, fn: 0 };
  for (const item of items) {
    const options = item.brand === undefined ? { model } : { model, brand: item.brand };
    addCounts(total, scoreItem(item, decide(item.answer, scoredOnce(item), options).brands));
  }
  return total;
}

/** Adds `counts` into `total`. */
function addCounts(total: Counts, counts: Counts): void {
  total.tp += counts.tp;
  total.fp += counts.fp;
  total.fn += counts.fn;
}

/**
 * The answer as it reads when copied from a web page: markdown rendered away and line breaks lost.
 * Training also on these copies teaches the model what running text alone says.
 */
export function flattenAnswer(answer: string, options: { dropNumbers?: boolean } = {}): string {
  return answer
    .replace(/\*\*|__|`/gu, '')
    .replace(/^#{1,6}\s*/gmu, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/gu, '$1')
    .replace(options.dropNumbers === true ? /^\s*(?:[-*+]|\d{1,2}[.)])\s+/gmu : /^\s*[-*+]\s+/gmu, '')
    .replace(/\|/gu, ' ')
    .replace(/^[\s:-]+$/gmu, '')
    .replace(/\s*\n+\s*/gu, ' ')
    .trim();
}

/**
 * A copy of the item with its answer rewritten, made once per item and kind (so its candidates are
 * scored once too: `scoredOnce` caches by item object).
 */
function copyOf(kind: string, item: DevItem, rewrite: (item: DevItem) => string): DevItem {
  let copies = copyCache.get(item);
  if (copies === undefined) {
    copies = new Map();
    copyCache.set(item, copies);
  }
  let copy = copies.get(kind);
  if (copy === undefined) {
    copy = { ...item, id: `${item.id}-${kind}`, answer: rewrite(item) };
    copies.set(kind, copy);
  }
  return copy;
}

const copyCache = new WeakMap<DevItem, Map<string, DevItem>>();

/** The item as a copy that also lost its list numbers (browsers do not copy an ordered list's markers). */
export function bareItem(item: DevItem): DevItem {
  return copyOf('bare', item, (original) => flattenAnswer(original.answer, { dropNumbers: true }));
}

/** The item with its answer flattened. */
export function flattenedItem(item: DevItem): DevItem {
  return copyOf('flat', item, (original) => flattenAnswer(original.answer));
}

/**
 * The answer in other shapes assistants write the same picks in, for training only (the labels stay
 * true): a bold list head followed by a dash becomes a `Name:` head (`- **Acme** – fast` →
 * `- **Acme:** fast`), and a title heading names the category above it (`## Best standing desks`),
 * which is never a brand. The dev set's `Label:` heads are mostly labels (`**Battery life:**`); real
 * answers write picks that way too, and a model that saw only the first would drop those picks.
 */
export function reshapeAnswer(answer: string, category: string | undefined): string {
  const heads = answer.replace(/^(\s*(?:[-*+]|\d{1,2}[.)])\s+)\*\*([^*\n]{1,60}?)\*\*\s*[—–-]\s+/gmu, (_whole, marker: string, name: string) => `${marker}**${name}:** `);
  if (category === undefined || category.trim() === '') return heads;
  const title = category.trim().replace(/^\p{Ll}/u, (letter) => letter.toUpperCase());
  return `## Best ${title}\n\n${heads}`;
}

/** The item reshaped. */
export function reshapedItem(item: DevItem): DevItem {
  return copyOf('reshaped', item, (original) => reshapeAnswer(original.answer, original.category));
}

/** The item reshaped, with a list of cited sources under it (markdown only: see withCitedSources). */
export function citedItem(item: DevItem): DevItem {
  return copyOf('cited', item, (original) => withCitedSources(reshapedItem(original).answer, original.id, original.category));
}

/**
 * The answer with a sources section under it, as search-backed assistants write one: three
 * publications, each cited with a title and a domain, in one of three shapes. The publications are
 * invented (an everyday word and a masthead word) and the answer does not name them, so the labels stay
 * true (none of them is an entry) and the model learns the section and the citation shape rather than
 * a list of review sites. Only six dev answers have such a section.
 */
export function withCitedSources(answer: string, seed: string, category: string | undefined): string {
  const names = publicationNames();
  const lower = answer.toLowerCase();
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  // spread neighbouring seeds (dev-001, dev-002) over the list
  const spread = (Math.imul(hash, 2654435761) >>> 0) % Math.max(names.length, 1);
  const picked: string[] = [];
  for (let step = 0; picked.length < 3 && step < names.length; step += 1) {
    const name = names[(spread + step * 7919) % names.length] ?? '';
    if (!lower.includes(name.toLowerCase()) && !picked.includes(name)) picked.push(name);
  }
  const topic = category?.trim() || 'picks';
  const titles = [`The best ${topic} this year`, `${topic.replace(/^\p{Ll}/u, (letter) => letter.toUpperCase())}: what to buy`, `How we test ${topic}`];
  const domain = (name: string): string => `${name.toLowerCase().replace(/[^a-z0-9]+/gu, '')}.com`;
  const lines = picked.map((name, index) => {
    const title = titles[index] ?? topic;
    switch (hash % 3) {
      case 0:
        return `${index + 1}. ${name} — "${title}" (${domain(name)})`;
      case 1:
        return `- [${name}](https://www.${domain(name)}/${index}) — ${title}`;
      default:
        return `[${index + 1}] ${name}, "${title}", ${domain(name)}`;
    }
  });
  const heading = ['**Sources**', 'Sources:', '## References'][hash % 3] ?? 'Sources:';
  return `${answer.trimEnd()}\n\n${heading}\n${lines.join('\n')}\n`;
}

let publications: string[] | undefined;

const MASTHEADS = ['Review', 'Weekly', 'Journal', 'Report', 'Guide', 'Magazine', 'Digest', 'Times', 'Post', 'Lab'];

/** Invented publication names: an everyday English word and a masthead word ("Harbor Review"). */
function publicationNames(): string[] {
  publications ??= (JSON.parse(readFileSync(`${EXTRACTION_DATA_DIR}gazetteer.json`, 'utf8')) as { commonWords: Record<string, string[]> }).commonWords.en
    ?.slice(300, 3000)
    .filter((word) => /^[a-z]{4,}$/u.test(word))
    .map((word, index) => `${word.charAt(0).toUpperCase()}${word.slice(1)} ${MASTHEADS[index % MASTHEADS.length] ?? 'Review'}`) ?? [];
  return publications;
}

/**
 * How much the one-line copies count in the fit. Once their tables and bullet items came back (the
 * restoration in restore-line-breaks.ts makes them look more like markdown), at full weight they
 * pulled the shared list-head weights their way and cost the markdown figure about 0.006 on 8, 10
 * and 12 folds; at 0.6 the markdown figure came back and the one-line figures held within 0.004
 * (docs/extraction.md; chosen on those cross-validated figures, which flatters them slightly).
 */
const FLATTENED_COPY_WEIGHT = 0.6;

/**
 * A copy that lost its list numbers too counts half as much again: at the flattened copies' weight
 * it cost the markdown figure about 0.003 for +0.012 on such copies (docs/extraction.md).
 */
const BARE_COPY_WEIGHT = FLATTENED_COPY_WEIGHT / 2;

/**
 * Fits weights on the items and their reshaped copies, the flattened copies of both (weighed down) and
 * the items' bare copies (half that), boosted trees on what the weights leave, and the second look
 * (second-look.ts) on out-of-fold scores; the entry threshold is the given one, or the one with the
 * best F1 on all of them. `extra` are training-only answers (dev-data/extraction-train): fitted on
 * like the items, never scored.
 */
export function fitModel(items: readonly DevItem[], options: FitOptions = DEFAULT_FIT, extra: readonly DevItem[] = []): ModelWeights {
  const all = [...items, ...extra];
  const first = fitFirstLook(all, options);
  const look = options.secondLook ?? DEFAULT_SECOND_LOOK;
  let secondLook: Tree[] | undefined;
  if (look.trees > 0) {
    // the second look learns from scores the first look gives answers it was not fitted on
    const parts = folds(all, look.folds);
    const rows: SecondLookRow[] = [];
    parts.forEach((held, index) => {
      const model = fitFirstLook(parts.flatMap((part, other) => (other === index ? [] : part)), { ...options, initial: first.weights });
      for (const item of held) rows.push(...secondLookRows(item, model));
    });
    secondLook = fitSecondLook(rows, look);
  }
  return withThresholds({ ...first, ...(secondLook === undefined ? {} : { secondLook }) }, all, options);
}

/** The first look: weights and the trees on top of them, fitted on the items and their copies. */
export function fitFirstLook(all: readonly DevItem[], options: FitOptions = DEFAULT_FIT): FirstLook {
  const reshaped = all.map(reshapedItem);
  const rows = [
    ...trainingRows([...all, ...all.map(citedItem)]),
    ...trainingRows([...all.map(flattenedItem), ...reshaped.map(flattenedItem)], FLATTENED_COPY_WEIGHT),
    ...trainingRows(all.map(bareItem), BARE_COPY_WEIGHT),
  ];
  const weights = fitLogistic(rows, options);
  const boost = options.boost ?? DEFAULT_BOOST;
  const trees = boost.trees > 0 ? fitTrees(rows, Float64Array.from(rows, (row) => expandedLogit(row.features, weights)), boost) : undefined;
  return { weights, ...(trees === undefined ? {} : { trees }) };
}

interface SecondLookRow {
  features: Features;
  label: 0 | 1;
  weight: number;
  /** The first look's log-odds: where the second look starts from. */
  margin: number;
}

/**
 * The second look's training rows for an item scored by a first look fitted without it: the item
 * with its markdown, flattened and bare, weighed as in the first look's fit.
 */
function secondLookRows(item: DevItem, first: FirstLook): SecondLookRow[] {
  const aliases = new Set(item.gold.flat().map(scorerKey));
  const rows: SecondLookRow[] = [];
  for (const [copy, weight] of [[item, 1], [flattenedItem(item), FLATTENED_COPY_WEIGHT], [bareItem(item), BARE_COPY_WEIGHT]] as const) {
    const scored = scoredOnce(copy);
    const margins = scored.map(({ features }) => modelLogit(features, first));
    const looks = secondLookFeatures(scored.map(({ candidate }) => candidate), margins.map(sigmoid), !/[\r\n]/u.test(copy.answer));
    scored.forEach(({ candidate }, index) => {
      rows.push({ features: new Map((looks[index] ?? []).map((name) => [name, 1])), label: aliases.has(scorerKey(candidate.surface)) ? 1 : 0, weight, margin: margins[index] ?? 0 });
    });
  }
  return rows;
}

function fitSecondLook(rows: readonly SecondLookRow[], look: BoostOptions): Tree[] {
  return fitTrees(rows, Float64Array.from(rows, (row) => row.margin), look);
}

/** The model with its thresholds: the given ones, or the entry threshold with the best F1 on the items. */
function withThresholds(fitted: Pick<ModelWeights, 'weights' | 'trees' | 'secondLook'>, all: readonly DevItem[], options: FitOptions): ModelWeights {
  const join = (threshold: number): number => Math.round((threshold - JOIN_GAP) * 100) / 100;
  const oneLine = options.oneLineThreshold !== undefined && Number.isFinite(options.oneLineThreshold) ? options.oneLineThreshold : undefined;
  const withThreshold = (threshold: number): ModelWeights => ({
    ...fitted,
    threshold,
    joinThreshold: join(threshold),
    ...(oneLine === undefined ? {} : { oneLine: { threshold: oneLine, joinThreshold: join(oneLine) } }),
  });
  if (options.threshold !== undefined && Number.isFinite(options.threshold)) return withThreshold(options.threshold);
  let best: ModelWeights = withThreshold(0.5);
  let bestF1 = -1;
  for (const threshold of THRESHOLDS) {
    const model = withThreshold(threshold);
    const { f1 } = toScores(evaluate(all, model));
    if (f1 > bestF1 + 1e-9) {
      bestF1 = f1;
      best = model;
    }
  }
  return best;
}

/** The weights' score for a training row (its features already expanded). */
function expandedLogit(features: Features, weights: Readonly<Record<string, number>>): number {
  let sum = 0;
  for (const [name, value] of features) sum += (weights[name] ?? 0) * value;
  return sum;
}

/** Deterministic folds: item i goes to fold i mod k (the dev set is not ordered by difficulty). */
export function folds<T>(items: readonly T[], k: number): T[][] {
  const out: T[][] = Array.from({ length: k }, () => []);
  items.forEach((item, index) => out[index % k]?.push(item));
  return out;
}

/**
 * k-fold cross-validation: each fold is scored by a model fitted on the other folds only. The
 * training-only answers (`extra`) are cut into the same k folds and each fold's first look is fitted
 * without its share of them too, so every answer has a first-look score from a fit that did not see
 * it; the fold's second look is fitted on those scores of the other folds (stacked generalisation).
 */
export function crossValidate(
  items: readonly DevItem[],
  k = 10,
  options: FitOptions = DEFAULT_FIT,
  extra: readonly DevItem[] = [],
  firstLooks?: readonly FirstLook[],
): Scores & { perFold: Scores[]; flattened: Scores; bare: Scores } {
  const parts = folds(items, k);
  const models = crossValidatedModels(items, k, options, extra, firstLooks);
  const total: Counts = { tp: 0, fp: 0, fn: 0 };
  const flatTotal: Counts = { tp: 0, fp: 0, fn: 0 };
  const bareTotal: Counts = { tp: 0, fp: 0, fn: 0 };
  const perFold: Scores[] = [];
  models.forEach((model, foldIndex) => {
    const held = parts[foldIndex] ?? [];
    const counts = evaluate(held, model);
    addCounts(flatTotal, evaluate(held.map(flattenedItem), model));
    addCounts(bareTotal, evaluate(held.map(bareItem), model));
    perFold.push(toScores(counts));
    addCounts(total, counts);
  });
  return { ...toScores(total), perFold, flattened: toScores(flatTotal), bare: toScores(bareTotal) };
}

/** The first look of a model: the weights and the trees on top of them. */
export type FirstLook = Pick<ModelWeights, 'weights' | 'trees'>;

/** What fold `foldIndex`'s first look is fitted on: the items and the training-only answers outside that fold. */
export function foldTraining(items: readonly DevItem[], k: number, extra: readonly DevItem[], foldIndex: number): DevItem[] {
  return [folds(items, k), folds(extra, k)].flatMap((all) => all.flatMap((part, index) => (index === foldIndex ? [] : part)));
}

/**
 * The k models of `crossValidate`, fold i's fitted without the items of fold i (`folds(items, k)[i]`).
 * `firstLooks`, when given, are the folds' first looks fitted elsewhere (`fitFirstLook(foldTraining(…, i), options)`,
 * in other processes: scripts/extraction/parallel-folds.ts); the rest is the same.
 */
export function crossValidatedModels(
  items: readonly DevItem[],
  k = 10,
  options: FitOptions = DEFAULT_FIT,
  extra: readonly DevItem[] = [],
  firstLooks: readonly FirstLook[] = folds(items, k).map((_, foldIndex) => fitFirstLook(foldTraining(items, k, extra, foldIndex), options)),
): ModelWeights[] {
  const parts = folds(items, k);
  const extraParts = folds(extra, k);
  const look = options.secondLook ?? DEFAULT_SECOND_LOOK;
  const lookRows = look.trees > 0 ? parts.map((held, foldIndex) => [...held, ...(extraParts[foldIndex] ?? [])].flatMap((item) => secondLookRows(item, firstLooks[foldIndex] ?? { weights: {} }))) : [];
  return parts.map((_, foldIndex) => {
    const first = firstLooks[foldIndex] ?? { weights: {} };
    const secondLook = look.trees > 0 ? fitSecondLook(lookRows.flatMap((rows, index) => (index === foldIndex ? [] : rows)), look) : undefined;
    return withThresholds({ ...first, ...(secondLook === undefined ? {} : { secondLook }) }, foldTraining(items, k, extra, foldIndex), options);
  });
}
