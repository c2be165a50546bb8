// Turns an assistant's answer into the ordered, deduplicated list of brands and products it names:
// parse (answer-blocks.ts) → candidates (candidates.ts) → features (features.ts) → a fitted
// logistic model with boosted trees (model.ts) → a second look beside the other candidates
// (second-look.ts) → entries, one per brand or product (entries.ts).

import { readBlocks } from './answer-blocks.js';
import { restoreLineBreaks } from './restore-line-breaks.js';
import { compactBrandKey } from './brand-key.js';
import { readCandidates, type Candidate } from './candidates.js';
import type { Entry } from './entries.js';
import { displayName, entryCoversName, groupMentions } from './entries.js';
import { answerContext, candidateFeatures, guessLanguage, type Features } from './features.js';
import { createBrandMatcher } from './match-brand.js';
import type { Mention } from './mention.js';
import { committedWeights, contributions, modelLogit, sigmoid, type ModelWeights } from './model.js';
import { treesScoreOfNames } from './boost.js';
import { secondLookFeatures } from './second-look.js';

export interface ExtractBrandsOptions {
  /** The audited brand: reported when the answer really names it, never otherwise. */
  brand?: string;
  /** Known competitors, treated like the brand. */
  competitors?: readonly string[];
  /** Weights to decide with (cross-validation passes its own); the committed ones by default. */
  model?: ModelWeights;
  /** Keep the features that drove each decision (for --explain); off on the measurement path. */
  explain?: boolean;
  /**
   * The question asked for brand names ("list the top brands"), so a capitalised name is more
   * likely one than in an answer at large: the model's odds are multiplied by NAMES_EXPECTED_ODDS.
   */
  namesExpected?: boolean;
}

const matchers = new Map<string, ReturnType<typeof createBrandMatcher>>();

/** Brand matchers for hints, kept: an audit asks about the same brand for every answer. */
function matcherFor(hint: string): ReturnType<typeof createBrandMatcher> {
  let matcher = matchers.get(hint);
  if (matcher === undefined) {
    if (matchers.size >= 200) matchers.clear();
    matcher = createBrandMatcher(hint);
    matchers.set(hint, matcher);
  }
  return matcher;
}

/** How much likelier a candidate is to be a brand when the question asked for brand names (prior odds ratio). */
export const NAMES_EXPECTED_ODDS = 4.5;

/** One candidate with the model's verdict, for `extract-brands --explain`. */
export interface CandidateDecision {
  surface: string;
  start: number;
  slot: Candidate['slot'];
  probability: number;
  decision: 'entry' | 'join' | 'dropped';
  /** The features that moved the score most, with their contributions to the log-odds. */
  drivers: Array<[string, number]>;
}

export interface Extraction {
  brands: string[];
  candidates: CandidateDecision[];
}

/** Scored candidates of an answer: what the model is fitted on and decides with. */
export function scoreCandidates(answer: string, brand?: string): Array<{ candidate: Candidate; features: Features }> {
  const text = restoreLineBreaks(answer);
  // restored: a one-line answer whose breaks came back (restoreLineBreaks changed more than line endings)
  const restored = text !== answer && text !== answer.replace(/\r\n?/gu, '\n');
  const language = guessLanguage(text);
  const oneLine = !/[\r\n]/u.test(answer.trim());
  const candidates = readCandidates(readBlocks(text), { language, restored, oneLine });
  const context = answerContext(text, candidates, brand, language);
  return candidates.map((candidate) => ({ candidate, features: candidateFeatures(candidate, context) }));
}

/** The drivers with the second look's share as one more, `second_look`, in order of strength. */
function withSecondLook(drivers: Array<[string, number]>, look: number): Array<[string, number]> {
  const rounded = Math.round(look * 1e4) / 1e4;
  return rounded === 0 ? drivers : [...drivers, ['second_look', rounded] as [string, number]].sort((left, right) => Math.abs(right[1]) - Math.abs(left[1]));
}

/** Lists the brands and products an answer names, in order of first mention, one entry each. */
export function extractBrands(answer: string, options: ExtractBrandsOptions = {}): string[] {
  return decide(answer, scoreCandidates(answer, options.brand), options).brands;
}

/** The extraction with every candidate's decision and the features that drove it. */
export function explainExtraction(answer: string, options: ExtractBrandsOptions = {}): Extraction {
  return decide(answer, scoreCandidates(answer, options.brand), { ...options, explain: true });
}

/** Decides on already scored candidates (cross-validation scores each answer once, decides often). */
export function decide(answer: string, scored: ReadonlyArray<{ candidate: Candidate; features: Features }>, options: ExtractBrandsOptions = {}): Extraction {
  const model = options.model ?? committedWeights();
  const decisions: CandidateDecision[] = [];
  const mentions: Mention[] = [];
  const oneLine = !/[\r\n]/u.test(answer);
  // an answer on one line is read with its own thresholds (docs/extraction.md)
  const { threshold, joinThreshold } = model.oneLine !== undefined && oneLine ? model.oneLine : model;
  // the first look scores every candidate; the second looks at each again beside the others
  const logits = scored.map(({ features }) => modelLogit(features, model));
  const secondLook = model.secondLook !== undefined && model.secondLook.length > 0 ? model.secondLook : undefined;
  const looks = secondLook === undefined ? [] : secondLookFeatures(scored.map(({ candidate }) => candidate), logits.map(sigmoid), oneLine);
  const shift = options.namesExpected === true ? Math.log(NAMES_EXPECTED_ODDS) : 0;
  scored.forEach(({ candidate, features }, index) => {
    const look = secondLook === undefined ? 0 : treesScoreOfNames(looks[index] ?? [], secondLook);
    const probability = sigmoid((logits[index] ?? 0) + look + shift);
    const decision = probability >= threshold ? 'entry' : probability >= joinThreshold ? 'join' : 'dropped';
    decisions.push({
      surface: candidate.surface,
      start: candidate.start,
      slot: candidate.slot,
      probability,
      decision,
      drivers: options.explain === true ? withSecondLook(contributions(features, model), look).slice(0, 8) : [],
    });
    if (decision === 'dropped') return;
    mentions.push({
      surface: candidate.surface,
      start: candidate.start,
      source: candidate.slot === 'prose' ? 'prose' : 'structural',
      verdict: decision === 'entry' ? 'accept' : 'weak',
    });
  });
  const entries = groupMentions(mentions);
  const named: Array<{ name: string; first: number; entry: Entry | null }> = entries.map((entry) => ({
    name: displayName(entry),
    first: entry.first,
    entry,
  }));

  // The hints are found with the brand matcher, so a hinted brand the model missed is still
  // reported where the answer names it, and only there.
  const hints = [options.brand, ...(options.competitors ?? [])].filter(
    (hint): hint is string => hint !== undefined && hint.trim() !== '',
  );
  let text: string | undefined;
  for (const hint of hints) {
    // an entry already standing for the hint needs no search of the text
    if (named.some((item) => item.entry !== null && entryCoversName(item.entry, hint))) continue;
    // the text the candidates' offsets refer to, restored only when a hint must be searched for
    text ??= restoreLineBreaks(answer);
    const match = matcherFor(hint.trim()).find(text);
    if (match === null) continue;
    if (named.some((item) => item.entry !== null && entryCoversName(item.entry, match.matched))) continue;
    named.push({ name: hint.trim(), first: match.index, entry: null });
  }

  const seen = new Set<string>();
  const brands = named
    .sort((left, right) => left.first - right.first)
    .map((item) => item.name)
    .filter((name) => {
      const key = compactBrandKey(name);
      if (key === '' || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  return { brands, candidates: decisions };
}
