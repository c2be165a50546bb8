import type { Response } from 'express';
import { OPERATION_WORDS, rateLimitText, type LimitedOperation, type RateLimitAllowed, type RateLimiter, type RateLimitRefused } from '@visibility/core';
import type { ApiErrorDescription } from '../http/answer.js';
import { ApiError } from '../http/api-error.js';

/**
 * Counts one call of an operation for a caller: on success sets X-RateLimit-Remaining/Reset and
 * returns the numbers; past a limit throws the spec's 429 with an integer Retry-After.
 */
export async function consumeRateLimit(
  rateLimiter: RateLimiter,
  operation: LimitedOperation,
  caller: string,
  response: Response,
): Promise<{ remaining: number; resetAt: Date }> {
  const decision = await consumeOrRefuse(rateLimiter, operation, caller);
  for (const [name, value] of rateLimitHeaders(decision)) response.setHeader(name, value);
  return { remaining: decision.remaining, resetAt: decision.resetAt };
}

/** The X-RateLimit-Remaining and X-RateLimit-Reset headers of an allowed call, in the order they are sent. */
export function rateLimitHeaders(decision: { remaining: number; resetAt: Date }): Array<[string, string]> {
  return [
    ['X-RateLimit-Remaining', String(decision.remaining)],
    ['X-RateLimit-Reset', decision.resetAt.toISOString()],
  ];
}

/** Counts one call, or throws the spec's 429 ApiError (with an integer Retry-After) when a limit is reached. */
export async function consumeOrRefuse(rateLimiter: RateLimiter, operation: LimitedOperation, caller: string): Promise<RateLimitAllowed> {
  const decision = await rateLimiter.consume(operation, caller);
  if (!decision.allowed) {
    const refusal = rateLimitRefusal(decision, operation);
    throw new ApiError(refusal.status, refusal.code, refusal.message, refusal.hint, refusal.headers);
  }
  return decision;
}

/** The spec's 429 of a refused call, as a description (a read path answers it without throwing). */
export function rateLimitRefusal(decision: RateLimitRefused, operation: LimitedOperation): ApiErrorDescription {
  // The limit, its window, whom it counts and when it resets: the same words REST, the site and MCP use.
  const wait = Math.max(1, Math.ceil(decision.retryAfterSeconds));
  const { error, hint } = rateLimitText(decision, OPERATION_WORDS[operation] ?? operation);
  return { status: 429, code: decision.code, message: error, hint, headers: { 'Retry-After': String(wait) } };
}
