// Fits the extractor's weights on the dev set and reports k-fold cross-validated scores.
//
//   npx tsx scripts/extraction/fit.ts [--folds 10] [--write] [--items dev-data/extraction-dev/items.jsonl]
//                                     [--train dev-data/extraction-train/items.jsonl | --no-train]
//                                     [--heldout dev-data/extraction-heldout/items.jsonl]
//                                     [--min-f1 X] [--min-precision X] [--min-recall X]
//                                     [--min-flattened-f1 X] [--min-bare-f1 X] [--pooled K [--order N]] [--jobs N]
//
// --jobs N fits the cross-validation folds' first looks in N processes at once (parallel-folds.ts;
// the same figures to the last digit); the default is one per core.
//
// --pooled K also reports K-fold cross-validation over the dev set and the training-only answers
// together (940 answers, about 6,000 names): a steadier figure for comparing two versions of the
// extractor than the dev set's 120 alone, which refitting moves by about ±0.005. --order N cuts the
// pooled folds after reordering the answers by a hash of N and their ids (0, the default: in file
// order): a change is worth keeping when it holds on two orders, since a refit moves the pooled
// figure by up to ±0.004 too.
//
// The training-only answers (--train) join every fit and are never scored: the cross-validated
// figure is on the dev set's held-out answers alone. They are cut into the same folds as the dev set,
// so each fold's fit has nine tenths of them and every answer gets a first-look score from a fit that
// did not see it (the second look is fitted on those: fit.ts in packages/core). The script also reports the
// reverse check: a model fitted on the dev set alone, scored on the training-only answers. And it
// scores the held-out answers (--heldout), which no fit ever sees, with the model it writes.
//
// `npm run eval:extraction` runs it with the floors CI holds the extractor to: exit 1 when the
// cross-validated figures fall below them.
//
// --write stores the weights fitted on ALL items in packages/core/data/extraction/weights.json;
// the figure to report is the cross-validated one printed first (training F1 is not a result).
// Without --write, the training fit and the held-out figure are the committed model's.

import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { crossValidate, DEFAULT_FIT, evaluate, fitModel, flattenedItem, loadDevItems, toScores } from '../../packages/core/src/extraction/fit.js';
import { firstLooksInParallel, jobsOption } from './parallel-folds.js';
import type { Tree } from '../../packages/core/src/extraction/boost.js';
import { committedWeights } from '../../packages/core/src/extraction/model.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const index = args.indexOf(name);
  return index === -1 ? fallback : (args[index + 1] ?? fallback);
};
const itemsPath = option('--items', fileURLToPath(new URL('../../dev-data/extraction-dev/items.jsonl', import.meta.url)));
const trainPath = option('--train', fileURLToPath(new URL('../../dev-data/extraction-train/items.jsonl', import.meta.url)));
const heldOutPath = option('--heldout', fileURLToPath(new URL('../../dev-data/extraction-heldout/items.jsonl', import.meta.url)));
const k = Number(option('--folds', '10'));
const items = loadDevItems(itemsPath);
const extra = args.includes('--no-train') ? [] : loadDevItems(trainPath);
const fixed = (value: number): string => value.toFixed(3);
const jobs = jobsOption(args);

