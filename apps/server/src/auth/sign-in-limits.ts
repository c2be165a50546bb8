import { createHash } from 'node:crypto';
import { createRateLimiter, type LimitPolicies, type RateLimiter, type RateLimitStore } from '@visibility/core';
import { ApiError } from '../http/api-error.js';

/** The sign-in limits, counted in the same SQLite counters as the spec's limits (exact across processes and restarts). */
export const SIGN_IN_LIMIT_POLICIES: LimitPolicies<SignInLimit> = {
  // Each request sends a mail: per IP stops one client from mailing many addresses...
  signInPerIp: [{ name: 'hour', max: 5, windowSeconds: 3600, scope: 'caller', code: 'rate_limited' }],
  // ...and per address stops many clients from flooding one inbox.
  signInPerEmail: [{ name: 'hour', max: 5, windowSeconds: 3600, scope: 'caller', code: 'rate_limited' }],
};

export type SignInLimit = 'signInPerIp' | 'signInPerEmail';

/** A limiter for the sign-in policies; `now` lets tests move the clock. */
export function createSignInLimiter(repository: RateLimitStore, now?: () => Date): RateLimiter<SignInLimit> {
  return createRateLimiter<SignInLimit>(repository, { policies: SIGN_IN_LIMIT_POLICIES, ...(now === undefined ? {} : { now }) });
}

/** The per-address counter key: a hash, so the counters table holds no email addresses. */
function emailKey(email: string): string {
  return createHash('sha256').update(email).digest('base64url').slice(0, 22);
}

/**
 * Counts one sign-in request against the per-IP and per-address limits, or throws the 429 ApiError
 * with Retry-After. The address is checked before anything is counted, so a refusal for one address
 * does not also spend the caller's IP allowance.
 */
export async function consumeSignInLimits(limiter: RateLimiter<SignInLimit>, callerKey: string, email: string): Promise<void> {
  const key = emailKey(email);
  const byEmail = await limiter.peek('signInPerEmail', key);
  const decision = byEmail.allowed ? await limiter.consume('signInPerIp', callerKey) : byEmail;
  const final = decision.allowed ? await limiter.consume('signInPerEmail', key) : decision;
  if (final.allowed) return;
  const wait = Math.max(1, Math.ceil(final.retryAfterSeconds));
  throw new ApiError(
    429,
    'rate_limited',
    'Too many sign-in links were asked for. Use the newest link you received, or wait.',
    `Wait ${wait} seconds (until ${final.resetAt.toISOString()}) and ask again.`,
    { 'Retry-After': String(wait) },
  );
}
