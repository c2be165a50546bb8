export {
  buildLimitPolicies,
  DEFAULT_MAP_READS_PER_MINUTE,
  DEFAULT_REPEAT_DAILY_CAP,
  IN_MEMORY_LIMITED_OPERATIONS,
  LIMIT_POLICIES,
  LIMITED_OPERATIONS,
  validateLimitPolicies,
} from './policies.js';
export type { LimitCode, LimitedOperation, LimitPolicies, LimitPolicyOverrides, LimitRule, LimitScope } from './policies.js';
export { createRateLimiter, MemoryCounters } from './rate-limiter.js';
export { describeWindow, OPERATION_WORDS, rateLimitText, retryAfterSeconds } from './refusal-text.js';
export type {
  LimitDescription,
  RateLimitAllowed,
  RateLimitDecision,
  RateLimiter,
  RateLimiterOptions,
  RateLimitRefused,
} from './rate-limiter.js';
