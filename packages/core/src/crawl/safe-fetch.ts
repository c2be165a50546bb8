import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { mappedOrigin, type CrawlHostMap } from './host-map.js';
import { checkCrawlUrl } from './normalize-website.js';
import { createGuardedLookup } from './connect-guard.js';
import { isIpLiteral, nonPublicAddressReason, systemLookup, type HostLookup } from './public-host.js';
import { BROWSER_USER_AGENT } from './user-agents.js';

export const DEFAULT_FETCH_TIMEOUT_MS = 8_000;
export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_MAX_BYTES = 1_500_000;

export type SafeFetchErrorCode =
  /** The URL (or a redirect's Location) could not be parsed. */
  | 'invalid_url'
  /** Refused before any connection: scheme, credentials, or a non-public host name or IP literal. */
  | 'blocked_host'
  /** The host resolved to a non-public address when the connection was made. */
  | 'blocked_address'
  | 'dns_failed'
  | 'too_many_redirects'
  | 'timeout'
  /** The caller's signal (the crawl deadline) ended the fetch. */
  | 'aborted'
  | 'network_error';

/** Why a safe fetch produced no response; `code` is what callers branch on. */
export class SafeFetchError extends Error {
  override readonly name = 'SafeFetchError';
  constructor(
    readonly code: SafeFetchErrorCode,
    message: string,
    readonly url: string,
  ) {
    super(message);
  }
}

export interface SafeFetchOptions {
  /** CRAWL_HOST_MAP: these hosts are fetched from the mapped origin, with the original Host header. */
  hostMap?: CrawlHostMap | undefined;
  /** Resolver for every connection to an unmapped host; defaults to the system resolver. */
  lookup?: HostLookup | undefined;
  userAgent?: string | undefined;
  /** Bound on the whole fetch, redirects included. */
  timeoutMs?: number | undefined;
  maxRedirects?: number | undefined;
  /** Bytes of body read (after decompression) before reading stops and the response is marked truncated. */
  maxBytes?: number | undefined;
  /** Aborts the fetch (the crawl deadline). */
  signal?: AbortSignal | undefined;
}

export interface SafeResponse {
  /** The final URL, after redirects, as the site spells it (never the mapped origin). */
  url: string;
  status: number;
  headers: Readonly<Record<string, string>>;
  /** The media type, lower-cased, without parameters; undefined when the server sent none. */
  contentType: string | undefined;
  /** The decoded body; undefined when the content type or encoding is not one the crawler reads. */
  body: string | undefined;
  /** Body bytes kept (after decompression). */
  bytes: number;
  /** True when the body was longer than `maxBytes` and reading stopped there. */
  truncated: boolean;
  /** Every redirect hop followed, in order. */
  redirects: readonly string[];
}

