import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIT, type DevItem, fitLogistic, flattenAnswer, folds, loadDevItems, reshapeAnswer, scoreItem, scorerKey, withCitedSources } from './fit.js';
import { extractBrands } from './extract-brands.js';
import { EXTRACTION_DATA_DIR } from './knowledge.js';

const DEV_SET = fileURLToPath(new URL('../../../../dev-data/extraction-dev/items.jsonl', import.meta.url));
const TRAINING_ONLY = fileURLToPath(new URL('../../../../dev-data/extraction-train/items.jsonl', import.meta.url));
const items = loadDevItems(DEV_SET);
const trainingOnly = loadDevItems(TRAINING_ONLY);
const heldOut = loadDevItems(fileURLToPath(new URL('../../../../dev-data/extraction-heldout/items.jsonl', import.meta.url)));

describe('fitting the extractor', () => {
  it('finds the optimum of the penalised log loss, from zero (Newton) and from given weights (the chord method) alike', () => {
    // 10 weights: the factorisation's four-row blocks and the rows left after them are both used
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const truth = [0.5, -1, 2, 0, -0.5, 1.5, -2, 0.8, -0.3];
    const rows = Array.from({ length: 400 }, () => {
      const features = new Map<string, number>([['bias', 1]]);
      let logit = -0.2;
      truth.forEach((weight, index) => {
        const value = random() < 0.4 ? random() * 2 : 0;
        if (value > 0) features.set(`f${index}`, value);
        logit += weight * value;
      });
      return { features, label: (random() < 1 / (1 + Math.exp(-logit)) ? 1 : 0) as 0 | 1 };
    });
    const options = { ...DEFAULT_FIT, l2: 1 };
    const gradientAt = (weights: Readonly<Record<string, number>>): Map<string, number> => {
      const gradient = new Map<string, number>();
      for (const row of rows) {
        let sum = 0;
        for (const [name, value] of row.features) sum += (weights[name] ?? 0) * value;
        const error = 1 / (1 + Math.exp(-sum)) - row.label;
        for (const [name, value] of row.features) gradient.set(name, (gradient.get(name) ?? 0) + error * value);
      }
      for (const [name, value] of gradient) if (name !== 'bias') gradient.set(name, value + options.l2 * (weights[name] ?? 0));
      return gradient;
    };
    const fromZero = fitLogistic(rows, options);
    expect(Object.keys(fromZero)).toHaveLength(10);
    // weights are rounded to four decimals: the gradient is what that rounding leaves, far under one
    // (a wrong factor leaves gradients of several units: the weights start at 0, where they are 10–50)
    expect(Math.max(...[...gradientAt({}).values()].map(Math.abs))).toBeGreaterThan(5);
    for (const value of gradientAt(fromZero).values()) expect(Math.abs(value)).toBeLessThan(0.05);
    const fromElsewhere = fitLogistic(rows, { ...options, initial: Object.fromEntries(Object.keys(fromZero).map((name, index) => [name, index % 2 === 0 ? 1 : -1])) });
    for (const name of Object.keys(fromZero)) expect(Math.abs((fromElsewhere[name] ?? 0) - (fromZero[name] ?? 0))).toBeLessThanOrEqual(1e-4);
  });

  it('scores predictions as the dev set scorer does: aliases, one match per entry, duplicates are errors', () => {
    const item = { id: 'x', answer: '', gold: [['Sony Bravia 7', 'Sony'], ['LG C4', 'LG']] };
    expect(scoreItem(item, ['sony', 'Sony Bravia 7', 'Samsung'])).toMatchObject({ tp: 1, fp: 2, fn: 1 });
    expect(scorerKey('  “Acme™, Inc.” ')).toBe('acme');
  });

  it('keeps every item in exactly one fold', () => {
    const parts = folds(items, 10);
    expect(parts.flat().map((item) => item.id).sort()).toEqual(items.map((item) => item.id).sort());
  });

  it('flattens an answer the way a web-page copy reads', () => {
    expect(flattenAnswer('## Picks\n\n- **Notion** – [docs](https://x.io)\n| a | b |')).toBe('Picks Notion – docs a   b');
  });

  it('reshapes an answer into the other ways picks are written, for training', () => {
    expect(reshapeAnswer('Picks:\n\n1. **Acme** – fast\n- **Globex Pro** — cheap\n- **Weight:** light', 'standing desks')).toBe(
      '## Best Standing desks\n\nPicks:\n\n1. **Acme:** fast\n- **Globex Pro:** cheap\n- **Weight:** light',
    );
    expect(reshapeAnswer('- **Acme** – fast', undefined)).toBe('- **Acme:** fast');
  });
});

describe('cited sources for training', () => {
  it('adds a sources section of three invented publications the answer does not name, the same for the same seed', () => {
    const answer = '- **Acme Desk** – sturdy\n- **Globex Lift** – quiet';
    const shapes = new Set<string>();
    for (const seed of ['dev-001', 'dev-002', 'dev-003', 'dev-004']) {
      const cited = withCitedSources(answer, seed, 'standing desks');
      expect(cited).toBe(withCitedSources(answer, seed, 'standing desks'));
      expect(cited.startsWith(answer)).toBe(true);
      const lines = cited.slice(answer.length).trim().split('\n');
      expect(lines).toHaveLength(4);
      shapes.add(lines[0] ?? '');
      // the publications are labelled as what they are: none is one of the answer's names
      for (const line of lines.slice(1)) expect(line).not.toMatch(/Acme|Globex/u);
    }
    expect(shapes.size).toBeGreaterThan(1);
  });

  it('teaches the model that a sources section cites publications: none is reported', () => {
    const answer = withCitedSources('The **Acme Desk** is the sturdiest pick, and the **Globex Lift** is the quietest [1][2].', 'dev-001', 'standing desks');
    expect(extractBrands(answer)).toEqual(['Acme Desk', 'Globex Lift']);
  });
});

