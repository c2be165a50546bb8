import { Router } from 'express';
import { parseAuditRequest, startVisibilityAudit, type RateLimiter, type StartAuditDependencies, type AuditStore } from '@visibility/core';
import { readSession } from '../auth/session.js';
import { ApiError } from '../http/api-error.js';
import { isReportKey, reportUrl } from '../site/report-access.js';
import { callerKey } from './caller.js';
import { toApiError } from './core-errors.js';
import { jsonBody } from './json-body.js';
import { consumeRateLimit } from './rate-limit.js';

export interface AuditRouteDependencies extends StartAuditDependencies {
  rateLimiter: RateLimiter;
  auditRepository: AuditStore;
  /** Signs the report links (`/report/{id}?key=…`) and the owner's session cookie. */
  sessionSecret: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

/**
 * POST /api/audit (startVisibilityAudit). Synchronous, 15 to 60 seconds. The rate-limit slot is taken
 * after validation and before the crawl; the audit is not cancelled when the client leaves, so a
 * slow client still gets its stored audit (and mail).
 */
export function auditRoutes(dependencies: AuditRouteDependencies): Router {
  const router = Router();
  router.post('/api/audit', jsonBody('invalid_body', { form: true }), async (request, response) => {
    try {
      const auditRequest = parseAuditRequest(request.body, { hostMap: dependencies.crawlHostMap });
      const caller = callerKey(request);
      let rateLimit: { remaining: number; resetAt: Date } | undefined;
      const audit = await startVisibilityAudit({ ...dependencies, logger: request.log }, auditRequest, {
        beforeSpend: async () => {
          rateLimit = await consumeRateLimit(dependencies.rateLimiter, 'startVisibilityAudit', caller, response);
        },
      });
      response.json({
        ...audit,
        reportUrl: reportUrl(dependencies.baseUrl, dependencies.sessionSecret, audit.id),
        ...(rateLimit ? { rateLimit: { remaining: rateLimit.remaining, resetAt: rateLimit.resetAt.toISOString() } } : {}),
      });
    } catch (error) {
      throw toApiError(error);
    }
  });

  /**
   * GET /api/audit/{auditId}: the stored AuditResponse again, never re-measured, for whoever holds the report
   * link's key (`?key=`, from `reportUrl`) or the signed-in owner. Anyone else gets the same 404 as for an
   * unknown id, so ids cannot be probed.
   */
  router.get('/api/audit/:auditId', async (request, response) => {
    const auditId = String(request.params.auditId).toLowerCase();
    const stored = UUID.test(auditId) ? await dependencies.auditRepository.getAudit(auditId) : undefined;
    const session = stored === undefined ? undefined : readSession(request, dependencies.sessionSecret);
    const owner = session !== undefined && stored?.email !== undefined && session.email.toLowerCase() === stored.email.toLowerCase();
    if (stored === undefined || !(owner || isReportKey(dependencies.sessionSecret, stored.id, request.query['key']))) {
      throw new ApiError(
        404,
        'audit_not_found',
        'There is no audit with that id, or the key does not open it.',
        'Use the `reportUrl` of the AuditResponse (its `key` opens the audit), or sign in as the owner.',
      );
    }
    response.setHeader('Cache-Control', 'private, no-store');
    response.setHeader('Referrer-Policy', 'same-origin');
    response.json({ ...stored.response, id: stored.id, createdAt: stored.createdAt, reportUrl: reportUrl(dependencies.baseUrl, dependencies.sessionSecret, stored.id) });
  });
  return router;
}