/** Media types whose bodies the crawler reads: pages, plain text (robots, llms.txt) and XML (sitemaps). */
export function isReadableContentType(contentType: string | undefined): boolean {
  // A missing type is read too (robots.txt is often served without one); the byte cap still applies.
  if (contentType === undefined) return true;
  return (
    contentType === 'text/html' ||
    contentType === 'text/plain' ||
    contentType === 'application/xhtml+xml' ||
    contentType === 'application/xml' ||
    contentType === 'text/xml' ||
    contentType.endsWith('+xml')
  );
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * GETs a URL through the public-host guard: the URL and every redirect hop are re-checked, every address a
 * host resolves to is checked at connect time (so DNS rebinding fails), and time, redirects and bytes are
 * bounded. Hosts in the host map go to their mapped origin instead. Rejects with a SafeFetchError.
 */
export async function safeFetch(input: string | URL, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  let current: URL;
  try {
    current = new URL(input);
  } catch {
    throw new SafeFetchError('invalid_url', 'not a valid URL', String(input));
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort(new SafeFetchError('aborted', 'the crawl deadline ended the fetch', current.href));
  if (options.signal?.aborted) onOuterAbort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const timer = setTimeout(
    () => controller.abort(new SafeFetchError('timeout', `no complete response within ${timeoutMs} ms`, current.href)),
    timeoutMs,
  );
  try {
    const redirects: string[] = [];
    for (;;) {
      const checked = checkCrawlUrl(current, options.hostMap);
      if (!checked.ok) {
        const what = redirects.length === 0 ? 'refused' : 'redirect refused';
        throw new SafeFetchError('blocked_host', `${what}: ${checked.reason}`, current.href);
      }
      const outcome = await requestOnce(current, options, controller.signal);
      if (outcome.kind === 'response') return { ...outcome.response, redirects };
      if (redirects.length >= maxRedirects) {
        throw new SafeFetchError('too_many_redirects', `more than ${maxRedirects} redirects`, current.href);
      }
      let next: URL;
      try {
        next = new URL(outcome.location, current);
      } catch {
        throw new SafeFetchError('invalid_url', `redirect to an invalid URL: ${outcome.location.slice(0, 200)}`, current.href);
      }
      next.hash = '';
      redirects.push(next.href);
      current = next;
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

type HopOutcome = { kind: 'redirect'; location: string } | { kind: 'response'; response: Omit<SafeResponse, 'redirects'> };

/** One request, no redirect following; the URL has already passed `checkCrawlUrl`. */
function requestOnce(url: URL, options: SafeFetchOptions, signal: AbortSignal): Promise<HopOutcome> {
  return new Promise<HopOutcome>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const mapped = mappedOrigin(url, options.hostMap);
    const target = mapped ?? url;
    const hostname = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
    // net.connect skips the lookup for IP literals, so the connect-time check cannot catch them: check here.
    if (mapped === undefined && isIpLiteral(url.hostname)) {
      const reason = nonPublicAddressReason(hostname);
      if (reason !== undefined) {
        reject(new SafeFetchError('blocked_address', `not a public address: ${reason}`, url.href));
        return;
      }
    }
    const guard = createGuardedLookup(options.lookup ?? systemLookup);
    const secure = target.protocol === 'https:';
    const request = (secure ? https : http).request({
      protocol: target.protocol,
      hostname,
      port: target.port === '' ? (secure ? 443 : 80) : Number(target.port),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      // A fresh connection per request: every connection goes through the guarded lookup, none is reused.
      agent: false,
      ...(mapped === undefined ? { lookup: guard.lookup } : {}),
      ...(secure && !isIpLiteral(target.hostname) ? { servername: hostname } : {}),
      headers: {
        Host: url.host,
        'User-Agent': options.userAgent ?? BROWSER_USER_AGENT,
        Accept: 'text/html,application/xhtml+xml,text/plain,application/xml;q=0.9,*/*;q=0.5',
        // Asking for identity keeps decompression out of the common path; a server that compresses anyway
        // is still decoded with the byte cap applied to the output.
        'Accept-Encoding': 'identity',
      },
    });
    let response: IncomingMessage | undefined;
    let settled = false;
    const finish = (action: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      action();
    };
    const onAbort = (): void => {
      finish(() => reject(signal.reason));
      request.destroy();
      response?.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish(() => {
        const lookupFailure = guard.failure();
        if (lookupFailure?.code === 'blocked') reject(new SafeFetchError('blocked_address', lookupFailure.reason, url.href));
        else if (lookupFailure !== undefined) reject(new SafeFetchError('dns_failed', lookupFailure.reason, url.href));
        else if (signal.aborted) reject(signal.reason);
        else reject(new SafeFetchError('network_error', `${error.code ?? 'error'}: ${error.message}`, url.href));
      });
    });
    request.on('response', (incoming) => {
      response = incoming;
      const status = incoming.statusCode ?? 0;
      const location = incoming.headers.location;
      if (REDIRECT_STATUSES.has(status) && typeof location === 'string' && location !== '') {
        incoming.destroy();
        finish(() => resolve({ kind: 'redirect', location }));
        return;
      }
      const headers = flattenHeaders(incoming);
      const contentType = headers['content-type']?.split(';')[0]?.trim().toLowerCase() || undefined;
      const base = { url: url.href, status, headers, contentType };
      const decoded = isReadableContentType(contentType) ? decodingStream(incoming, headers['content-encoding']) : undefined;
      if (decoded === undefined) {
        // Not a type (or encoding) the crawler parses: the body is never read.
        incoming.destroy();
        finish(() => resolve({ kind: 'response', response: { ...base, body: undefined, bytes: 0, truncated: false } }));
        return;
      }
      readBounded(incoming, decoded, options.maxBytes ?? DEFAULT_MAX_BYTES).then(
        ({ bytes, truncated }) =>
          finish(() =>
            resolve({
              kind: 'response',
              response: { ...base, body: decodeText(bytes, headers['content-type']), bytes: bytes.length, truncated },
            }),
          ),
        (error: unknown) =>
          finish(() =>
            reject(
              signal.aborted
                ? signal.reason
                : new SafeFetchError('network_error', `reading the body failed: ${error instanceof Error ? error.message : String(error)}`, url.href),
            ),
          ),
      );
    });
    request.end();
  });
}

function flattenHeaders(incoming: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The stream the body is read from (decompressing when needed), or undefined for an encoding we do not read. */
function decodingStream(incoming: IncomingMessage, contentEncoding: string | undefined): Readable | undefined {
  const encoding = (contentEncoding ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || encoding === '') return incoming;
  if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate') return incoming.pipe(zlib.createUnzip());
  if (encoding === 'br') return incoming.pipe(zlib.createBrotliDecompress());
  return undefined;
}

/**
 * Reads at most `maxBytes` of the (decoded) body and then stops, destroying the connection: a huge page
 * or a compression bomb costs at most the cap in memory.
 */
function readBounded(raw: IncomingMessage, decoded: Readable, maxBytes: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const stop = (truncated: boolean): void => {
      if (done) return;
      done = true;
      raw.destroy();
      if (decoded !== raw) decoded.destroy();
      resolve({ bytes: Buffer.concat(chunks, total), truncated });
    };
    if (decoded !== raw) {
      // The compressed input is bounded too, so a slow trickle of compressed data cannot run on unread.
      let rawTotal = 0;
      raw.on('data', (chunk: Buffer) => {
        rawTotal += chunk.length;
        if (rawTotal > maxBytes) stop(true);
      });
    }
    decoded.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = maxBytes - total;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        total += room;
        stop(true);
        return;
      }
      chunks.push(chunk);
      total += chunk.length;
    });
    decoded.on('end', () => {
      if (done) return;
      done = true;
      resolve({ bytes: Buffer.concat(chunks, total), truncated: false });
    });
    const onError = (error: Error): void => {
      if (done) return;
      done = true;
      reject(error);
    };
    decoded.on('error', onError);
    raw.on('error', onError);
    raw.on('close', () => {
      if (!raw.complete) onError(new Error('the connection closed before the body ended'));
    });
  });
}

/** Decodes body bytes with the charset the server declared (or a `<meta charset>`), falling back to UTF-8. */
function decodeText(bytes: Buffer, contentTypeHeader: string | undefined): string {
  const declared = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentTypeHeader ?? '')?.[1];
  const sniffed = declared ?? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(bytes.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(sniffed ?? 'utf-8').decode(bytes);
  } catch {
    // An unknown label: UTF-8 is right for most of the web and never throws.
    return new TextDecoder('utf-8').decode(bytes);
  }
}
