// Extractor throughput, in-process: extractBrands (the built @visibility/core, as the service runs it)
// over a corpus of real answer texts, beside a plain regex tokenization of the same texts measured in
// the same run, alternating. The tokenizer reads every word once and keeps nothing: a floor for any
// extractor that looks at every word, so the ratio says how many such passes one extraction costs.
import { readFileSync } from 'node:fs';
import { extractBrands } from '@visibility/core';

export interface CorpusItem {
  answer: string;
  brand?: string | undefined;
}

export interface ThroughputFigures {
  corpus: string;
  answers: number;
  /** Total UTF-8 size of the corpus. */
  kilobytes: number;
  extractorAnswersPerSecond: number;
  baselineAnswersPerSecond: number;
  /** extractor / baseline. */
  ratio: number;
  /** Per answer, one warm pass each: the mean and the slowest (how long one extraction holds the event loop). */
  meanMsPerAnswer: number;
  /** The median of five warm passes per answer: what one answer of an audit costs. */
  medianMsPerAnswer: number;
  maxMsPerAnswer: number;
  brandsFound: number;
}

/** The extraction dev set: 120 answers with the audited brand each was measured for. */
export function readDevSet(path: string): CorpusItem[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const item = JSON.parse(line) as { answer: string; brand?: string };
      return { answer: item.answer, brand: item.brand };
    });
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’&.+-]*/gu;

function tokenize(items: readonly CorpusItem[]): number {
  let words = 0;
  for (const item of items) {
    for (const _match of item.answer.matchAll(WORD)) words += 1;
  }
  return words;
}

function extractAll(items: readonly CorpusItem[]): number {
  let brands = 0;
  for (const item of items) brands += extractBrands(item.answer, { brand: item.brand }).length;
  return brands;
}

/** Passes over the corpus for about `seconds`; answers per second. */
function rate(items: readonly CorpusItem[], pass: (items: readonly CorpusItem[]) => number, seconds: number): number {
  let answers = 0;
  let sink = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  do {
    sink += pass(items);
    answers += items.length;
  } while (performance.now() < until);
  const elapsed = (performance.now() - started) / 1000;
  if (sink < 0) throw new Error('unreachable');
  return answers / elapsed;
}

export function measureExtractor(corpus: string, items: readonly CorpusItem[], seconds: number, rounds: number): ThroughputFigures {
  if (items.length === 0) throw new Error(`the ${corpus} corpus is empty`);
  // Warm-up: both paths compiled before anything is timed.
  rate(items, extractAll, Math.min(1, seconds));
  rate(items, tokenize, Math.min(0.5, seconds));
  const extractor: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    baseline.push(rate(items, tokenize, seconds / 2));
    extractor.push(rate(items, extractAll, seconds));
  }
  const times = items.map((item) => {
    const passes: number[] = [];
    for (let pass = 0; pass < 5; pass += 1) {
      const started = performance.now();
      extractBrands(item.answer, { brand: item.brand });
      passes.push(performance.now() - started);
    }
    return passes.sort((left, right) => left - right)[2] ?? 0;
  });
  const sorted = [...times].sort((left, right) => left - right);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const extractorAnswersPerSecond = mean(extractor);
  const baselineAnswersPerSecond = mean(baseline);
  return {
    corpus,
    answers: items.length,
    kilobytes: items.reduce((sum, item) => sum + Buffer.byteLength(item.answer), 0) / 1024,
    extractorAnswersPerSecond,
    baselineAnswersPerSecond,
    ratio: extractorAnswersPerSecond / baselineAnswersPerSecond,
    meanMsPerAnswer: mean(times),
    medianMsPerAnswer: sorted[Math.floor(sorted.length / 2)] ?? 0,
    maxMsPerAnswer: Math.max(...times),
    brandsFound: extractAll(items),
  };
}
