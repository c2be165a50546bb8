// Finds a given brand in an answer despite case, diacritics, domain forms, possessives, spacing and
// trademark marks. A brand spelt like an everyday word ("Notion", "Zoom", "Monday") is counted only
// where the text uses it as a name, never in "a notion of" or "on Monday morning".

import { brandKeyTokens, compactBrandKey } from './brand-key.js';
import { fold as foldWord } from './knowledge.js';
import { isCalendarWord, isCommonWord, isFunctionWord, isSubjectVerb } from './words.js';

export { compactBrandKey, normalizeBrandKey } from './brand-key.js';

/** One place where the brand is named. */
export interface BrandMatch {
  /** Offset of the match in the searched text. */
  index: number;
  /** The text as written there ("Acme's" is reported as "Acme"). */
  matched: string;
}

export interface BrandMatcherOptions {
  /** Other names for the same brand ("Bob" for HiBob, "AP4" for Acme Planner 4). */
  aliases?: readonly string[];
  /** The brand's domain ("monday.com"); `acme.com` forms of the brand and aliases are found anyway. */
  domain?: string;
  /** Forces (true) or disables (false) the everyday-word caution; by default it is inferred. */
  commonWord?: boolean;
}

export interface BrandMatcher {
  readonly brand: string;
  /** Whether the brand is spelt like an everyday word and so needs name-like use to count. */
  readonly commonWord: boolean;
  find(text: string): BrandMatch | null;
  findAll(text: string): BrandMatch[];
  mentions(text: string): boolean;
  /** Whether an extracted name ("Acme Vista 7", "acme.com") stands for this brand. */
  isSameBrand(name: string): boolean;
}

interface Variant {
  pattern: RegExp;
  /** For each word of the variant, whether the brand writes it with a leading capital. */
  capitalised: boolean[];
  commonWord: boolean;
  calendar: boolean;
}

const MARKS = /[\u00AE\u2122\u2120\u00A9]/u;
const TLD = '(?:com|io|ai|co|app|net|org|dev|so|me|tv|us|uk|es|mx|de|fr|it|ca|au|ar|cl|br|gg|xyz|tech|shop|store|cloud|page|site|studio|ly|to|fm|health|money|travel)(?:\\.[a-z]{2})?';
// Words after a capitalised everyday-word brand that show it is the product: "Zoom call", "Notion page".
const PRODUCT_WORDS = new Set(
  `app apps software platform tool tools crm ai pro plus premium business enterprise teams workspace workspaces
   board boards dashboard account accounts subscription integration integrations extension plugin api cloud
   desktop mobile meeting meetings call calls channel channels page pages template templates doc docs terminal
   reader card pay wallet checkout pos payroll hq website login user users work management automations
   workflows database databases`
    .split(/\s+/u)
    .filter((word) => word !== ''),
);

