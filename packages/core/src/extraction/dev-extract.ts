// Development helper for the dev-set scorer: answer on stdin, `--brand X` and `--competitors "A, B"`
// as flags, the extracted brands as a JSON array on stdout.

import { readFileSync } from 'node:fs';
import { extractBrands } from './extract-brands.js';

function flagValue(argv: readonly string[], flag: string): string | undefined {
  const index = argv.indexOf(flag);
  if (index !== -1) return argv[index + 1];
  const inline = argv.find((argument) => argument.startsWith(`${flag}=`));
  return inline?.slice(flag.length + 1);
}

const argv = process.argv.slice(2);
const brand = flagValue(argv, '--brand');
const competitors = (flagValue(argv, '--competitors') ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '');
const answer = readFileSync(0, 'utf8');
process.stdout.write(`${JSON.stringify(extractBrands(answer, { ...(brand === undefined ? {} : { brand }), competitors }))}\n`);
