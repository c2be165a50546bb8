import type { BotAccess } from './bot-access.js';
import type { SiteLanguage, LanguageDetection } from './language.js';
import type { PageSummary } from './page.js';
import type { AiCrawlerAccess } from './robots.js';
import type { Vertical } from './vertical.js';

/** Why a crawl could not read the homepage. */
export type CrawlFailureCode =
  | 'invalid_url'
  | 'blocked_host'
  | 'blocked_address'
  | 'dns_failed'
  | 'too_many_redirects'
  | 'timeout'
  /** The total crawl deadline ran out (or the caller cancelled). */
  | 'deadline'
  | 'network_error'
  /** The homepage answered with a status that is not 2xx. */
  | 'http_error'
  /** The homepage is not an HTML page. */
  | 'not_html'
  /** A bug: caught so the audit degrades instead of failing. */
  | 'internal_error';

export interface RobotsReport {
  url: string | undefined;
  /**
   * present: a robots.txt was read; missing: 4xx (or an HTML page), so everything is allowed;
   * unreachable: 5xx or no answer, which RFC 9309 crawlers treat as "disallow everything";
   * not_fetched: the crawl never got that far.
   */
  status: 'present' | 'missing' | 'unreachable' | 'not_fetched';
  httpStatus: number | null;
  /** Sitemap URLs the file lists. */
  sitemaps: string[];
}

export interface TextFileReport {
  url: string | undefined;
  present: boolean;
  httpStatus: number | null;
  bytes: number;
}

export interface SitemapReport {
  url: string | undefined;
  /** Where the URL came from: a robots.txt `Sitemap:` line, or the conventional /sitemap.xml. */
  source: 'robots' | 'default' | undefined;
  present: boolean;
  httpStatus: number | null;
  kind: 'urlset' | 'index' | undefined;
  /** Pages listed (for an index: child sitemaps listed); undefined when it could not be read. */
  urlCount: number | undefined;
}

/** Everything the crawl learned; `ok: false` means the homepage could not be read, not that nothing was. */
export interface CrawlReport {
  ok: boolean;
  failureCode: CrawlFailureCode | undefined;
  /** Why the crawl failed, in words; undefined when ok. */
  reason: string | undefined;
  /** The website as normalised (or as given, when it could not be). */
  website: string;
  /** The homepage URL after redirects. */
  finalUrl: string | undefined;
  startedAt: string;
  durationMs: number;
  /** Requests made (redirect hops not counted separately). */
  fetches: number;
  homepage: PageSummary | undefined;
  /** Internal pages read, besides the homepage. */
  pages: PageSummary[];
  robots: RobotsReport;
  /** Each AI crawler's robots.txt verdict for "/"; empty when robots.txt was never fetched. */
  aiCrawlers: AiCrawlerAccess[];
  llmsTxt: TextFileReport;
  llmsFullTxt: TextFileReport;
  sitemap: SitemapReport;
  /** schema.org types across all pages read. */
  schemaTypes: string[];
  language: SiteLanguage | undefined;
  languageSource: LanguageDetection['source'];
  botAccess: BotAccess | undefined;
  vertical: Vertical;
  /** The evidence behind `vertical`. */
  verticalSignals: string[];
  /** Non-fatal problems met on the way (a sub-page timing out, an unreadable sitemap, …). */
  problems: string[];
}
