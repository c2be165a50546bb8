import { randomUUID } from 'node:crypto';
import { computeCategoryBenchmark, runAudit, type AuditBudget, type AuditMode, type AuditProgress, type AuditReport } from '../audit/index.js';
import { crawlSite, type CrawlFailureCode, type CrawlHostMap, type CrawlOptions, type CrawlReport } from '../crawl/index.js';
import { normalizeBrandKey } from '../extraction/index.js';
import type { Logger } from '../logging/logger.js';
import type { Mailer } from '../mail/index.js';
import type { MeasurementDependencies } from '../measurements/index.js';
import type { AuditRecord } from '../store/audit-repository.js';
import type { AuditStore } from '../store/ports.js';
import { competitorsNamedInstead } from '../audit/competitors.js';
import { CoreError } from '../errors.js';
import { buildAuditMail, type AuditMailFacts } from './audit-mail.js';
import type { ValidAuditRequest } from './audit-request.js';

/** What starting an audit needs beyond the providers: where it is stored and how its mail goes. */
export interface StartAuditDependencies extends MeasurementDependencies {
  mode: AuditMode;
  /** The monthly budget: whether the audit degrades, and a degraded audit's allowance. */
  budget?: AuditBudget | undefined;
  /** The audits port (SQLite or PostgreSQL). */
  auditRepository: AuditStore;
  mailer: Mailer | undefined;
  baseUrl: string;
  /** The report's own page for an audit (a private signed link); the mail links there when given. */
  reportUrl?: ((auditId: string) => string) | undefined;
  crawlHostMap: CrawlHostMap;
  logger: Logger;
  /** The crawler (tests may pass one with an injected resolver). */
  crawl?: ((website: string, options: CrawlOptions) => Promise<CrawlReport>) | undefined;
  now?: (() => Date) | undefined;
}

/** The audit's progress, with the crawl as the stage before the questions. */
export type StartAuditProgress = AuditProgress | { stage: 'crawl'; completed: number; total: number; label: string };

export interface StartAuditOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((event: StartAuditProgress) => void) | undefined;
  /** Called once before any work that costs (the crawl and the provider calls); the REST layer takes its rate-limit slot here. */
  beforeSpend?: (() => unknown) | undefined;
  /**
   * Spend guard: when the site's host does not resolve, refuses, or never answers, throw
   * SiteUnreachableError before any provider is asked, instead of measuring a site nobody can read.
   */
  refuseUnreachableSite?: boolean | undefined;
}

/** Crawl failures that mean the site itself could not be reached (as opposed to a page that answered badly). */
export const UNREACHABLE_CRAWL_FAILURES: ReadonlySet<CrawlFailureCode> = new Set<CrawlFailureCode>([
  'dns_failed',
  'network_error',
  'timeout',
  'deadline',
  'blocked_address',
  'blocked_host',
  'invalid_url',
]);

/** The website could not be reached at all, so nothing was measured and no provider was asked. */
export class SiteUnreachableError extends CoreError {
  override readonly name = 'SiteUnreachableError';
  declare readonly code: 'site_unreachable';
  constructor(
    readonly website: string,
    readonly failureCode: CrawlFailureCode,
    readonly reason: string,
  ) {
    super('site_unreachable', `The website ${website} could not be reached (${reason}).`, 'Check the website address, or try again once the site answers.');
  }
}

/** A stored audit as the spec's AuditResponse, without the per-caller `rateLimit`. */
export interface StoredAudit extends AuditReport {
  id: string;
  createdAt: string;
}

/** How long a caller waits after store_unavailable: the store is usually back within a minute. */
const STORE_RETRY_AFTER_SECONDS = 60;

/** The audit ran but could not be saved even after one retry: the spec's `store_unavailable`. */
export class StoreUnavailableError extends CoreError {
  override readonly name = 'StoreUnavailableError';
  declare readonly code: 'store_unavailable';
  declare readonly retryAfterSeconds: number;
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('store_unavailable', message, `Retry in a minute (${STORE_RETRY_AFTER_SECONDS} seconds).`, { retryAfterSeconds: STORE_RETRY_AFTER_SECONDS, cause: options.cause });
  }
}

const STORE_RETRY_DELAY_MS = 250;
const MAIL_TIMEOUT_MS = 10_000;

/**
 * startVisibilityAudit: crawl the site, measure, compare with the category, save (one retry), and
 * mail the result when an address was given. A failing crawl or provider degrades the report; only
 * a store that refuses twice fails the call.
 */
