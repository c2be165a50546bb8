import { MeasurementError } from '@visibility/core';
import { ApiError } from '../http/api-error.js';

/** The one place a core MeasurementError becomes the spec's status, code and Retry-After. */
export function toApiError(error: unknown): unknown {
  if (!(error instanceof MeasurementError)) return error;
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
  return new ApiError(error.status, error.code, error.message, error.hint, headers);
}
