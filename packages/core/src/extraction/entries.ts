// Groups mentions into entries, one per brand or product: a maker and its product are one entry
// ("Acme" joins "Acme Vista 7"), two products of one maker are two ("Vista 7", "Vista 7 Pro").

import { brandKeyTokens, compactBrandKey, headKeyTokens, indexOfTokens } from './brand-key.js';
import { isModelTierWord, isPlanSuffix } from './words.js';
import type { Mention } from './mention.js';

interface Form {
  mention: Mention;
  tokens: string[];
  /** The words before a connector ("Globex DB" of "Globex DB for Postgres"). */
  head: string[];
  compact: string;
}

/** One brand or product, with every way the answer wrote it. */
export interface Entry {
  /** One form per distinct spelling, in order of first use. */
  forms: Form[];
  /** How often each spelling (by compact key) was used. */
  uses: Map<string, number>;
  /** The earliest form read from a name slot (list head, heading, table cell, bold, link). */
  structural: Form | undefined;
  first: number;
  /** Every word of every form, to skip entries that share nothing with a new form. */
  words: Set<string>;
}

const MIN_PREFIX_LENGTH = 6;

/** Builds entries from accepted mentions, then lets weak mentions join the entries they belong to. */
export function groupMentions(mentions: readonly Mention[]): Entry[] {
  const entries: Entry[] = [];
  const byKey = new Map<string, Entry>();
  const ordered = [...mentions].sort((left, right) => left.start - right.start);
  const place = (mention: Mention, mayCreate: boolean): void => {
    const form = toForm(mention);
    if (form === null) return;
    const home = byKey.get(form.compact) ?? entries.find((entry) => belongsTo(entry, form));
    if (home !== undefined) {
      addForm(home, form);
      byKey.set(form.compact, home);
    } else if (mayCreate) {
      const entry: Entry = { forms: [], uses: new Map(), structural: undefined, first: form.mention.start, words: new Set() };
      addForm(entry, form);
      entries.push(entry);
      byKey.set(form.compact, entry);
    }
  };
  for (const mention of ordered) if (mention.verdict === 'accept') place(mention, true);
  for (const mention of ordered) if (mention.verdict === 'weak') place(mention, false);
  return entries.sort((left, right) => left.first - right.first);
}

/** The name to report for an entry: its first structural form, else its most used form. */
export function displayName(entry: Entry): string {
  if (entry.structural !== undefined) return entry.structural.mention.surface;
  return bestBy(entry.forms, (form) => (entry.uses.get(form.compact) ?? 0) * 1000 + form.tokens.length);
}

/** Whether a name (a hint such as the audited brand) is one of the entry's forms or its maker or product. */
export function entryCoversName(entry: Entry, name: string): boolean {
  const form = toForm({ surface: name, start: 0, source: 'structural', verdict: 'accept' });
  if (form === null) return false;
  return entry.forms.some(
    (existing) => existing.compact === form.compact || isMakerOf(existing, form) || isMakerOf(form, existing),
  );
}

function bestBy(forms: readonly Form[], score: (form: Form) => number): string {
  let best = forms[0];
  for (const form of forms) if (best === undefined || score(form) > score(best)) best = form;
  return best?.mention.surface ?? '';
}

function toForm(mention: Mention): Form | null {
  const tokens = brandKeyTokens(mention.surface);
  const compact = compactBrandKey(mention.surface);
  return tokens.length === 0 || compact === '' ? null : { mention, tokens, head: headKeyTokens(tokens), compact };
}

function addForm(entry: Entry, form: Form): void {
  entry.first = Math.min(entry.first, form.mention.start);
  if (form.mention.source === 'structural' && entry.structural === undefined) entry.structural = form;
  const uses = entry.uses.get(form.compact) ?? 0;
  entry.uses.set(form.compact, uses + 1);
  if (uses > 0) return;
  entry.forms.push(form);
  for (const token of form.tokens) entry.words.add(token);
}