export async function startVisibilityAudit(
  dependencies: StartAuditDependencies,
  request: ValidAuditRequest,
  options: StartAuditOptions = {},
): Promise<StoredAudit> {
  const now = dependencies.now ?? (() => new Date());
  await options.beforeSpend?.();
  options.onProgress?.({ stage: 'crawl', completed: 0, total: 1, label: `crawling ${request.website}` });
  const crawl = await (dependencies.crawl ?? crawlSite)(request.website, { hostMap: dependencies.crawlHostMap, signal: options.signal });
  options.onProgress?.({ stage: 'crawl', completed: 1, total: 1, label: crawl.ok ? 'site crawled' : `crawl failed: ${crawl.reason ?? 'unknown'}` });
  if (options.refuseUnreachableSite === true && !crawl.ok && crawl.failureCode !== undefined && UNREACHABLE_CRAWL_FAILURES.has(crawl.failureCode)) {
    throw new SiteUnreachableError(request.website, crawl.failureCode, crawl.reason ?? crawl.failureCode);
  }

  const report = await runAudit(
    dependencies,
    {
      brand: request.brand,
      website: request.website,
      category: request.category,
      competitors: request.competitors,
      location: request.location,
      promptLanguage: request.promptLanguage,
      crawl,
    },
    { signal: options.signal, onProgress: options.onProgress },
  );

  const brandKey = normalizeBrandKey(request.brand);
  const categoryKey = normalizeBrandKey(report.categoryLocalized || request.category);
  const otherScores = await dependencies.auditRepository.latestScoresInCategory(categoryKey, brandKey, dependencies.mode);
  const audit: StoredAudit = {
    id: randomUUID(),
    createdAt: now().toISOString(),
    ...report,
    categoryBenchmark: computeCategoryBenchmark(otherScores),
  };

  await saveWithOneRetry(dependencies, {
    id: audit.id,
    createdAt: audit.createdAt,
    brand: request.brand,
    brandKey,
    website: request.website,
    category: request.category,
    categoryKey,
    email: request.email,
    mode: dependencies.mode,
    measured: audit.audit.measured,
    score: audit.audit.measured ? audit.audit.score : null,
    response: audit as unknown as Record<string, unknown>,
  });

  if (request.email !== undefined && dependencies.mailer !== undefined) await sendResultMail(dependencies, request.email, audit);
  return audit;
}

async function saveWithOneRetry(
  dependencies: StartAuditDependencies,
  record: AuditRecord,
): Promise<void> {
  try {
    await dependencies.auditRepository.insertAudit(record);
    return;
  } catch (firstError) {
    dependencies.logger.warn('saving the audit failed; retrying once', { auditId: record.id, error: firstError });
  }
  await new Promise((resolve) => setTimeout(resolve, STORE_RETRY_DELAY_MS));
  try {
    await dependencies.auditRepository.insertAudit(record);
  } catch (secondError) {
    dependencies.logger.error('saving the audit failed twice', { auditId: record.id, error: secondError });
    throw new StoreUnavailableError('The audit ran but could not be saved.', { cause: secondError });
  }
}

/** Mail never fails the audit: a slow or broken mail server is logged and the response goes out. */
/** What the result mail says about a stored audit: the same figures as every other view. */
export function auditMailFacts(audit: StoredAudit, baseUrl: string, reportUrl: string | undefined): AuditMailFacts {
  return {
    auditId: audit.id,
    brand: audit.audit.brand,
    category: audit.audit.category,
    website: audit.audit.website,
    mode: audit.mode,
    score: audit.audit.measured ? audit.audit.score : null,
    scoreInterval: audit.audit.measured ? audit.audit.scoreInterval : null,
    risk: audit.audit.risk,
    measured: audit.audit.measured,
    providersAnswered: audit.providerFindings.map((finding) => finding.provider),
    providersFailed: audit.providerErrors.map((failure) => failure.provider),
    competitors: competitorsNamedInstead(audit.competitors).map((competitor) => competitor.name),
    nextSteps: audit.personalizedNextSteps.map((step) => step.title),
    baseUrl,
    reportUrl,
  };
}

async function sendResultMail(dependencies: StartAuditDependencies, to: string, audit: StoredAudit): Promise<void> {
  const mail = buildAuditMail(to, auditMailFacts(audit, dependencies.baseUrl, dependencies.reportUrl?.(audit.id)));
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      dependencies.mailer?.send(mail),
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`mail not sent within ${MAIL_TIMEOUT_MS} ms`)), MAIL_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    dependencies.logger.warn('the result mail could not be sent', { auditId: audit.id, error });
  } finally {
    clearTimeout(timer);
  }
}
