// What EXTRACTION=hybrid costs per answer, from the dev set's answers and the service's own price table:
//   npx tsx scripts/extraction/second-opinion-cost.ts [ITEMS.jsonl]
// Input tokens are the budget's upper-bound estimate of the real prompt (bytes / 3 + 16); output tokens
// assume the model lists the gold names as JSON (about 4 characters a token). Prices: DEFAULT_MODEL_PRICES.

import { readFileSync } from 'node:fs';
import { createPriceTable, DEFAULT_EXTRACTION_MODELS, estimateInputTokens } from '@visibility/core';
import { secondOpinionPrompt } from '@visibility/core/extraction';

const path = process.argv[2] ?? 'dev-data/extraction-dev/items.jsonl';
const items = readFileSync(path, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as { answer: string; gold: string[][] });

const prices = createPriceTable();
const inputs = items.map((item) => estimateInputTokens(secondOpinionPrompt(item.answer)));
const sortedInputs = [...inputs].sort((left, right) => left - right);
const outputs = items.map((item) => Math.ceil(JSON.stringify({ brands: item.gold.map((aliases) => aliases[0]) }).length / 4));
const median = (values: number[]): number => values[Math.floor(values.length / 2)] ?? 0;
const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

console.log(`${items.length} answers: input tokens median ${median(sortedInputs)}, max ${sortedInputs[sortedInputs.length - 1]}; output tokens mean ${mean(outputs).toFixed(0)}`);
for (const model of Object.values(DEFAULT_EXTRACTION_MODELS)) {
  const costs = items.map((_, index) => prices.costMicroUsd(model, { inputTokens: inputs[index] ?? 0, outputTokens: outputs[index] ?? 0 }));
  const perAnswer = mean(costs) / 1_000_000;
  console.log(`${model}: $${perAnswer.toFixed(6)} per answer, $${(perAnswer * 1000).toFixed(3)} per 1000 answers`);
}
