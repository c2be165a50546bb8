import { CoreError, MeasurementError, RequestValidationError, TrackingError } from '@visibility/core';
import { ApiError } from '../http/api-error.js';

/**
 * The spec's HTTP status of every code core fails with: the one table where core errors meet HTTP.
 * Core carries no status (packages/core/src/errors.ts); MCP and the CLI read the same codes their way.
 */
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  // Map operations (MapError).
  audit_not_found: 404,
  unauthorized: 401,
  no_credits: 402,
  no_fanout: 409,
  // Quick measurements (MeasurementError); provider_unavailable is 400 when the caller can fix it (below).
  provider_unavailable: 503,
  budget: 503,
  not_configured: 503,
  provider_paused: 503,
  provider_overloaded: 503,
  // Audits.
  store_unavailable: 503,
  // Watches (TrackingError); its field errors (invalid_*, missing_required, no_questions) are 400.
  watch_not_found: 404,
  run_not_found: 404,
  too_many_watches: 409,
  // MCP runs (VisibilityRunError; run_not_found is 404 above). The domain's free check went to another
  // brand or category: a conflict with what is stored, not a rate (no Retry-After; the hint says when it renews).
  rate_limited: 429,
  service_stopping: 503,
  domain_quota_used: 409,
};

/** A TrackingError whose code the table does not list is a field error. */
const TRACKING_DEFAULT_STATUS = 400;

/** Every RequestValidationError (invalid_body, missing_required, invalid_website, bad_provider, …) is a 400. */
const REQUEST_VALIDATION_STATUS = 400;

/** The status a core error answers with. */
export function statusOf(error: CoreError): number {
  if (error instanceof RequestValidationError) return REQUEST_VALIDATION_STATUS;
  if (error instanceof MeasurementError && error.callerCanFix) return 400;
  if (error instanceof TrackingError) return STATUS_BY_CODE[error.code] ?? TRACKING_DEFAULT_STATUS;
  return STATUS_BY_CODE[error.code] ?? 500;
}

/** The one place core errors become the spec's status, code and Retry-After; anything else passes through (500). */
export function toApiError(error: unknown): unknown {
  if (!(error instanceof CoreError)) return error;
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
  return new ApiError(statusOf(error), error.code, error.message, error.hint, headers);
}
