// One child of parallel-folds.ts: fits the first looks of the folds its job file names and writes
// them, by fold, to the output file.
//
//   tsx scripts/extraction/fold-child.ts JOB.json OUT.json

import { readFileSync, writeFileSync } from 'node:fs';
import { type FirstLook, fitFirstLook, foldTraining } from '../../packages/core/src/extraction/fit.js';
import type { FoldJob } from './parallel-folds.js';

const [input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) {
  console.error('usage: tsx scripts/extraction/fold-child.ts JOB.json OUT.json');
  process.exit(2);
}
const job = JSON.parse(readFileSync(input, 'utf8')) as FoldJob;
const looks: Record<number, FirstLook> = {};
for (const fold of job.folds) looks[fold] = fitFirstLook(foldTraining(job.items, job.k, job.extra, fold), job.options);
writeFileSync(output, JSON.stringify(looks));