function belongsTo(entry: Entry, form: Form): boolean {
  if (entry.forms.some((existing) => existing.compact === form.compact)) return true;
  // A one-word form sharing no word with the entry can still be its acronym ("AP4") or a cut-short
  // spelling ("Postgres" for "PostgreSQL"); every other rule needs a shared word.
  if (!form.tokens.some((token) => entry.words.has(token))) {
    return form.tokens.length === 1 && entry.forms.some((existing) => isAbbreviationOf(form, existing) || isAbbreviationOf(existing, form));
  }
  // The bare maker or line joins its product: "Acme" → "Acme Runner 300", "Runner" → "Acme Runner 300".
  if (entry.forms.some((existing) => isMakerOf(form, existing))) return true;
  // The same model with and without its maker: "Vista 7" and "Acme Vista 7".
  if (entry.forms.some((existing) => isSuffixOf(form.tokens, existing.tokens) || isSuffixOf(existing.tokens, form.tokens))) {
    return true;
  }
  // A model named without the words that describe it: "Acme X5" and "Acme X5 Electric" (not "Vista 7 Pro", a tier of its own).
  if (entry.forms.some((existing) => isModelOf(form, existing) || isModelOf(existing, form))) return true;
  // A product joins an entry that so far holds only its maker: "Vista", then "Vista Lite".
  const longest = longestForm(entry);
  if (longest !== undefined && isMakerOf(longest, form)) return true;
  return isPlanOf(form, entry);
}

function longestForm(entry: Entry): Form | undefined {
  let longest: Form | undefined;
  for (const form of entry.forms) if (longest === undefined || form.tokens.length > longest.tokens.length) longest = form;
  return longest;
}

// `short` names the maker or line of `long`: its words appear in long's name part, and it has no model number.
function isMakerOf(short: Form, long: Form): boolean {
  if (short.tokens.length >= long.tokens.length || short.tokens.some((token) => /\d/u.test(token))) return false;
  return indexOfTokens(long.head, short.tokens) !== -1;
}

// `short` ends `long` and carries a model number, so `long` only adds the maker in front.
function isSuffixOf(short: readonly string[], long: readonly string[]): boolean {
  if (short.length >= long.length || !short.some((token) => /\d/u.test(token))) return false;
  return indexOfTokens(long, short) === long.length - short.length;
}

// `short` carries a model number and `long` adds only describing words after it, no number and no tier.
function isModelOf(short: Form, long: Form): boolean {
  if (short.tokens.length >= long.tokens.length || !short.tokens.some((token) => /\d/u.test(token))) return false;
  const at = indexOfTokens(long.head, short.tokens);
  if (at === -1) return false;
  const rest = long.head.slice(at + short.tokens.length);
  return rest.length > 0 && rest.every((token) => !/\d/u.test(token) && !isModelTierWord(token) && !isPlanSuffix(token));
}

function isAbbreviationOf(short: Form, long: Form): boolean {
  return isAcronymOf(short, long) || isTruncationOf(short, long);
}

// "GTS" for "Globex Trade Suite", "AP4" for "Acme Planner 4".
function isAcronymOf(acronym: Form, expansion: Form): boolean {
  const written = acronym.mention.surface.trim();
  if (acronym.tokens.length !== 1 || !/^[\p{Lu}\p{N}]{2,6}$/u.test(written) || expansion.tokens.length < 2) return false;
  const initials = expansion.tokens.map((token) => (/^\d+$/u.test(token) ? token : token.charAt(0))).join('');
  return initials === acronym.compact;
}

// "Postgres" for "PostgreSQL": one word cut short.
function isTruncationOf(short: Form, long: Form): boolean {
  if (short.tokens.length !== 1 || long.tokens.length !== 1 || /\d/u.test(short.compact)) return false;
  const { compact } = short;
  return compact.length >= MIN_PREFIX_LENGTH && long.compact.length > compact.length && long.compact.startsWith(compact);
}

// "Acme One" or "Globex Pro" in prose: a maker's plan, an alias of the maker's entry.
function isPlanOf(form: Form, entry: Entry): boolean {
  if (form.mention.source === 'structural' || form.tokens.length < 2) return false;
  const last = form.tokens[form.tokens.length - 1] ?? '';
  if (!isPlanSuffix(last)) return false;
  const maker = form.tokens.slice(0, -1);
  return entry.forms.some((existing) => existing.tokens.join(' ') === maker.join(' ') || indexOfTokens(existing.head, maker) === 0);
}
