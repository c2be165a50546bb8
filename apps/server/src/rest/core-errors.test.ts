// The one table of core error codes to HTTP statuses: every code core can fail with has the spec's status.

import { describe, expect, it } from 'vitest';
import {
  auditNotFound,
  budgetError,
  MapError,
  MeasurementError,
  RequestValidationError,
  StoreUnavailableError,
  VisibilityRunError,
} from '@visibility/core';
import { ApiError } from '../http/api-error.js';
import { statusOf, toApiError } from './core-errors.js';

describe('core errors to ApiErrors', () => {
  it.each([
    [new RequestValidationError('invalid_website', 'm', 'h'), 400],
    [new RequestValidationError('missing_brand', 'm', 'h'), 400],
    [new MapError('audit_not_found', 'm', 'h'), 404],
    [new MapError('unauthorized', 'm', 'h'), 401],
    [new MapError('no_credits', 'm', 'h'), 402],
    [new MapError('no_fanout', 'm', 'h'), 409],
    [new MeasurementError({ code: 'provider_unavailable', message: 'm', hint: 'h', callerCanFix: true }), 400],
    [new MeasurementError({ code: 'provider_unavailable', message: 'm', hint: 'h' }), 503],
    [new MeasurementError({ code: 'not_configured', message: 'm', hint: 'h' }), 503],
    [new MeasurementError({ code: 'provider_paused', message: 'm', hint: 'h' }), 503],
    [new MeasurementError({ code: 'provider_overloaded', message: 'm', hint: 'h' }), 503],
    [budgetError(new Date('2026-12-01T00:00:00Z'), new Date('2026-11-30T23:00:00Z')), 503],
    [new StoreUnavailableError('The audit ran but could not be saved.'), 503],
    [new VisibilityRunError('run_not_found', 'm', 'h'), 404],
    [new VisibilityRunError('rate_limited', 'm', 'h', 120), 429],
    [new VisibilityRunError('service_stopping', 'm', 'h', 30), 503],
    [new VisibilityRunError('domain_quota_used', 'm', 'h'), 409],
  ] as const)('%s answers %i', (error, status) => {
    expect(statusOf(error)).toBe(status);
  });

  it('keeps code, message and hint, and sends Retry-After when waiting helps', () => {
    const stored = toApiError(new StoreUnavailableError('The audit ran but could not be saved.'));
    expect(stored).toBeInstanceOf(ApiError);
    expect(stored).toMatchObject({
      status: 503,
      code: 'store_unavailable',
      message: 'The audit ran but could not be saved.',
      hint: 'Retry in a minute (60 seconds).',
      headers: { 'Retry-After': '60' },
    });
    const notFound = toApiError(auditNotFound());
    expect(notFound).toMatchObject({ status: 404, code: 'audit_not_found', headers: {} });
    const budget = toApiError(budgetError(new Date('2026-12-01T00:00:00Z'), new Date('2026-11-30T23:00:00Z')));
    expect(budget).toMatchObject({ status: 503, code: 'budget', headers: { 'Retry-After': '3600' } });
    // A run's refusal is a core error like the others: its wait becomes Retry-After.
    const limited = toApiError(new VisibilityRunError('rate_limited', 'Too many checks.', 'Wait.', 120));
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited', message: 'Too many checks.', hint: 'Wait.', headers: { 'Retry-After': '120' } });
    expect(new VisibilityRunError('rate_limited', 'm', 'h', 120).isRetryable).toBe(true);
    expect(new VisibilityRunError('domain_quota_used', 'm', 'h').isRetryable).toBe(false);
  });

  it('passes anything that is not a core error through unchanged', () => {
    const bug = new TypeError('x is undefined');
    expect(toApiError(bug)).toBe(bug);
  });
});
