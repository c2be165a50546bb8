/** Operator-trusted overrides: lower-cased host (optionally host:port) → origin to fetch it from. */
export type CrawlHostMap = ReadonlyMap<string, string>;

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * The origin a URL's host is mapped to by CRAWL_HOST_MAP, or undefined. A key with a port matches only that
 * port; a key without one matches the host on any port.
 */
export function mappedOrigin(url: URL, hostMap: CrawlHostMap | undefined): URL | undefined {
  if (hostMap === undefined || hostMap.size === 0) return undefined;
  const hostname = url.hostname.toLowerCase().replace(/\.$/, '');
  const port = url.port === '' ? (DEFAULT_PORTS[url.protocol] ?? '') : url.port;
  const origin = hostMap.get(`${hostname}:${port}`) ?? hostMap.get(hostname);
  if (origin === undefined) return undefined;
  try {
    return new URL(origin);
  } catch {
    // parseCrawlHostMap already validated origins; a hand-built map with a bad one simply maps nothing.
    return undefined;
  }
}
