// How often change detection alerts on noise, and how often it catches a real shift: simulated watch
// histories (binomial answers) run through the exact detectChanges the service uses. Seeded, so the figures
// in docs/tracking.md reproduce:  npx tsx scripts/tracking/noise.ts
import { detectChanges, type StoredPoint, type WatchChange } from '../../packages/core/src/tracking/index.js';

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PROVIDERS = ['openai', 'gemini', 'anthropic'] as const;

function binomial(random: () => number, trials: number, rate: number): number {
  let hits = 0;
  for (let index = 0; index < trials; index++) if (random() < rate) hits += 1;
  return hits;
}

function point(runId: string, random: () => number, perProvider: number, rate: (provider: string) => number): StoredPoint {
  const providers: StoredPoint['providers'] = {};
  let named = 0;
  for (const provider of PROVIDERS) {
    const hits = binomial(random, perProvider, rate(provider));
    providers[provider] = { model: 'm', mentionRate: hits / perProvider, low: 0, high: 1, answers: perProvider, named: hits, failed: 0, rank: null };
    named += hits;
  }
  const answers = perProvider * PROVIDERS.length;
  return { runId, at: runId, mode: 'demo', providers, overall: { mentionRate: named / answers, low: 0, high: 1, answers, named }, shareOfVoice: null, topCompetitors: [], costUsd: 0, competitors: [] };
}

/** Runs one history of `runs` runs; the rate may change at `shiftAt`. Returns the changes per run index. */
function history(seed: number, runs: number, perProvider: number, rate: (run: number, provider: string) => number): Array<WatchChange[]> {
  const random = mulberry32(seed);
  const earlier: Array<{ runId: string; point: StoredPoint; changes: WatchChange[] }> = [];
  const out: WatchChange[][] = [];
  for (let run = 0; run < runs; run++) {
    const latest = point(String(run), random, perProvider, (provider) => rate(run, provider));
    const changes = detectChanges({ runId: String(run), at: String(run), point: latest }, [...earlier].reverse());
    earlier.push({ runId: String(run), point: latest, changes });
    out.push(changes);
  }
  return out;
}

const HISTORIES = 2000;
console.log(`Noise: ${HISTORIES} histories of 30 runs, unchanged world, 3 providers`);
for (const perProvider of [10, 30, 60]) {
  for (const base of [0.5, 0.2]) {
    let histories = 0;
    let moreThanOne = 0;
    let total = 0;
    for (let seed = 1; seed <= HISTORIES; seed++) {
      const count = history(seed, 30, perProvider, () => base).reduce((sum, changes) => sum + changes.length, 0);
      total += count;
      if (count > 0) histories += 1;
      if (count > 1) moreThanOne += 1;
    }
    console.log(
      `  ${perProvider} answers per provider per run, rate ${base}: histories with any change ${((100 * histories) / HISTORIES).toFixed(1)}%, with more than one ${((100 * moreThanOne) / HISTORIES).toFixed(1)}%, changes per 30 runs ${(total / HISTORIES).toFixed(3)}`,
    );
  }
}
console.log(`Power: the overall rate falls at run 10 (of 12), ${HISTORIES} histories, detected at run 10 or 11`);
for (const perProvider of [10, 30, 60]) {
  for (const [from, to] of [
    [0.5, 0.4],
    [0.5, 0.35],
    [0.5, 0.3],
    [0.5, 0.2],
    [0.8, 0.5],
  ] as const) {
    let detected = 0;
    for (let seed = 1; seed <= HISTORIES; seed++) {
      const changes = history(seed + 100_000, 12, perProvider, (run) => (run >= 10 ? to : from));
      if ([...(changes[10] ?? []), ...(changes[11] ?? [])].some((change) => change.provider === 'overall' && change.direction === 'down')) detected += 1;
    }
    console.log(`  ${perProvider} answers per provider per run, ${from} -> ${to}: detected in ${((100 * detected) / HISTORIES).toFixed(1)}%`);
  }
}
