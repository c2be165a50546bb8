// Webhook delivery through the crawler's public-host guard: the URL is checked when the watch is saved and
// again at every try, and every address the host resolves to is checked when the connection is made (DNS
// can change between the two). Hosts in CRAWL_HOST_MAP (operator-trusted: staging, tests) go to their
// mapped origin. Redirects are not followed: a receiver answers where it was registered.

import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { createGuardedLookup } from '../crawl/connect-guard.js';
import { mappedOrigin, type CrawlHostMap } from '../crawl/host-map.js';
import { checkCrawlUrl } from '../crawl/normalize-website.js';
import { isIpLiteral, nonPublicAddressReason, systemLookup, type HostLookup } from '../crawl/public-host.js';

export const WEBHOOK_EVENT = 'visibility.change';
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_WEBHOOK_URL_LENGTH = 500;

export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** Whether a webhook URL may be used: absolute http(s), no credentials, a public (or mapped) host. */
export function checkWebhookUrl(input: string, hostMap?: CrawlHostMap): WebhookUrlCheck {
  if (input.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, reason: `the URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  const checked = checkCrawlUrl(url, hostMap);
  if (!checked.ok) return checked;
  if (mappedOrigin(url, hostMap) === undefined && isIpLiteral(url.hostname)) {
    const reason = nonPublicAddressReason(url.hostname.replace(/^\[|\]$/g, ''));
    if (reason !== undefined) return { ok: false, reason: `not a public address: ${reason}` };
  }
  url.hash = '';
  return { ok: true, url: url.href };
}

/** `sha256=<hex HMAC-SHA256 of the body with the watch's secret>`: the X-Visibility-Signature header. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

export interface WebhookPostOptions {
  hostMap?: CrawlHostMap | undefined;
  lookup?: HostLookup | undefined;
  timeoutMs?: number | undefined;
}

export type WebhookPostResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/** POSTs one JSON body; 2xx is delivered, anything else (3xx included) or a refused/failed connection is not. */
export function postWebhook(target: string, body: string, headers: Record<string, string>, options: WebhookPostOptions = {}): Promise<WebhookPostResult> {
  const checked = checkWebhookUrl(target, options.hostMap);
  if (!checked.ok) return Promise.resolve({ ok: false, status: null, error: `refused: ${checked.reason}` });
  const url = new URL(checked.url);
  const mapped = mappedOrigin(url, options.hostMap);
  const destination = mapped ?? url;
  const secure = destination.protocol === 'https:';
  const hostname = destination.hostname.replace(/^\[|\]$/g, '');
  const guard = createGuardedLookup(options.lookup ?? systemLookup);
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: WebhookPostResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (secure ? https : http).request({
      protocol: destination.protocol,
      hostname,
      port: destination.port === '' ? (secure ? 443 : 80) : Number(destination.port),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      agent: false,
      ...(mapped === undefined ? { lookup: guard.lookup } : {}),
      ...(secure && !isIpLiteral(destination.hostname) ? { servername: hostname } : {}),
      headers: {
        Host: url.host,
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
        'User-Agent': 'AI-Visibility-Webhook/1.0',
        ...headers,
      },
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, status: null, error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const refused = guard.failure();
      finish({ ok: false, status: null, error: refused !== undefined ? `refused: ${refused.reason}` : `${error.code ?? 'error'}: ${error.message}` });
    });
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      // The receiver's body is not needed: drained and dropped.
      response.resume();
      response.on('end', () => finish(status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: `the receiver answered ${status}` }));
      response.on('error', () => finish({ ok: false, status, error: 'the answer broke off' }));
    });
    request.end(body);
  });
}
