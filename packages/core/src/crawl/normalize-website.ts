import { checkHostname } from './public-host.js';
import { mappedOrigin, type CrawlHostMap } from './host-map.js';

export type WebsiteCheck = { ok: true; url: URL } | { ok: false; reason: string };

export type NormalizedWebsite =
  | { ok: true; url: string }
  /** `invalid_url`: not a URL at all; `blocked_host`: a URL the crawler refuses (scheme, credentials, host). */
  | { ok: false; code: 'invalid_url' | 'blocked_host'; reason: string };

export interface NormalizeWebsiteOptions {
  /** CRAWL_HOST_MAP: hosts listed here skip the public-host check (the one trusted way around it). */
  hostMap?: CrawlHostMap | undefined;
}

// Long enough for any real site address; the REST layer applies its own, tighter, field bound.
const MAX_URL_LENGTH = 2048;

/**
 * Checks a parsed URL the crawler is about to fetch (the start URL and every redirect hop): http(s) only,
 * no credentials, and a host that is mapped or passes the public-host name check. It does not resolve
 * DNS: addresses are checked when the connection is made.
 */
export function checkCrawlUrl(url: URL, hostMap?: CrawlHostMap): WebsiteCheck {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `only http and https URLs are crawled, not ${url.protocol.replace(/:$/, '')}` };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'URLs with credentials (user:pass@) are not accepted' };
  if (url.hostname === '') return { ok: false, reason: 'the URL has no host' };
  if (mappedOrigin(url, hostMap) !== undefined) return { ok: true, url };
  const host = checkHostname(url.hostname);
  return host.ok ? { ok: true, url } : host;
}

/**
 * Turns what a user typed as their website into an absolute https/http URL, or says why it cannot be
 * crawled (the REST layer answers 400 `invalid_website` with the reason).
 */
export function normalizeWebsite(input: string, options: NormalizeWebsiteOptions = {}): NormalizedWebsite {
  const trimmed = input.trim();
  if (trimmed === '') return { ok: false, code: 'invalid_url', reason: 'the website is empty' };
  if (trimmed.length > MAX_URL_LENGTH) return { ok: false, code: 'invalid_url', reason: 'the website address is too long' };
  let candidate = trimmed;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  const hasScheme = scheme !== undefined && (/^[a-z][a-z0-9+.-]*:[\\/]/i.test(trimmed) || !/^[^:]+:\d/.test(trimmed));
  if (!hasScheme) {
    // A bare domain, possibly with a port ("example.com:8080" is a host and port, not a scheme).
    candidate = `https://${trimmed.replace(/^[\\/]+/, '')}`;
  } else if (scheme !== 'http' && scheme !== 'https') {
    // "javascript:", "data:", "mailto:", "file://", … : refused before URL parsing can interpret them.
    return { ok: false, code: 'blocked_host', reason: `only http and https URLs are crawled, not ${scheme}` };
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { ok: false, code: 'invalid_url', reason: 'the website is not a valid URL' };
  }
  const checked = checkCrawlUrl(url, options.hostMap);
  if (!checked.ok) return { ok: false, code: 'blocked_host', reason: checked.reason };
  // The fragment never reaches a server; dropping it keeps stored websites comparable.
  url.hash = '';
  return { ok: true, url: url.href };
}
