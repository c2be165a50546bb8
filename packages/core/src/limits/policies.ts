/** Whose calls a limit counts: each caller separately, or everyone together. */
export type LimitScope = 'caller' | 'shared';

/** The error code a refusal carries (the spec's 429 codes). */
export type LimitCode = 'rate_limited' | 'daily_cap';

/** One fixed-window limit: at most `max` calls per `windowSeconds`, counted per `scope`. */
export interface LimitRule {
  /** Unique within its operation; names the stored counter, so renaming one starts it from zero. */
  name: string;
  max: number;
  windowSeconds: number;
  scope: LimitScope;
  code: LimitCode;
}

/** Every limited operation with the limits that must all pass for one call. */
export type LimitPolicies<Operation extends string = string> = Readonly<Record<Operation, readonly LimitRule[]>>;

/** The operations the spec limits, by operation id. */
export const LIMITED_OPERATIONS = [
  'runRepeatedBuyerQuestion',
  'checkBrandRecognition',
  'startVisibilityAudit',
  'startBuyerQuestionMap',
  'getBuyerQuestionMap',
] as const;
export type LimitedOperation = (typeof LIMITED_OPERATIONS)[number];

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Shared daily cap on runRepeatedBuyerQuestion: 200 calls are 1,000 answers, roughly $1-2 a day on gpt-4.1-mini. */
export const DEFAULT_REPEAT_DAILY_CAP = 200;

/** Polling allowance for getBuyerQuestionMap: one read every half second, enough for a few open tabs. */
export const DEFAULT_MAP_READS_PER_MINUTE = 120;

/**
 * Limited operations whose counters the service keeps in memory rather than in SQLite: reads that
 * spend no provider money and no credit, where a durable counter would cost a write transaction per
 * request (docs/limits-and-budget.md says what that trades away). Every operation that spends money
 * keeps its durable counters.
 */
export const IN_MEMORY_LIMITED_OPERATIONS: readonly LimitedOperation[] = ['getBuyerQuestionMap'];

/** Numbers the spec leaves open, for an operator who wants other ones. */
export interface LimitPolicyOverrides {
  /** Shared daily cap on runRepeatedBuyerQuestion (default {@link DEFAULT_REPEAT_DAILY_CAP}). */
  repeatDailyCap?: number;
  /** Per-caller reads of getBuyerQuestionMap per minute (default {@link DEFAULT_MAP_READS_PER_MINUTE}). */
  mapReadsPerMinute?: number;
}

/** The spec's limit table as data, with the numbers it leaves open filled in (or overridden). */
export function buildLimitPolicies(overrides: LimitPolicyOverrides = {}): LimitPolicies<LimitedOperation> {
  const repeatDailyCap = overrides.repeatDailyCap ?? DEFAULT_REPEAT_DAILY_CAP;
  const mapReadsPerMinute = overrides.mapReadsPerMinute ?? DEFAULT_MAP_READS_PER_MINUTE;
  return {
    runRepeatedBuyerQuestion: [
      { name: 'hour', max: 3, windowSeconds: HOUR, scope: 'caller', code: 'rate_limited' },
      { name: 'shared-day', max: repeatDailyCap, windowSeconds: DAY, scope: 'shared', code: 'daily_cap' },
    ],
    checkBrandRecognition: [
      { name: 'hour', max: 6, windowSeconds: HOUR, scope: 'caller', code: 'rate_limited' },
      { name: 'day', max: 20, windowSeconds: DAY, scope: 'caller', code: 'rate_limited' },
    ],
    startVisibilityAudit: [
      { name: 'hour', max: 6, windowSeconds: HOUR, scope: 'caller', code: 'rate_limited' },
      { name: 'day', max: 40, windowSeconds: DAY, scope: 'caller', code: 'rate_limited' },
    ],
    startBuyerQuestionMap: [{ name: '10-minutes', max: 6, windowSeconds: 10 * MINUTE, scope: 'caller', code: 'rate_limited' }],
    getBuyerQuestionMap: [{ name: 'minute', max: mapReadsPerMinute, windowSeconds: MINUTE, scope: 'caller', code: 'rate_limited' }],
  };
}

/** The default policy: the spec's numbers, a shared daily repeat cap of 200, 120 map reads a minute. */
export const LIMIT_POLICIES: LimitPolicies<LimitedOperation> = buildLimitPolicies();

/** Throws when a policy could not be enforced as written (bad numbers, duplicate names, no limits). */
export function validateLimitPolicies(policies: LimitPolicies): void {
  for (const [operation, rules] of Object.entries(policies)) {
    if (rules.length === 0) throw new TypeError(`rate limit policy "${operation}" has no limits`);
    const names = new Set<string>();
    for (const rule of rules) {
      if (rule.name === '' || names.has(rule.name)) {
        throw new TypeError(`rate limit policy "${operation}": limit names must be unique and non-empty ("${rule.name}")`);
      }
      names.add(rule.name);
      if (!Number.isSafeInteger(rule.max) || rule.max < 0) {
        throw new TypeError(`rate limit "${operation}:${rule.name}": max must be a whole number >= 0`);
      }
      if (!Number.isSafeInteger(rule.windowSeconds) || rule.windowSeconds < 1) {
        throw new TypeError(`rate limit "${operation}:${rule.name}": windowSeconds must be a whole number >= 1`);
      }
    }
  }
}
