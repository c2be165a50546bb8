// Competitors: the request's watch list plus the brands discovered in the answers, counted per provider
// and ranked by how often each was named in an answer that did not name the brand ("named instead").

import { compactBrandKey, createBrandMatcher, type BrandMatcher } from '../extraction/index.js';
import { normalizeWhitespace } from '../measurements/prompts.js';
import type { ProviderId } from '../providers/types.js';
import { isNonCompetitor } from './not-competitors.js';
import type { ProviderSamples } from './sampling.js';
import type { CompetitorCount, RankedCompetitor } from './types.js';

/** At most this many watched competitors are taken from the request (the spec's 220 characters hold about that). */
export const MAX_WATCHED_COMPETITORS = 15;
/** The ranking lists every watched competitor and at most this many entries in all. */
export const MAX_RANKED_COMPETITORS = 20;
/** How many competitors each provider's finding lists. */
export const TOP_COMPETITORS_PER_PROVIDER = 5;

/** Splits the comma-separated watch list, dropping blanks, duplicates and the brand itself. */
export function parseCompetitors(list: string | undefined, brand: string): string[] {
  if (list === undefined) return [];
  const brandMatcher = createBrandMatcher(normalizeWhitespace(brand));
  const seen = new Set<string>();
  const competitors: string[] = [];
  for (const part of list.split(/[,;\n]/u)) {
    const name = normalizeWhitespace(part);
    const key = compactBrandKey(name);
    if (key === '' || seen.has(key) || brandMatcher.isSameBrand(name)) continue;
    seen.add(key);
    competitors.push(name);
    if (competitors.length === MAX_WATCHED_COMPETITORS) break;
  }
  return competitors;
}

interface CompetitorGroup {
  name: string;
  watched: boolean;
  matcher: BrandMatcher;
  /** Order of first appearance, the last tie-breaker: keeps the ranking deterministic. */
  order: number;
  byProvider: Map<ProviderId, { namedInstead: number; mentions: number }>;
}

/** Every competitor named (or watched), with its counts per provider. */
export interface CompetitorTally {
  groups: readonly CompetitorGroup[];
  /** The counts of one provider, best "named instead" first, only competitors it named. */
  forProvider(provider: ProviderId): CompetitorCount[];
  /** Competitor mentions in one provider's successful answers (each competitor once per answer). */
  mentionsFor(provider: ProviderId): number;
}

/**
 * Counts competitors across the answers. Names that stand for the same brand ("Zoho" and "Zoho CRM",
 * "Salesforce" and "Salesforce Sales Cloud") are one competitor, under the watch list's spelling or else
 * the first one seen; names that stand for the audited brand ("Brooks Ghost" for Brooks) are never
 * competitors. Two more kinds of names are left out (unless watched): product lines of another named brand
 * ("Nike … lines like the Pegasus"), which are that brand, not a rival; and, when the category is given,
 * platforms, stores, publishers and technologies that do not compete in it (not-competitors.ts).
 */
export function tallyCompetitors(
  providers: readonly ProviderSamples[],
  brandMatcher: BrandMatcher,
  watched: readonly string[],
  category?: string,
): CompetitorTally {
  const groups: CompetitorGroup[] = watched.map((name, order) => ({
    name,
    watched: true,
    matcher: createBrandMatcher(name),
    order,
    byProvider: new Map(),
  }));
  const products = productLines(providers);
  const resolve = (name: string): CompetitorGroup | null => {
    if (brandMatcher.isSameBrand(name)) return null;
    const existing = groups.find((group) => group.matcher.isSameBrand(name));
    if (existing !== undefined) return existing;
    if (products.has(name) || (category !== undefined && isNonCompetitor(name, category))) return null;
    const created: CompetitorGroup = { name, watched: false, matcher: createBrandMatcher(name), order: groups.length, byProvider: new Map() };
    groups.push(created);
    return created;
  };
  for (const { provider, calls } of providers) {
    for (const call of calls) {
      if (!call.ok) continue;
      const named = new Set<CompetitorGroup>();
      for (const brand of call.brands) {
        const group = resolve(brand);
        if (group !== null) named.add(group);
      }
      for (const group of named) {
        const counts = group.byProvider.get(provider) ?? { namedInstead: 0, mentions: 0 };
        counts.mentions += 1;
        if (!call.named) counts.namedInstead += 1;
        group.byProvider.set(provider, counts);
      }
    }
  }
  return {
    groups,
    forProvider: (provider) =>
      sortCompetitors(
        groups.flatMap((group) => {
          const counts = group.byProvider.get(provider);
          return counts === undefined ? [] : [{ group, namedInstead: counts.namedInstead, mentions: counts.mentions }];
        }),
      ).map(({ group, namedInstead, mentions }) => ({ name: group.name, namedInstead, mentions })),
    mentionsFor: (provider) => groups.reduce((sum, group) => sum + (group.byProvider.get(provider)?.mentions ?? 0), 0),
  };
}

