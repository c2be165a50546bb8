import { Router } from 'express';
import { parseAuditRequest, startVisibilityAudit, type RateLimiter, type StartAuditDependencies } from '@visibility/core';
import { callerKey } from './caller.js';
import { toApiError } from './core-errors.js';
import { jsonBody } from './json-body.js';
import { consumeRateLimit } from './rate-limit.js';

export interface AuditRouteDependencies extends StartAuditDependencies {
  rateLimiter: RateLimiter;
}

/**
 * POST /api/audit (startVisibilityAudit). Synchronous, 15 to 60 seconds. The rate-limit slot is taken
 * after validation and before the crawl; the audit is not cancelled when the client leaves, so a
 * slow client still gets its stored audit (and mail).
 */
export function auditRoutes(dependencies: AuditRouteDependencies): Router {
  const router = Router();
  router.post('/api/audit', jsonBody('invalid_body'), async (request, response) => {
    try {
      const auditRequest = parseAuditRequest(request.body, { hostMap: dependencies.crawlHostMap });
      const caller = callerKey(request);
      let rateLimit: { remaining: number; resetAt: Date } | undefined;
      const audit = await startVisibilityAudit({ ...dependencies, logger: request.log }, auditRequest, {
        beforeSpend: () => {
          rateLimit = consumeRateLimit(dependencies.rateLimiter, 'startVisibilityAudit', caller, response);
        },
      });
      response.json({
        ...audit,
        ...(rateLimit ? { rateLimit: { remaining: rateLimit.remaining, resetAt: rateLimit.resetAt.toISOString() } } : {}),
      });
    } catch (error) {
      throw toApiError(error);
    }
  });
  return router;
}
