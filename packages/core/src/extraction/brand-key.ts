// Keys for comparing brand names written in different ways ("HubSpot", "Hub Spot", "hubspot's").

const MARKS = /[\u00AE\u2122\u2120\u00A9]/gu;
const LEGAL_SUFFIX = /\s+(?:inc|llc|ltd|corp|co|gmbh|plc|ag|s a|s l|sa de cv|s a de c v)$/u;
const CONNECTOR_TOKENS = new Set(['for', 'of', 'by', 'with', 'and', '&', 'de', 'del', 'y', 'para', 'con']);

const MAX_CACHED_KEYS = 20_000;
// The extractor asks for the same few keys many times per answer; caching them keeps it fast.
const keyCache = new Map<string, string>();

/** Case-folds and strips diacritics, ®/™, possessives, punctuation and a trailing Inc/LLC/Ltd: "acme vista 7". */
export function normalizeBrandKey(name: string): string {
  const cached = keyCache.get(name);
  if (cached !== undefined) return cached;
  const key = computeKey(name);
  if (keyCache.size >= MAX_CACHED_KEYS) keyCache.clear();
  keyCache.set(name, key);
  return key;
}

function computeKey(name: string): string {
  let value = name
    .replace(MARKS, '')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[\u2018\u2019\u02BC\u2032`]/gu, "'")
    .replace(/[\u2010-\u2015\u2212]/gu, '-')
    .toLowerCase()
    .replace(/'s(?![\p{L}\p{N}])/gu, '')
    .replace(/&/gu, ' & ')
    .replace(/[^\p{L}\p{N}&]+/gu, ' ')
    .trim();
  for (;;) {
    const before = value;
    value = value.replace(LEGAL_SUFFIX, '').replace(/^the\s+/u, '').trim();
    if (value === before) break;
  }
  return value.replace(/\s+/gu, ' ');
}

/** The key without spaces, so "HubSpot", "Hub Spot" and "hub-spot" compare equal: the dedup key. */
export function compactBrandKey(name: string): string {
  return normalizeBrandKey(name).replace(/[\s&]+/gu, '');
}

/** The key's words. */
export function brandKeyTokens(name: string): string[] {
  const key = normalizeBrandKey(name);
  return key === '' ? [] : key.split(' ');
}

/** The words before the first connector: "Globex DB for Postgres" → ["globex", "db"]. */
export function headKeyTokens(tokens: readonly string[]): string[] {
  const connector = tokens.findIndex((token, index) => index > 0 && CONNECTOR_TOKENS.has(token));
  return connector === -1 ? [...tokens] : tokens.slice(0, connector);
}

/** Index where `part` occurs as a contiguous run inside `whole`, or -1. */
export function indexOfTokens(whole: readonly string[], part: readonly string[]): number {
  if (part.length === 0 || part.length > whole.length) return -1;
  for (let start = 0; start + part.length <= whole.length; start += 1) {
    let same = true;
    for (let offset = 0; offset < part.length; offset += 1) {
      if (whole[start + offset] !== part[offset]) {
        same = false;
        break;
      }
    }
    if (same) return start;
  }
  return -1;
}
