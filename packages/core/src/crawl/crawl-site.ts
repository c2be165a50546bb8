import { setMaxListeners } from 'node:events';
import { compareBotAccess, type AccessSample } from './bot-access.js';
import type { CrawlFailureCode, CrawlReport, RobotsReport, SitemapReport, TextFileReport } from './crawl-report.js';
import { mappedOrigin, type CrawlHostMap } from './host-map.js';
import { chooseInternalPages } from './internal-links.js';
import { detectLanguage } from './language.js';
import { normalizeWebsite } from './normalize-website.js';
import { parsePage, type ParsedPage } from './page.js';
import { isIpLiteral, resolvePublicAddresses, type HostLookup } from './public-host.js';
import { aiCrawlerAccess, AI_CRAWLERS, parseRobots, type AiCrawlerAccess, type ParsedRobots } from './robots.js';
import { DEFAULT_FETCH_TIMEOUT_MS, DEFAULT_MAX_BYTES, DEFAULT_MAX_REDIRECTS, safeFetch, SafeFetchError, type SafeResponse } from './safe-fetch.js';
import { parseSitemap } from './sitemap.js';
import { BROWSER_USER_AGENT, GPTBOT_USER_AGENT } from './user-agents.js';
import { classifyVertical } from './vertical.js';

export const DEFAULT_CRAWL_DEADLINE_MS = 20_000;
export const DEFAULT_MAX_INTERNAL_PAGES = 4;
/** llms-full.txt can be huge and only its presence matters, so less of it is read. */
const LLMS_FULL_MAX_BYTES = 64_000;

export interface CrawlOptions {
  /** CRAWL_HOST_MAP (Config.crawlHostMap): hosts fetched from a trusted origin instead of through the guard. */
  hostMap?: CrawlHostMap | undefined;
  /** DNS resolver for unmapped hosts (tests inject one; defaults to the system resolver). */
  lookup?: HostLookup | undefined;
  /** Bound on each fetch, redirects included. */
  fetchTimeoutMs?: number | undefined;
  /** Bound on the whole crawl; whatever was read by then is reported. */
  deadlineMs?: number | undefined;
  maxRedirects?: number | undefined;
  maxBytes?: number | undefined;
  /** Internal pages read besides the homepage. */
  maxInternalPages?: number | undefined;
  /** The AI crawler imitated by the bot-access probe; GPTBot by default. */
  bot?: { token: string; userAgent: string } | undefined;
  /** Cancels the crawl (it still resolves with a report). */
  signal?: AbortSignal | undefined;
}

type Attempt = { ok: true; response: SafeResponse } | { ok: false; error: SafeFetchError };

/**
 * Crawls a website safely (public hosts only, bounded) and reports what AI crawlers get from it. Never
 * throws: a failure yields `ok: false` with the reason and whatever was read.
 */
export async function crawlSite(website: string, options: CrawlOptions = {}): Promise<CrawlReport> {
  const started = Date.now();
  const report = emptyReport(website, new Date(started).toISOString());
  const deadline = new AbortController();
  // Every concurrent fetch (pages, robots.txt, llms.txt, sitemap, the bot probe) listens on this one signal.
  setMaxListeners(64, deadline.signal);
  const deadlineMs = options.deadlineMs ?? DEFAULT_CRAWL_DEADLINE_MS;
  const timer = setTimeout(() => deadline.abort(new Error(`crawl deadline of ${deadlineMs} ms reached`)), deadlineMs);
  const onCancel = (): void => deadline.abort(options.signal?.reason);
  if (options.signal?.aborted) onCancel();
  options.signal?.addEventListener('abort', onCancel, { once: true });
  try {
    await runCrawl(report, options, deadline.signal);
  } catch (error) {
    // Nothing above should throw; if something does, the audit still gets a report.
    if (report.failureCode === undefined) fail(report, 'internal_error', `crawl failed unexpectedly: ${describe(error)}`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCancel);
  }
  report.durationMs = Date.now() - started;
  return report;
}

