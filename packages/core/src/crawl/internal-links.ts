import type { PageLink } from './page.js';

// Pages that say what the business is, sells and costs: what an assistant needs to recommend it.
const PRIORITY_WORDS: readonly (readonly [RegExp, number])[] = [
  [/pric|precio|tarifa|plans?\b|planes/, 5],
  [/about|sobre|nosotros|quienes|company|empresa/, 4],
  [/product|producto|features?|funcionalidad|caracteristica|características/, 4],
  [/compar|\bvs\b|versus|alternativ/, 4],
  [/solution|solucion|soluciones|service|servicio|use-?cases?|casos/, 2],
  [/customer|cliente|why|por-?que|how-it-works|como-funciona/, 1],
];

// Downloads, assets and account flows say nothing about the business (and may have side effects).
const SKIPPED_PATH = /\.(pdf|jpe?g|png|gif|svg|webp|avif|ico|zip|gz|rar|mp4|mp3|wav|docx?|xlsx?|pptx?|css|js|json|xml|txt|rss)$|\/(log-?in|sign-?in|sign-?up|log-?out|register|cart|checkout|account|my-account|wp-admin|wp-login|cdn-cgi|admin|search|feed)(\/|$)/i;

/** The host without a leading "www.", so www.acme.com and acme.com count as one site. */
export function siteKey(url: URL): string {
  return url.hostname.toLowerCase().replace(/^www\./, '');
}

/**
 * Picks up to `limit` same-site pages linked from the homepage, preferring pricing, about, product,
 * features and comparison pages, then the order they appear in.
 */
export function chooseInternalPages(links: readonly PageLink[], homepageUrl: string, limit: number): string[] {
  const homepage = new URL(homepageUrl);
  const seen = new Set<string>([`${homepage.origin}${trimSlash(homepage.pathname)}`]);
  const candidates: { url: string; score: number; order: number }[] = [];
  links.forEach((link, order) => {
    let url: URL;
    try {
      url = new URL(link.url);
    } catch {
      return;
    }
    if (siteKey(url) !== siteKey(homepage) || SKIPPED_PATH.test(url.pathname)) return;
    const key = `${url.origin}${trimSlash(url.pathname)}`;
    if (seen.has(key)) return;
    seen.add(key);
    const haystack = `${decodeSafely(url.pathname)} ${link.text}`.toLowerCase();
    const score = PRIORITY_WORDS.reduce((total, [pattern, points]) => total + (pattern.test(haystack) ? points : 0), 0);
    // The query string rarely changes what a marketing page says; dropping it avoids crawling filters.
    url.search = '';
    candidates.push({ url: url.href, score, order });
  });
  return candidates
    .sort((left, right) => right.score - left.score || left.order - right.order)
    .slice(0, limit)
    .map((candidate) => candidate.url);
}

function trimSlash(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

function decodeSafely(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}
