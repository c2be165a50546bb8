export { compareBotAccess } from './bot-access.js';
export type { AccessSample, BotAccess } from './bot-access.js';
export type { CrawlFailureCode, CrawlReport, RobotsReport, SitemapReport, TextFileReport } from './crawl-report.js';
export { crawlSite, DEFAULT_CRAWL_DEADLINE_MS, DEFAULT_MAX_INTERNAL_PAGES } from './crawl-site.js';
export type { CrawlOptions } from './crawl-site.js';
export { createGuardedLookup } from './connect-guard.js';
export type { GuardedLookup, LookupFailure } from './connect-guard.js';
export { mappedOrigin } from './host-map.js';
export type { CrawlHostMap } from './host-map.js';
export { chooseInternalPages } from './internal-links.js';
export { summarizeJsonLd } from './json-ld.js';
export type { JsonLdSummary } from './json-ld.js';
export { detectLanguage, languageFromTag } from './language.js';
export type { LanguageDetection, SiteLanguage } from './language.js';
export { checkCrawlUrl, normalizeWebsite } from './normalize-website.js';
export type { NormalizedWebsite, NormalizeWebsiteOptions, WebsiteCheck } from './normalize-website.js';
export { parsePage } from './page.js';
export type { OpenGraph, PageLink, PageSummary, ParsedPage } from './page.js';
export { checkHostname, isPublicAddress, nonPublicAddressReason, resolvePublicAddresses, systemLookup } from './public-host.js';
export type { AddressCheck, HostCheck, HostLookup, ResolvedAddress } from './public-host.js';
export { AI_CRAWLERS, aiCrawlerAccess, parseRobots, robotsVerdict } from './robots.js';
export type { AiCrawler, AiCrawlerAccess, AiCrawlerPurpose, ParsedRobots, RobotsGroup, RobotsRule, RobotsVerdict } from './robots.js';
export {
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  isReadableContentType,
  safeFetch,
  SafeFetchError,
} from './safe-fetch.js';
export type { SafeFetchErrorCode, SafeFetchOptions, SafeResponse } from './safe-fetch.js';
export { parseSitemap } from './sitemap.js';
export type { ParsedSitemap } from './sitemap.js';
export { BROWSER_USER_AGENT, GPTBOT_USER_AGENT } from './user-agents.js';
export { classifyVertical, VERTICALS } from './vertical.js';
export type { Vertical, VerticalClassification, VerticalInput } from './vertical.js';