// Between a brand and one of its products in a sentence: "like the", "such as", "'s", "its", "models"…
const PRODUCT_LINK = /(?:\b(?:known|famous|best known) for\b|\bconocid[ao]s? por\b|\blike\b|\bsuch as\b|\bincluding\b|\be\.g\.|\bits\b|\btheir\b|['’]s?\s|\blines?\b|\bmodels?\b|\bcomo\b|\bmodelos?\b|\bl[ií]neas?\b|\bsu\b|\bsus\b)/giu;
// After the link, only a short list of products may come before the name ("like the Pegasus and Vaporfly"), no new clause.
const CLAUSE_BREAK = /\b(?:while|but|whereas|although|mientras|pero|aunque)\b|[;:]/iu;
const MAX_PRODUCT_TAIL = 40;

/** Whether `gap` (the text between a brand and a name) introduces the name as one of that brand's products. */
function linksProduct(gap: string): boolean {
  let lastEnd = -1;
  for (const match of gap.matchAll(PRODUCT_LINK)) lastEnd = (match.index ?? 0) + match[0].length;
  if (lastEnd === -1) return false;
  const tail = gap.slice(lastEnd);
  return tail.length <= MAX_PRODUCT_TAIL && !CLAUSE_BREAK.test(tail);
}

/**
 * Names that only ever appear as a product of another brand the same answer names: in every sentence
 * that mentions them, another named brand comes first and a product link ("like the", "'s", "models")
 * stands between them. "Brooks — comfortable trainers like the Ghost" makes Ghost a product line.
 */
function productLines(providers: readonly ProviderSamples[]): Set<string> {
  const verdict = new Map<string, boolean>();
  for (const { calls } of providers) {
    for (const call of calls) {
      if (!call.ok || call.answer === null) continue;
      const sentences = call.answer.split(/(?<=[.!?])\s+|\n+/u);
      for (const name of call.brands) {
        if (verdict.get(name) === false) continue;
        for (const sentence of sentences) {
          const at = sentence.indexOf(name);
          if (at === -1) continue;
          const owned = call.brands.some((owner) => {
            if (owner === name) return false;
            const ownerAt = sentence.indexOf(owner);
            return ownerAt !== -1 && ownerAt + owner.length <= at && linksProduct(sentence.slice(ownerAt + owner.length, at));
          });
          verdict.set(name, owned && verdict.get(name) !== false);
          if (!owned) break;
        }
      }
    }
  }
  return new Set([...verdict].filter(([, owned]) => owned).map(([name]) => name));
}

/**
 * The audit's competitor ranking (with each one's share of voice, given the brand's own mentions): by answers that named the competitor and not the brand, then by answers
 * naming it at all, then watched before discovered, then first seen. Every watched competitor is listed
 * (with zeros when never named); discovered ones fill the list up to {@link MAX_RANKED_COMPETITORS}.
 */
export function rankCompetitors(tally: CompetitorTally, brandMentions = 0): RankedCompetitor[] {
  const allMentions = brandMentions + allCompetitorMentions(tally);
  const entries = tally.groups.map((group) => {
    let namedInstead = 0;
    let mentions = 0;
    const byProvider: RankedCompetitor['byProvider'] = {};
    for (const [provider, counts] of group.byProvider) {
      namedInstead += counts.namedInstead;
      mentions += counts.mentions;
      byProvider[provider] = { ...counts };
    }
    return { group, namedInstead, mentions, byProvider };
  });
  const ranked = sortCompetitors(entries);
  const room = Math.max(0, MAX_RANKED_COMPETITORS - ranked.filter((entry) => entry.group.watched).length);
  let discovered = 0;
  const kept = ranked.filter((entry) => {
    if (entry.group.watched) return true;
    discovered += 1;
    return discovered <= room;
  });
  return kept.map((entry, index) => ({
    rank: index + 1,
    name: entry.group.name,
    watched: entry.group.watched,
    namedInstead: entry.namedInstead,
    mentions: entry.mentions,
    shareOfVoice: allMentions === 0 ? null : roundShare(entry.mentions / allMentions),
    byProvider: entry.byProvider,
  }));
}

/**
 * "Named instead", the one rule every view uses (report, share page, markdown, mail, CLI, MCP): the
 * competitors named in at least one answer that did not name the brand, in rank order.
 */
export function competitorsNamedInstead<T extends { namedInstead: number }>(competitors: readonly T[]): T[] {
  return competitors.filter((competitor) => competitor.namedInstead > 0);
}

/** Competitor mentions across all answers (each competitor once per answer), every competitor counted, not only the ranked 20. */
export function allCompetitorMentions(tally: CompetitorTally): number {
  return tally.groups.reduce((sum, group) => sum + [...group.byProvider.values()].reduce((inner, counts) => inner + counts.mentions, 0), 0);
}

/**
 * Share of voice, the one definition every view uses: a brand's mentions ÷ all brand mentions (the audited
 * brand's plus every competitor's), each brand counted at most once per answer; null when no brand was named.
 */
export function shareOfVoice(mentions: number, brandMentions: number, competitorMentions: number): number | null {
  const all = brandMentions + competitorMentions;
  return all === 0 ? null : roundShare(mentions / all);
}

function roundShare(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Per-provider view of the tally, trimmed for a finding. */
export function topCompetitorsFor(tally: CompetitorTally, provider: ProviderId, limit = TOP_COMPETITORS_PER_PROVIDER): CompetitorCount[] {
  return tally.forProvider(provider).slice(0, limit);
}

function sortCompetitors<T extends { group: CompetitorGroup; namedInstead: number; mentions: number }>(entries: T[]): T[] {
  return [...entries].sort(
    (left, right) =>
      right.namedInstead - left.namedInstead ||
      right.mentions - left.mentions ||
      Number(right.group.watched) - Number(left.group.watched) ||
      left.group.order - right.group.order,
  );
}
