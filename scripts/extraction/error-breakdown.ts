// Where the extractor's errors are: every answer of the dev set and the training-only answers is
// read by a model fitted without it (pooled k-fold, as `fit.ts --pooled`), and each miss and each
// extra name is put in one category:
//
//   miss:no_candidate      no candidate reads as the name or part of it (the candidates cannot form it)
//   miss:wrong_span        a candidate overlaps the name but is cut differently ("Acme" for "Acme Cloud Pro")
//   miss:dropped_prose     candidates with the name only in running text, all under the bar for joining
//   miss:dropped_slot      the same with one in a name slot (a list head, heading, cell, bold, link)
//   miss:join_prose/slot   the best one was between the bars: it could only join an entry, and none took it
//   miss:entry_merged      a candidate made an entry, but the entry was reported under another name
//   extra:overlaps_gold    a reported name that overlaps a gold name (cut too long or too short)
//   extra:prose/slot       a reported name that is no brand at all, seen in running text only or in a slot
//
//   npx tsx scripts/extraction/error-breakdown.ts [--folds 5] [--flat] [--show <category prefix>] [--models FILE] [--jobs N]
//
// --flat reads the one-line copies; --show prints each error of the categories that start with the
// prefix, with the item id and the best candidate's probability; --models saves the fold models to
// FILE on the first run and reads them on the next (a pooled fit takes several minutes); --jobs N fits
// the folds in N processes at once (parallel-folds.ts; one per core by default).

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { explainExtraction } from '../../packages/core/src/extraction/extract-brands.js';
import { crossValidatedModels, DEFAULT_FIT, flattenedItem, folds, loadDevItems, scoreItem, scorerKey } from '../../packages/core/src/extraction/fit.js';
import { committedWeights, type ModelWeights } from '../../packages/core/src/extraction/model.js';
import { firstLooksInParallel, jobsOption } from './parallel-folds.js';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const path = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
const all = [...loadDevItems(path('../../dev-data/extraction-dev/items.jsonl')), ...loadDevItems(path('../../dev-data/extraction-train/items.jsonl'))];
const k = Number(option('--folds') ?? 5);
const show = option('--show');
const modelsFile = option('--models');

let models: ModelWeights[];
if (modelsFile !== undefined && existsSync(modelsFile)) {
  models = JSON.parse(readFileSync(modelsFile, 'utf8')) as ModelWeights[];
} else {
  // the committed weights start each fold's fit (the same optimum, fewer Newton steps)
  const options = { ...DEFAULT_FIT, initial: committedWeights().weights };
  models = crossValidatedModels(all, k, options, [], await firstLooksInParallel(all, k, options, [], jobsOption(args)));
  if (modelsFile !== undefined) writeFileSync(modelsFile, JSON.stringify(models));
}

const counts = new Map<string, number>();
const shown: string[] = [];
const count = (category: string, line: string): void => {
  counts.set(category, (counts.get(category) ?? 0) + 1);
  if (show !== undefined && category.startsWith(show)) shown.push(`${category} ${line}`);
};
const where = (slots: readonly string[]): string => (slots.every((slot) => slot === 'prose') ? 'prose' : 'slot');

folds(all, models.length).forEach((held, index) => {
  const model = models[index];
  if (model === undefined) return;
  for (const original of held) {
    const item = args.includes('--flat') ? flattenedItem(original) : original;
    const { brands, candidates } = explainExtraction(item.answer, { model, ...(item.brand === undefined ? {} : { brand: item.brand }) });
    const scored = scoreItem(item, brands);
    for (const miss of scored.misses) {
      const keys = new Set((item.gold.find((entry) => entry[0] === miss) ?? [miss]).map(scorerKey));
      const same = candidates.filter((candidate) => keys.has(scorerKey(candidate.surface)));
      if (same.length === 0) {
        const overlapping = candidates.filter((candidate) => {
          const key = scorerKey(candidate.surface);
          return key !== '' && [...keys].some((alias) => alias.includes(key) || key.includes(alias));
        });
        count(overlapping.length === 0 ? 'miss:no_candidate' : 'miss:wrong_span', `${item.id} ${miss} (read as: ${overlapping.map((candidate) => candidate.surface).join(' | ') || 'nothing'})`);
        continue;
      }
      const best = same.reduce((left, right) => (right.probability > left.probability ? right : left));
      const slots = same.map((candidate) => candidate.slot);
      const category = best.decision === 'dropped' ? `miss:dropped_${where(slots)}` : best.decision === 'join' ? `miss:join_${where(slots)}` : 'miss:entry_merged';
      count(category, `${item.id} ${miss} p=${best.probability.toFixed(2)} ${[...new Set(slots)].join('+')}`);
    }
    for (const extra of scored.extras) {
      const key = scorerKey(extra);
      const overlaps = item.gold.some((entry) => entry.some((alias) => scorerKey(alias).includes(key) || key.includes(scorerKey(alias))));
      const slots = candidates.filter((candidate) => scorerKey(candidate.surface) === key).map((candidate) => candidate.slot);
      count(overlaps ? 'extra:overlaps_gold' : `extra:${where(slots)}`, `${item.id} ${extra}`);
    }
  }
});

for (const [category, value] of [...counts].sort(([left], [right]) => left.localeCompare(right))) console.log(`${category.padEnd(22)} ${value}`);
if (shown.length > 0) console.log(`\n${shown.join('\n')}`);