const started = performance.now();
// The model fitted on everything: each fold's fit starts from its weights (the same optimum, fewer
// steps). With --write it is fitted here; without, it is the committed one, which fit.refit.test.ts shows a
// refit reproduces (the eval in CI saves the 13-minute fit; the folds are fitted afresh either way).
const writing = args.includes('--write');
const model = writing ? fitModel(items, DEFAULT_FIT, extra) : committedWeights();
const whose = writing ? 'the model fitted on everything above' : 'the committed model';
const cvOptions = { ...DEFAULT_FIT, initial: model.weights };
const cv = crossValidate(items, k, cvOptions, extra, await firstLooksInParallel(items, k, cvOptions, extra, jobs));
console.log(`cross-validated (${k}-fold, ${items.length} items, ${extra.length} training-only answers cut into the same folds, never scored): F1=${fixed(cv.f1)} P=${fixed(cv.precision)} R=${fixed(cv.recall)} tp=${cv.tp} fp=${cv.fp} fn=${cv.fn}`);
console.log(`cross-validated, answers flattened as if copied from a web page: F1=${fixed(cv.flattened.f1)} P=${fixed(cv.flattened.precision)} R=${fixed(cv.flattened.recall)}`);
console.log(`cross-validated, flattened and list numbers lost too: F1=${fixed(cv.bare.f1)} P=${fixed(cv.bare.precision)} R=${fixed(cv.bare.recall)}`);
console.log(`per fold F1: ${cv.perFold.map((fold) => fixed(fold.f1)).join(' ')}`);
if (args.includes('--pooled') && extra.length > 0) {
  const pooledFolds = Number(option('--pooled', '5'));
  const order = Number(option('--order', '0'));
  const all = reordered([...items, ...extra], order);
  // the model above was fitted on these same answers: its weights start every fold
  const pooled = crossValidate(all, pooledFolds, cvOptions, [], await firstLooksInParallel(all, pooledFolds, cvOptions, [], jobs));
  console.log(`pooled (${pooledFolds}-fold over the ${all.length} dev and training-only answers${order === 0 ? '' : `, order ${order}`}): F1=${fixed(pooled.f1)} P=${fixed(pooled.precision)} R=${fixed(pooled.recall)}; flattened F1=${fixed(pooled.flattened.f1)}; without list numbers F1=${fixed(pooled.bare.f1)}`);
}
const training = toScores(evaluate(items, model));
console.log(`training fit of ${whose} (not a result): F1=${fixed(training.f1)} P=${fixed(training.precision)} R=${fixed(training.recall)}; threshold ${model.threshold} (one line: ${model.oneLine?.threshold ?? model.threshold})`);
const heldOutItems = existsSync(heldOutPath) ? loadDevItems(heldOutPath) : [];
if (heldOutItems.length > 0) {
  // answers written apart from everything above and never fitted: the nearest figure to answers nobody here tuned to
  const heldOut = toScores(evaluate(heldOutItems, model));
  const flat = toScores(evaluate(heldOutItems.map(flattenedItem), model));
  console.log(`held-out answers (${heldOutItems.length}, never fitted), scored by ${whose}: F1=${fixed(heldOut.f1)} P=${fixed(heldOut.precision)} R=${fixed(heldOut.recall)}; flattened F1=${fixed(flat.f1)} P=${fixed(flat.precision)} R=${fixed(flat.recall)}`);
}
if (extra.length > 0) {
  // the other way round: fitted on the dev set only, scored on answers written apart from it
  const devOnly = fitModel(items);
  const heldOut = toScores(evaluate(extra, devOnly));
  const flat = toScores(evaluate(extra.map(flattenedItem), devOnly));
  console.log(`fitted on the dev set alone, scored on the ${extra.length} training-only answers: F1=${fixed(heldOut.f1)} P=${fixed(heldOut.precision)} R=${fixed(heldOut.recall)}; flattened F1=${fixed(flat.f1)}`);
}
console.log(`took ${((performance.now() - started) / 1000).toFixed(1)} s`);
const floors: Array<[string, number, number]> = [
  ['F1', Number(option('--min-f1', '0')), cv.f1],
  ['precision', Number(option('--min-precision', '0')), cv.precision],
  ['recall', Number(option('--min-recall', '0')), cv.recall],
  ['flattened F1', Number(option('--min-flattened-f1', '0')), cv.flattened.f1],
  ['F1 without list numbers', Number(option('--min-bare-f1', '0')), cv.bare.f1],
];
for (const [name, floor, value] of floors) {
  if (value < floor) {
    console.error(`cross-validated ${name} ${fixed(value)} is below the floor ${floor}`);
    process.exitCode = 1;
  }
}
if (writing) {
  const out = fileURLToPath(new URL('../../packages/core/data/extraction/weights.json', import.meta.url));
  const data = {
    about: 'Fitted by scripts/extraction/fit.ts on dev-data/extraction-dev/items.jsonl and dev-data/extraction-train/items.jsonl (all items). Do not edit by hand; refit.',
    fit: { ...DEFAULT_FIT, items: items.length, trainingOnlyItems: extra.length, crossValidated: { folds: k, f1: Number(fixed(cv.f1)), precision: Number(fixed(cv.precision)), recall: Number(fixed(cv.recall)), flattenedF1: Number(fixed(cv.flattened.f1)), bareF1: Number(fixed(cv.bare.f1)) } },
    threshold: model.threshold,
    joinThreshold: model.joinThreshold,
    ...(model.oneLine === undefined ? {} : { oneLine: model.oneLine }),
    weights: Object.fromEntries(Object.entries(model.weights).sort(([a], [b]) => a.localeCompare(b))),
  };
  // one line per tree: 300 trees of 127 splits and 128 leaves each would be 40,000 lines otherwise
  const treeLines = (name: string, trees: readonly Tree[] | undefined): string => (trees === undefined ? '' : `,\n "${name}": [\n${trees.map((tree) => `  ${JSON.stringify(tree)}`).join(',\n')}\n ]`);
  writeFileSync(out, `${JSON.stringify(data, null, 1).replace(/\n\}$/u, `${treeLines('trees', model.trees)}${treeLines('secondLook', model.secondLook)}\n}`)}\n`);
  console.log(`wrote ${out}`);
}

/** The answers in an order given by a hash (FNV-1a) of the seed and each id; seed 0 keeps them as they are. */
function reordered<T extends { id: string }>(answers: T[], seed: number): T[] {
  if (seed === 0) return answers;
  const hash = (text: string): number => {
    let value = 2166136261;
    for (const char of text) value = Math.imul(value ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0;
    return value;
  };
  return answers.map((answer) => ({ answer, key: hash(`${seed}:${answer.id}`) })).sort((left, right) => left.key - right.key).map(({ answer }) => answer);
}