describe('the training-only and held-out answers', () => {
  const words = (text: string): string[] => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
  const sharingRuns = (answers: readonly DevItem[], others: readonly DevItem[]): string[] => {
    const runs = new Set<string>();
    for (const item of others) {
      const list = words(item.answer);
      for (let index = 0; index + 10 <= list.length; index += 1) runs.add(list.slice(index, index + 10).join(' '));
    }
    return answers
      .filter((item) => {
        const list = words(item.answer);
        for (let index = 0; index + 10 <= list.length; index += 1) if (runs.has(list.slice(index, index + 10).join(' '))) return true;
        return false;
      })
      .map((item) => item.id);
  };

  it('are written apart from the dev set: no id and no run of ten words in common', () => {
    const devIds = new Set(items.map((item) => item.id));
    expect([...trainingOnly, ...heldOut].filter((item) => devIds.has(item.id))).toEqual([]);
    expect(sharingRuns([...trainingOnly, ...heldOut], items)).toEqual([]);
  });

  it('keep the held-out answers out of every fit: none is a training answer', () => {
    const trainingIds = new Set(trainingOnly.map((item) => item.id));
    expect(heldOut.length).toBeGreaterThan(0);
    expect(heldOut.filter((item) => trainingIds.has(item.id))).toEqual([]);
    const trainingAnswers = new Set(trainingOnly.map((item) => item.answer));
    expect(heldOut.filter((item) => trainingAnswers.has(item.answer)).map((item) => item.id)).toEqual([]);
    // Writers with the same knowledge quote the same facts ("the first taquería with a Michelin
    // star"): 21 held-out answers share a run of ten words with a training answer, none more than a
    // sentence or two; the README gives the figure without them too. More would mean copying.
    expect(sharingRuns(heldOut, trainingOnly).length).toBeLessThanOrEqual(21);
  });
});

describe('no dev-set phrase in the extractor', () => {
  const terms = JSON.parse(readFileSync(`${EXTRACTION_DATA_DIR}terms.json`, 'utf8')) as Record<string, unknown>;
  const gazetteer = JSON.parse(readFileSync(`${EXTRACTION_DATA_DIR}gazetteer.json`, 'utf8')) as { commonWords: Record<string, string[]> };
  const everyday = new Set(Object.values(gazetteer.commonWords).flat());
  const entries = Object.entries(terms).flatMap(([list, value]) => {
    if (Array.isArray(value)) return value.map((entry) => [list, String(entry)] as const);
    if (typeof value === 'object' && value !== null) {
      return Object.entries(value).flatMap(([cue, words]) => (words as string[]).map((entry) => [`cues.${cue}`, entry] as const));
    }
    return [];
  });
  const goldAliases = new Set(items.flatMap((item) => item.gold.flat()).map(scorerKey));

  // Platforms, stores, review sources and parent companies are context in one answer and the
  // subject in another (Shopify in an e-commerce answer), so only the lists of things that are
  // never a brand are held to this.
  const neverBrands = new Set(['functionWords', 'imperatives', 'labelWords', 'everydayWords', 'calendarWords', 'techTerms', 'placeWords', 'properAdjectives', 'placeSuffixes', 'placePrefixes', 'personTitles', 'businessWords', 'featureNouns', 'subjectVerbs']);

  it('lists no brand of the dev set among things that are never brands, except everyday words', () => {
    const hits = entries.filter(([list, entry]) => (neverBrands.has(list) || list.startsWith('cues.')) && goldAliases.has(scorerKey(entry)) && !(entry.split(/\s+/u).length === 1 && everyday.has(scorerKey(entry))));
    expect(hits).toEqual([]);
  });

  it('copies no phrase of three or more words from a dev answer into a list of words or cues', () => {
    const answers = items.map((item) => item.answer.toLowerCase());
    // named things (a magazine, a standard, a city) are knowledge, not phrasing
    const named = new Set(['platforms', 'integrationPlatforms', 'stores', 'parentCompanies', 'reviewSources', 'techTerms', 'placeWords']);
    const hits = entries.filter(([list, entry]) => !named.has(list) && entry.split(/\s+/u).length >= 3 && answers.some((answer) => answer.includes(entry.toLowerCase())));
    expect(hits).toEqual([]);
  });

  it('names no dev-set brand of two or more words in the extractor code', () => {
    const folder = fileURLToPath(new URL('.', import.meta.url));
    const code = readdirSync(folder)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => readFileSync(`${folder}${file}`, 'utf8').toLowerCase())
      .join('\n');
    const multiWord = [...goldAliases].filter((alias) => alias.includes(' '));
    expect(multiWord.filter((alias) => code.includes(alias))).toEqual([]);
  });
});
