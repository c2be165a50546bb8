// A separate OS process reserving against one shared budget, to prove the cap holds across processes.
// Usage: node --import tsx reserve-worker.ts <dataDir> <attempts> <capUsd> <startAtMs>
import { openStore } from '../../store/store.js';
import { createBudget } from '../budget.js';
import { createPriceTable } from '../prices.js';

const [dataDir, attemptsText, capText, startAtText] = process.argv.slice(2);
if (dataDir === undefined || attemptsText === undefined || capText === undefined || startAtText === undefined) {
  throw new Error('usage: reserve-worker <dataDir> <attempts> <capUsd> <startAtMs>');
}
const store = openStore({ dataDir });
const fixedNow = new Date('2026-03-10T12:00:00Z');
const budget = createBudget(store.budgetRepository, {
  monthlyBudgetUsd: Number(capText),
  // Output only, so every reservation of 1000 output tokens is exactly 1000 micro-dollars.
  prices: createPriceTable({ 'test-model': { input: 0, output: 1 } }),
  now: () => fixedNow,
  // The whole cap for ordinary calls, so the count of grants is exactly cap / estimate.
  degradedReserveFraction: 0,
});
// Spin until the common start moment so the processes really overlap.
while (Date.now() < Number(startAtText)) {
  // busy wait
}
let granted = 0;
let reservedMicroUsd = 0;
for (let attempt = 0; attempt < Number(attemptsText); attempt += 1) {
  const outcome = (await budget.reserve({ provider: 'openai', model: 'test-model', prompt: 'q', maxOutputTokens: 1000 }));
  if (outcome.granted) {
    granted += 1;
    reservedMicroUsd += outcome.reservation.estimateMicroUsd;
  }
}
store.close();
process.stdout.write(`${JSON.stringify({ granted, reservedMicroUsd })}\n`);