async function runCrawl(report: CrawlReport, options: CrawlOptions, signal: AbortSignal): Promise<void> {
  const normalized = normalizeWebsite(report.website, { hostMap: options.hostMap });
  if (!normalized.ok) return fail(report, normalized.code, normalized.reason);
  report.website = normalized.url;
  const start = new URL(normalized.url);

  // An early, friendly refusal for names that resolve privately; the binding check is still the one made at
  // connect time by safeFetch (DNS may answer differently then).
  if (mappedOrigin(start, options.hostMap) === undefined && !isIpLiteral(start.hostname)) {
    const resolved = await beforeDeadline(resolvePublicAddresses(start.hostname, options.lookup), signal);
    if (resolved === undefined) return fail(report, 'deadline', 'the crawl deadline passed while resolving the host');
    if (!resolved.ok) return fail(report, resolved.code === 'blocked' ? 'blocked_address' : 'dns_failed', resolved.reason);
  }

  const fetchOptions = {
    hostMap: options.hostMap,
    lookup: options.lookup,
    timeoutMs: options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    signal,
  };
  const attempt = async (url: string, userAgent = BROWSER_USER_AGENT, maxBytes = fetchOptions.maxBytes): Promise<Attempt> => {
    report.fetches += 1;
    try {
      return { ok: true, response: await safeFetch(url, { ...fetchOptions, userAgent, maxBytes }) };
    } catch (error) {
      const failure = error instanceof SafeFetchError ? error : new SafeFetchError('network_error', describe(error), url);
      return { ok: false, error: failure };
    }
  };

  // Stage 1: the homepage as a browser and as an AI crawler sees it.
  const bot = options.bot ?? { token: 'GPTBot', userAgent: GPTBOT_USER_AGENT };
  const [homepageAttempt, botAttempt] = await Promise.all([attempt(start.href), attempt(start.href, bot.userAgent)]);
  let homepage: ParsedPage | undefined;
  if (!homepageAttempt.ok) {
    fail(report, failureCodeOf(homepageAttempt.error), `homepage: ${homepageAttempt.error.message}`);
    // Nothing more can be learned from a host that is refused, unknown or out of time.
    if (['blocked_host', 'blocked_address', 'dns_failed', 'invalid_url', 'deadline'].includes(report.failureCode ?? '')) return;
  } else {
    const response = homepageAttempt.response;
    report.finalUrl = response.url;
    if (response.status < 200 || response.status > 299) {
      fail(report, 'http_error', `homepage answered ${response.status}`);
    } else if (response.body === undefined || !isHtml(response)) {
      fail(report, 'not_html', `homepage is not an HTML page (${response.contentType ?? 'no content type'})`);
    } else {
      homepage = parsePage(response.body, response.url, response.status, response.truncated);
      report.homepage = homepage.summary;
      if (response.truncated) report.problems.push(`homepage: larger than ${fetchOptions.maxBytes} bytes, only the start was read`);
    }
  }
  report.botAccess = compareBotAccess(accessSample(homepageAttempt, homepage), accessSample(botAttempt, undefined), bot.token);

  // Stage 2: site files at the origin the homepage ended on, and the internal pages, all at once.
  const origin = new URL(report.finalUrl ?? start.href).origin;
  const robotsPromise = attempt(`${origin}/robots.txt`).then((robotsAttempt) => readRobots(report, robotsAttempt, `${origin}/robots.txt`));
  const sitemapPromise = robotsPromise.then(async (robots) => {
    const listed = robots?.sitemaps.map((entry) => absoluteUrl(entry, origin)).find((entry) => entry !== undefined);
    const url = listed ?? `${origin}/sitemap.xml`;
    readSitemap(report, await attempt(url), url, listed === undefined ? 'default' : 'robots');
  });
  const llmsPromise = Promise.all([
    attempt(`${origin}/llms.txt`).then((result) => (report.llmsTxt = textFile(result, `${origin}/llms.txt`))),
    attempt(`${origin}/llms-full.txt`, BROWSER_USER_AGENT, LLMS_FULL_MAX_BYTES).then(
      (result) => (report.llmsFullTxt = textFile(result, `${origin}/llms-full.txt`)),
    ),
  ]);
  const pageUrls = homepage === undefined ? [] : chooseInternalPages(homepage.links, homepage.summary.url, options.maxInternalPages ?? DEFAULT_MAX_INTERNAL_PAGES);
  const pagesPromise = Promise.all(pageUrls.map(async (url) => ({ url, result: await attempt(url) })));
  const [, , , pageResults] = await Promise.all([robotsPromise, sitemapPromise, llmsPromise, pagesPromise]);

  const internal: ParsedPage[] = [];
  for (const { url, result } of pageResults) {
    if (!result.ok) report.problems.push(`${url}: ${result.error.message}`);
    else if (result.response.status < 200 || result.response.status > 299) report.problems.push(`${url}: answered ${result.response.status}`);
    else if (result.response.body === undefined || !isHtml(result.response)) report.problems.push(`${url}: not an HTML page`);
    else internal.push(parsePage(result.response.body, result.response.url, result.response.status, result.response.truncated));
  }
  report.pages = internal.map((page) => page.summary);

  const allPages = homepage === undefined ? internal : [homepage, ...internal];
  report.schemaTypes = [...new Set(allPages.flatMap((page) => page.summary.jsonLd.types))];
  if (homepage !== undefined) {
    const contentLanguage = homepageAttempt.ok ? homepageAttempt.response.headers['content-language'] : undefined;
    const detected = detectLanguage({ htmlLang: homepage.summary.htmlLang, contentLanguage, text: homepage.text });
    report.language = detected.language;
    report.languageSource = detected.source;
  }
  const classification = classifyVertical({
    schemaTypes: report.schemaTypes,
    headlines: allPages.flatMap(({ summary }) =>
      [summary.title, summary.description, summary.openGraph.title, summary.openGraph.description, ...summary.h1, ...summary.h2].filter(
        (line): line is string => line !== undefined,
      ),
    ),
    text: allPages.map((page) => page.text).join(' '),
  });
  report.vertical = classification.vertical;
  report.verticalSignals = classification.signals;
  if (signal.aborted) report.problems.push('the crawl deadline ended some fetches; the report is partial');
}

