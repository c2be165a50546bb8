// Why a run operation refused. A CoreError like every error core throws for a caller to act on: the MCP
// layer turns it into an `isError` tool result whose text carries the code, the message and the hint, so
// a model can act on it (wait, fix, poll); the server's one table (rest/core-errors.ts) gives each code
// its HTTP status should a REST route ever call a run operation.

import { CoreError } from '../errors.js';

/** The codes a run operation can refuse with. */
export const VISIBILITY_RUN_ERROR_CODES = ['run_not_found', 'rate_limited', 'service_stopping', 'domain_quota_used'] as const;
export type VisibilityRunErrorCode = (typeof VISIBILITY_RUN_ERROR_CODES)[number];

/** A run operation refused, with a stable code, what to do next and, when waiting helps, how long. */
export class VisibilityRunError extends CoreError {
  override readonly name = 'VisibilityRunError';
  declare readonly code: VisibilityRunErrorCode;

  constructor(code: VisibilityRunErrorCode, message: string, hint: string, retryAfterSeconds?: number) {
    super(code, message, hint, { retryAfterSeconds });
  }
}

/** No run with that id (also for ids that are not UUIDs). */
export function runNotFound(): VisibilityRunError {
  return new VisibilityRunError(
    'run_not_found',
    'There is no visibility check with that runId.',
    'Use the runId that start_visibility_check returned, or start a new check.',
  );
}

/**
 * The domain's free measurement of the last 30 days was for another brand or category. Returning that
 * run would answer a question nobody asked, and measuring again would break the quota, so the start is
 * refused with what was measured and when the domain renews.
 */
export function domainQuotaUsed(holder: { runId: string; domain: string; brand: string; category: string; measuredAt: string; quotaRenewsAt: string }): VisibilityRunError {
  return new VisibilityRunError(
    'domain_quota_used',
    `${holder.domain} already used its free check for the last 30 days: it was measured on ${holder.measuredAt} for the brand "${holder.brand}" in the category "${holder.category}" (runId ${holder.runId}). One free check per website domain every 30 days, so a check for another brand or category of the same domain is not measured until ${holder.quotaRenewsAt}.`,
    `Start the check with brand "${holder.brand}" and category "${holder.category}" to read that measurement (or call get_visibility_check with runId "${holder.runId}"), or try again after ${holder.quotaRenewsAt}.`,
  );
}
