// One wording for a refused call, whichever door it came through (REST, the site's forms, MCP): the limit,
// its window, who it counts (each caller, or everyone), and when it resets.

import type { RateLimitRefused } from './rate-limiter.js';

/** "hour", "day", "10 minutes". */
export function describeWindow(seconds: number): string {
  if (seconds === 86_400) return 'day';
  if (seconds === 3_600) return 'hour';
  if (seconds === 60) return 'minute';
  if (seconds % 60 === 0) return `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/** Whole seconds the caller must wait (the Retry-After value), at least 1. */
export function retryAfterSeconds(decision: RateLimitRefused): number {
  return Math.max(1, Math.ceil(decision.retryAfterSeconds));
}

/**
 * The error and hint of a 429 (or of MCP's `rate_limited` tool error): `what` names the operation in words
 * ("audits", "quick checks"). Example: "You have reached the limit for audits: 6 per hour per caller. It
 * resets at 2026-11-26T12:00:00.000Z." / "Wait 1234 seconds (until 2026-11-26T12:00:00.000Z) and try again."
 */
export function rateLimitText(decision: RateLimitRefused, what: string): { error: string; hint: string } {
  const wait = retryAfterSeconds(decision);
  const reset = decision.resetAt.toISOString();
  const limit = `${decision.limit.max} per ${describeWindow(decision.limit.windowSeconds)}`;
  const error =
    decision.limit.scope === 'shared'
      ? `The service has reached its shared daily cap for ${what}: ${limit} for all callers together. It resets at ${reset}.`
      : `You have reached the limit for ${what}: ${limit} per caller. It resets at ${reset}.`;
  return { error, hint: `Wait ${wait} seconds (until ${reset}) and try again.` };
}

/** How each limited operation is named in those messages. */
export const OPERATION_WORDS: Readonly<Record<string, string>> = {
  runRepeatedBuyerQuestion: 'repeated buyer questions',
  checkBrandRecognition: 'quick checks',
  startVisibilityAudit: 'audits',
  startBuyerQuestionMap: 'buyer-question maps',
  getBuyerQuestionMap: 'reading buyer-question maps',
  signIn: 'sign-in links',
};