function emptyReport(website: string, startedAt: string): CrawlReport {
  const noFile: TextFileReport = { url: undefined, present: false, httpStatus: null, bytes: 0 };
  return {
    ok: true,
    failureCode: undefined,
    reason: undefined,
    website,
    finalUrl: undefined,
    startedAt,
    durationMs: 0,
    fetches: 0,
    homepage: undefined,
    pages: [],
    robots: { url: undefined, status: 'not_fetched', httpStatus: null, sitemaps: [] },
    aiCrawlers: [],
    llmsTxt: { ...noFile },
    llmsFullTxt: { ...noFile },
    sitemap: { url: undefined, source: undefined, present: false, httpStatus: null, kind: undefined, urlCount: undefined },
    schemaTypes: [],
    language: undefined,
    languageSource: undefined,
    botAccess: undefined,
    vertical: 'other',
    verticalSignals: [],
    problems: [],
  };
}

function fail(report: CrawlReport, code: CrawlFailureCode, reason: string): void {
  report.ok = false;
  report.failureCode = code;
  report.reason = reason;
}

function failureCodeOf(error: SafeFetchError): CrawlFailureCode {
  return error.code === 'aborted' ? 'deadline' : error.code;
}

/** The promise's value, or undefined as soon as the signal aborts (a hung resolver must not outlive the deadline). */
function beforeDeadline<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function absoluteUrl(value: string, base: string): string | undefined {
  try {
    return new URL(value, base).href;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Servers that mislabel (or omit) the type still count when the body plainly is markup. */
function isHtml(response: SafeResponse): boolean {
  if (response.contentType === 'text/html' || response.contentType === 'application/xhtml+xml') return true;
  return response.contentType === undefined && looksLikeHtml(response.body ?? '');
}

function looksLikeHtml(body: string): boolean {
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(body);
}

function accessSample(attempt: Attempt, parsed: ParsedPage | undefined): AccessSample {
  if (!attempt.ok) return { status: null, title: undefined, bytes: 0, headers: {}, error: attempt.error.message };
  const { response } = attempt;
  // The bot's copy is not parsed in full: its title is all the comparison needs.
  const title = parsed?.summary.title ?? quickTitle(response.body ?? '');
  return { status: response.status, title, bytes: response.bytes, headers: response.headers };
}

/** The first <title>'s text, found with single forward searches (a lazy RegExp is quadratic on hostile input). */
function quickTitle(html: string): string | undefined {
  const open = html.search(/<title[\s>]/i);
  const start = open === -1 ? -1 : html.indexOf('>', open);
  if (start === -1) return undefined;
  const closer = /<\/title/gi;
  closer.lastIndex = start;
  const end = closer.exec(html)?.index;
  return end === undefined ? undefined : html.slice(start + 1, end).replace(/\s+/g, ' ').trim() || undefined;
}

/** Records robots.txt and each AI crawler's verdict; returns the parsed rules when there were any. */
function readRobots(report: CrawlReport, attempt: Attempt, url: string): ParsedRobots | undefined {
  let robots: RobotsReport;
  let parsed: ParsedRobots | undefined;
  if (!attempt.ok) {
    robots = { url, status: 'unreachable', httpStatus: null, sitemaps: [] };
    report.problems.push(`robots.txt: ${attempt.error.message}`);
  } else {
    const { response } = attempt;
    if (response.status >= 200 && response.status <= 299 && response.body !== undefined && !looksLikeHtml(response.body)) {
      parsed = parseRobots(response.body);
      robots = { url: response.url, status: 'present', httpStatus: response.status, sitemaps: parsed.sitemaps };
    } else if (response.status >= 500 || response.status === 429) {
      robots = { url: response.url, status: 'unreachable', httpStatus: response.status, sitemaps: [] };
    } else {
      // 4xx, or a 200 that is really an HTML page (a single-page app answering every path): no rules.
      robots = { url: response.url, status: 'missing', httpStatus: response.status, sitemaps: [] };
    }
  }
  report.robots = robots;
  report.aiCrawlers =
    robots.status === 'unreachable'
      ? // RFC 9309 §2.3.1.4: a crawler that cannot read robots.txt must assume it may crawl nothing.
        AI_CRAWLERS.map((crawler): AiCrawlerAccess => ({ ...crawler, allowed: false, matchedGroup: 'none', rule: undefined }))
      : aiCrawlerAccess(parsed);
  return parsed;
}

function textFile(attempt: Attempt, url: string): TextFileReport {
  if (!attempt.ok) return { url, present: false, httpStatus: null, bytes: 0 };
  const { response } = attempt;
  const body = response.body ?? '';
  // A single-page app answers every path with its HTML shell; that is not an llms.txt.
  const present = response.status >= 200 && response.status <= 299 && body.trim() !== '' && !looksLikeHtml(body) && response.contentType !== 'text/html';
  return { url: response.url, present, httpStatus: response.status, bytes: response.bytes };
}

function readSitemap(report: CrawlReport, attempt: Attempt, url: string, source: 'robots' | 'default'): void {
  const sitemap: SitemapReport = { url, source, present: false, httpStatus: null, kind: undefined, urlCount: undefined };
  if (!attempt.ok) {
    report.problems.push(`sitemap: ${attempt.error.message}`);
  } else {
    const { response } = attempt;
    sitemap.httpStatus = response.status;
    sitemap.url = response.url;
    if (response.status >= 200 && response.status <= 299) {
      const parsed = response.body === undefined ? undefined : parseSitemap(response.body);
      if (parsed !== undefined) {
        sitemap.present = true;
        sitemap.kind = parsed.kind;
        sitemap.urlCount = parsed.urlCount;
      } else if (response.body === undefined && /gzip/.test(response.contentType ?? '')) {
        // A gzipped sitemap exists but is not unpacked: present, count unknown.
        sitemap.present = true;
      } else {
        report.problems.push('sitemap: the response is not a sitemap');
      }
    }
  }
  report.sitemap = sitemap;
}
