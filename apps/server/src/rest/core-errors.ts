import { MapError, MeasurementError, RequestValidationError, StoreUnavailableError, TrackingError } from '@visibility/core';
import { ApiError } from '../http/api-error.js';

/** The one place core errors become the spec's status, code and Retry-After; anything else passes through (500). */
export function toApiError(error: unknown): unknown {
  if (error instanceof RequestValidationError) return new ApiError(400, error.code, error.message, error.hint);
  if (error instanceof MapError) return new ApiError(error.status, error.code, error.message, error.hint);
  if (error instanceof TrackingError) return new ApiError(error.status, error.code, error.message, error.hint);
  if (error instanceof StoreUnavailableError) {
    return new ApiError(503, error.code, error.message, `Retry in a minute (${error.retryAfterSeconds} seconds).`, {
      'Retry-After': String(error.retryAfterSeconds),
    });
  }
  if (!(error instanceof MeasurementError)) return error;
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
  return new ApiError(error.status, error.code, error.message, error.hint, headers);
}