/** Builds a matcher for one brand and its aliases. */
export function createBrandMatcher(brand: string, options: BrandMatcherOptions = {}): BrandMatcher {
  const names = [brand, ...(options.aliases ?? [])].map((name) => name.trim()).filter((name) => name !== '');
  const domains = new Set<string>();
  if (options.domain !== undefined && options.domain.trim() !== '') domains.add(bareDomain(options.domain));
  const variants: Variant[] = [];
  for (const name of names) {
    const domain = /^(?:https?:\/\/)?(?:www\.)?[\p{L}\p{N}-]+\.[a-z]{2,}/iu.test(name) ? bareDomain(name) : null;
    if (domain !== null) domains.add(domain);
    const base = domain !== null ? (domain.split('.')[0] ?? domain) : name;
    const variant = buildVariant(base, options.commonWord);
    if (variant !== null) variants.push(variant);
  }
  const domainPatterns = [...domains].map(
    (domain) => new RegExp(`(?<![\\p{L}\\p{N}.])(?:https?://)?(?:www\\.)?${escapeRegExp(domain)}(?![\\p{L}\\p{N}])`, 'gu'),
  );
  const keys = new Set(names.map((name) => compactBrandKey(domainLess(name))).filter((key) => key !== ''));
  const tokenLists = names.map((name) => brandKeyTokens(domainLess(name))).filter((tokens) => tokens.length > 0);
  const commonWord = variants.some((variant) => variant.commonWord);

  const findAll = (text: string): BrandMatch[] => {
    const folded = foldWithMap(text);
    const found = new Map<number, BrandMatch>();
    for (const pattern of domainPatterns) {
      for (const match of folded.text.matchAll(pattern)) {
        const start = folded.origin[match.index] ?? 0;
        const end = folded.origin[match.index + match[0].length] ?? text.length;
        found.set(start, { index: start, matched: text.slice(start, end) });
      }
    }
    for (const variant of variants) {
      for (const match of folded.text.matchAll(variant.pattern)) {
        const start = folded.origin[match.index] ?? 0;
        const end = folded.origin[match.index + match[0].length] ?? text.length;
        if (found.has(start)) continue;
        const isDomainForm = match[1] !== undefined || match[2] !== undefined;
        if (isDomainForm || isNameUse(text, start, end, variant)) {
          found.set(start, { index: start, matched: text.slice(start, end).replace(/['’]s$|[\u00AE\u2122\u2120\u00A9]+$/gu, '') });
        }
      }
    }
    return [...found.values()].sort((left, right) => left.index - right.index);
  };

  return {
    brand,
    commonWord,
    findAll,
    find: (text) => findAll(text)[0] ?? null,
    mentions: (text) => findAll(text).length > 0,
    isSameBrand: (name) => {
      const compact = compactBrandKey(domainLess(name));
      if (compact === '') return false;
      if (keys.has(compact) || domains.has(bareDomain(name))) return true;
      const tokens = brandKeyTokens(domainLess(name));
      const distinctive = !tokens.every((token) => isCommonWord(token));
      // A product named after its maker ("Acme Vista 7" for Acme), or a short form of the brand.
      return tokenLists.some(
        (brandTokens) => startsWithTokens(tokens, brandTokens) || (distinctive && startsWithTokens(brandTokens, tokens)),
      );
    },
  };
}

/** The 1-based position of the first item naming the brand, or null when none does. */
export function positionInList(items: readonly string[], matcher: BrandMatcher): number | null {
  const index = items.findIndex((item) => matcher.isSameBrand(item));
  return index === -1 ? null : index + 1;
}

function buildVariant(name: string, commonWordOption: boolean | undefined): Variant | null {
  const cleaned = name.replace(new RegExp(MARKS.source, 'gu'), '').replace(/[\s,]+(?:inc|llc|ltd|corp)\.?$/iu, '').trim();
  // Split at spaces, hyphens and case changes, so "HubSpot" also finds "Hub Spot" and "hub-spot".
  const words = cleaned
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, (_all, letter1, digit1, digit2, letter2) =>
      letter1 !== undefined ? `${letter1} ${digit1}` : `${digit2} ${letter2}`,
    )
    .split(/[\s\-_.]+/u)
    .filter((word) => word !== '');
  const folded = words.map((word) => foldWord(word).replace(/[^\p{L}\p{N}&'+]/gu, '')).filter((word) => word !== '');
  if (folded.length === 0) return null;
  const body = folded.map(escapeRegExp).join('[\\s\\-]?');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(https?://|www\\.)?${body}(\\.${TLD})?(?![\\p{L}\\p{N}])`, 'gu');
  const spokenWords = cleaned.split(/[\s\-_]+/u).filter((word) => word !== '');
  const allCommon = spokenWords.every((word) => isCommonWord(word) || isFunctionWord(word));
  const distinctive = /\p{Ll}\p{Lu}|\p{N}/u.test(cleaned);
  return {
    pattern,
    capitalised: spokenWords.map((word) => /^\p{Lu}/u.test(word)),
    commonWord: commonWordOption ?? (allCommon && !distinctive),
    calendar: spokenWords.length === 1 && isCalendarWord(spokenWords[0] ?? ''),
  };
}

// Decides whether an everyday-word brand is used as a name at this spot.
function isNameUse(text: string, start: number, end: number, variant: Variant): boolean {
  if (!variant.commonWord) return true;
  const written = text.slice(start, end).replace(/['’]s$/u, '');
  const writtenWords = written.split(/[\s-]+/u).filter((word) => word !== '');
  const casedLikeBrand =
    /^[^\p{Ll}]+$/u.test(written) ||
    variant.capitalised.every((capital, index) => !capital || /^\p{Lu}/u.test(writtenWords[index] ?? ''));
  const brandIsLowercase = variant.capitalised.every((capital) => !capital);
  if (isStructuralSpot(text, start, end)) return casedLikeBrand || brandIsLowercase;
  if (!casedLikeBrand || brandIsLowercase) return false;
  const after = text.slice(end, end + 40);
  const nextWord = /^(?:['’]s)?\s+([\p{L}'’]+)/u.exec(after)?.[1] ?? '';
  if (nextWord !== '' && PRODUCT_WORDS.has(foldWord(nextWord))) return true;
  if (variant.calendar) return isCoordinatedWithName(text, start, end);
  if (!isSentenceStart(text, start)) return true;
  if (/^['’]s\b/u.test(after)) return true;
  if (nextWord !== '' && isSubjectVerb(nextWord)) return true;
  return isCoordinatedWithName(text, start, end);
}

// Inside bold, a link, a heading, a table cell, or at the head of a list item.
function isStructuralSpot(text: string, start: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEndRaw = text.indexOf('\n', end);
  const lineEnd = lineEndRaw === -1 ? text.length : lineEndRaw;
  const line = text.slice(lineStart, lineEnd);
  const before = text.slice(lineStart, start);
  const after = text.slice(end, lineEnd);
  if (/^\s{0,3}#{1,6}\s/u.test(line)) return true;
  if (/(\*\*|__)[^*_]*$/u.test(before) && /^[^*_]*(\*\*|__)/u.test(after)) return true;
  if (/\[[^\]]*$/u.test(before) && /^[^\]]*\]\(/u.test(after)) return true;
  if (/\|\s*[*_]*$/u.test(before) && /^[*_'’s]*\s*(\||$)/u.test(after)) return true;
  return /^\s*(?:[-*+•]|\d{1,3}[.)])\s+[*_[]*$/u.test(before);
}

function isSentenceStart(text: string, start: number): boolean {
  let index = start - 1;
  while (index >= 0 && /[\s*_#>"“‘'([]/u.test(text[index] ?? '')) {
    if (text[index] === '\n') return true;
    index -= 1;
  }
  if (index < 0) return true;
  const previous = text[index] ?? '';
  if (/[!?:;—–→|•]/u.test(previous)) return true;
  if (previous === '-') return true;
  if (previous !== '.') return false;
  // "Mr. Zoom" or "e.g. Zoom" do not start a sentence.
  const word = /([\p{L}.]+)\.$/u.exec(text.slice(Math.max(0, index - 6), index + 1))?.[1] ?? '';
  return !/^(?:mr|mrs|ms|dr|st|vs|e\.g|i\.e|approx|incl|no)$/iu.test(word);
}

// "Asana, Monday and ClickUp": next to another capitalised name in a list.
function isCoordinatedWithName(text: string, start: number, end: number): boolean {
  const before = /([\p{Lu}][\p{L}\p{N}.'’-]*)\s*(?:,|\band\b|\bor\b|&|\by\b|\bo\b|\bvs\.?)\s*$/u.exec(text.slice(Math.max(0, start - 40), start));
  const after = /^\s*(?:,|\band\b|\bor\b|&|\by\b|\bo\b|\bvs\.?)\s*([\p{Lu}][\p{L}\p{N}.'’-]*)/u.exec(text.slice(end, end + 40));
  return [before?.[1], after?.[1]].some(
    (word) => word !== undefined && !isFunctionWord(word) && !isCalendarWord(word) && !isCommonWord(word),
  );
}

function startsWithTokens(whole: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length > 0 && prefix.length <= whole.length && prefix.every((token, index) => whole[index] === token);
}

function foldWithMap(text: string): { text: string; origin: number[] } {
  const pieces: string[] = [];
  const origin: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 128) {
      pieces.push(code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : (text[index] ?? ''));
      origin.push(index);
      continue;
    }
    const char = text[index] ?? '';
    if (MARKS.test(char)) continue;
    let replacement = char.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
    if (/[\u2018\u2019\u02BC]/u.test(char)) replacement = "'";
    else if (/[\u2010-\u2015\u2212]/u.test(char)) replacement = '-';
    for (const piece of replacement) {
      pieces.push(piece);
      origin.push(index);
    }
  }
  origin.push(text.length);
  return { text: pieces.join(''), origin };
}

function bareDomain(value: string): string {
  return foldWord(value.trim())
    .replace(/^https?:\/\//u, '')
    .replace(/^www\./u, '')
    .replace(/\/.*$/u, '');
}

function domainLess(name: string): string {
  return /^(?:https?:\/\/)?(?:www\.)?[\p{L}\p{N}-]+\.[a-z]{2,}(?:\.[a-z]{2})?\/?$/iu.test(name.trim())
    ? (bareDomain(name).split('.')[0] ?? name)
    : name;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
