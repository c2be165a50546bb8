// Development helper for the dev-set scorer (dev-data/extraction-dev/score.mjs) for EXTRACTION=hybrid:
// answer on stdin, `--brand X` and `--competitors "A, B"` as flags, the brands as a JSON array on stdout.
//
// Where the opinion comes from:
//   --oracle ITEMS.jsonl [--as-written]  the item's gold list stands in for the model (no network): the
//       ceiling of the verbatim check and the merge. Without --as-written the oracle answers each
//       brand's canonical name (its first alias), as a model that normalises names would; with it, the
//       first alias the answer really writes, as a model that copies would.
//   (no --oracle)  a live model from the environment, exactly as the service builds it: EXTRACTION=hybrid,
//       a provider key, optional EXTRACTION_PROVIDER / EXTRACTION_MODEL; spend counted in a throwaway budget.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBudget } from '../budget/budget.js';
import { withBudget } from '../budget/with-budget.js';
import { loadConfig } from '../config/config.js';
import { createLogger } from '../logging/logger.js';
import { createProvider } from '../providers/create-providers.js';
import type { Provider } from '../providers/types.js';
import { openStore } from '../store/store.js';
import {
  createHybridBrandExtractor,
  findVerbatim,
  SECOND_OPINION_MAX_OUTPUT_TOKENS,
  SECOND_OPINION_TIMEOUT_MS,
  type BrandExtractionRequest,
} from './second-opinion.js';

interface DevItem {
  answer: string;
  gold: string[][];
}

function flagValue(argv: readonly string[], flag: string): string | undefined {
  const index = argv.indexOf(flag);
  if (index !== -1) return argv[index + 1];
  const inline = argv.find((argument) => argument.startsWith(`${flag}=`));
  return inline?.slice(flag.length + 1);
}

/** The gold list as a model's answer: canonical names, or the spelling the answer uses. */
function oracleProvider(itemsPath: string, asWritten: boolean): Provider {
  const items = readFileSync(itemsPath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DevItem);
  return {
    id: 'openai',
    model: 'oracle',
    async ask(request) {
      const item = items.find((candidate) => request.prompt.includes(`<<<ANSWER\n${candidate.answer}\nANSWER>>>`));
      if (item === undefined) throw new Error('the answer is not a dev item');
      const brands = item.gold.map((aliases) => (asWritten ? aliases.find((alias) => findVerbatim(alias, item.answer) !== null) : undefined) ?? aliases[0] ?? '');
      const text = JSON.stringify({ brands });
      return { provider: 'openai', model: 'oracle', text, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, attempts: 1 };
    },
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const brand = flagValue(argv, '--brand');
  const competitors = (flagValue(argv, '--competitors') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const request: BrandExtractionRequest = { ...(brand === undefined ? {} : { brand }), competitors };
  const answer = readFileSync(0, 'utf8');
  const logger = createLogger({ level: 'warn', write: (line) => process.stderr.write(line) });
  const oracle = flagValue(argv, '--oracle');
  if (oracle !== undefined) {
    const extractor = createHybridBrandExtractor({ provider: oracleProvider(oracle, argv.includes('--as-written')), logger });
    process.stdout.write(`${JSON.stringify(await extractor.extract(answer, request))}\n`);
    return;
  }
  const config = loadConfig(process.env);
  if (config.extraction.mode !== 'hybrid') throw new Error('set EXTRACTION=hybrid and a provider key (or pass --oracle ITEMS.jsonl)');
  const dataDir = mkdtempSync(join(tmpdir(), 'visibility-dev-hybrid-'));
  const store = openStore({ dataDir });
  try {
    const budget = createBudget(store.budgetRepository, { monthlyBudgetUsd: config.monthlyBudgetUsd, modelPrices: config.modelPrices });
    const adapter = createProvider(config.extraction.provider, config.extraction.settings, {
      timeoutMs: SECOND_OPINION_TIMEOUT_MS,
      maxOutputTokens: SECOND_OPINION_MAX_OUTPUT_TOKENS,
    });
    const extractor = createHybridBrandExtractor({ provider: withBudget(adapter, budget), logger });
    process.stdout.write(`${JSON.stringify(await extractor.extract(answer, request))}\n`);
    process.stderr.write(`${JSON.stringify({ spentUsd: (await budget.status()).spentUsd, fallbacks: extractor.stats().fallbacks })}\n`);
  } finally {
    store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
