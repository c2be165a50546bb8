// Cross-validation folds' first looks fitted in several processes at once. Each fold's first look is
// a fit of its own (seconds of Cholesky and trees, most of a cross-validation's time) and needs
// nothing from the others, so with J jobs this process fits every J-th fold and J - 1 children the
// others; the children are this same code (fold-child.ts) on the same answers and options, so each
// first look is the one `fitFirstLook` gives here, to the last bit (weights and leaves are rounded to
// four decimals, which JSON carries exactly).
//
// Used by fit.ts and error-breakdown.ts (`--jobs N`; the default is one per core).

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DevItem, type FirstLook, type FitOptions, fitFirstLook, foldTraining } from '../../packages/core/src/extraction/fit.js';

/** What a child is given: the answers, the folds and the options (`initial` included). */
export interface FoldJob {
  items: DevItem[];
  extra: DevItem[];
  k: number;
  options: FitOptions;
  /** The folds this child fits. */
  folds: number[];
}

const CHILD = fileURLToPath(new URL('./fold-child.ts', import.meta.url));

/** The jobs asked for with `--jobs N` in `args`, or one per core (at most 8). */
export function jobsOption(args: readonly string[]): number {
  const index = args.indexOf('--jobs');
  const asked = index === -1 ? Math.min(availableParallelism(), 8) : Number(args[index + 1]);
  if (!Number.isInteger(asked) || asked < 1) throw new Error(`--jobs takes a whole number of processes, at least 1 (got ${args[index + 1] ?? 'nothing'})`);
  return asked;
}

/** The k folds' first looks, fitted `jobs` at a time: fold i's is `fitFirstLook(foldTraining(items, k, extra, i), options)`. */
export async function firstLooksInParallel(items: readonly DevItem[], k: number, options: FitOptions, extra: readonly DevItem[], jobs: number): Promise<FirstLook[]> {
  const processes = Math.min(jobs, k);
  const shares = Array.from({ length: processes }, (_, job) => Array.from({ length: k }, (_, fold) => fold).filter((fold) => fold % processes === job));
  const directory = mkdtempSync(join(tmpdir(), 'extraction-folds-'));
  try {
    const children = shares.slice(1).map((share, child) => {
      const input = join(directory, `job-${child}.json`);
      const output = join(directory, `looks-${child}.json`);
      const job: FoldJob = { items: [...items], extra: [...extra], k, options, folds: share };
      writeFileSync(input, JSON.stringify(job));
      return runChild(input, output).then(() => JSON.parse(readFileSync(output, 'utf8')) as Record<string, FirstLook>);
    });
    // this process's share, while the children fit theirs (a child that fails rejects its promise,
    // which is awaited below: nothing is left unhandled meanwhile)
    for (const child of children) child.catch(() => undefined);
    const looks: FirstLook[] = new Array<FirstLook>(k);
    for (const fold of shares[0] ?? []) looks[fold] = fitFirstLook(foldTraining(items, k, extra, fold), options);
    for (const fitted of await Promise.all(children)) for (const [fold, look] of Object.entries(fitted)) looks[Number(fold)] = look;
    return looks;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Runs fold-child.ts on a job file with this process's Node and loader (tsx's flags are in execArgv). */
function runChild(input: string, output: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, CHILD, input, output], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`fold-child.ts exited with ${signal ?? `code ${code}`}`))));
  });
}
