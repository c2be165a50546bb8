// Why a quick measurement could not produce a result, in the spec's stable error codes. The REST layer
// turns a MeasurementError into an ApiError (`error` = message, `code`, `hint`) with the status its one
// table gives the code and, when set, a `Retry-After` of `retryAfterSeconds`.
//
// Decisions (see docs/methodology.md, "When a measurement cannot run"):
// - repeat 400 `provider_unavailable`: the caller named a valid provider id that this deployment has
//   not enabled (no key), while at least one other provider is enabled: the caller can pick another.
// - repeat 503 `provider_unavailable`: nothing can answer: no provider is enabled at all, or the chosen
//   one is enabled but every run failed because it refused our configuration or could not be reached
//   (failure kinds `unavailable` / `bad_request`).
// - 503 `budget` (both operations): the monthly provider budget is used up, found before any call, or
//   reported by the calls themselves (failure kind `budget`).
// - check 503 `not_configured`: no provider is enabled. `provider_paused`: the provider refused our
//   configuration or could not be reached. `provider_overloaded`: it rate-limited us, was overloaded or
//   timed out, after the provider's retries.
// Repeat runs that fail for transient reasons (rate limited, overloaded, timeout) are not errors: they
// are reported as failed runs in a 200.

import { CoreError } from '../errors.js';
import { ProviderFailure } from '../providers/types.js';

/** The codes `runRepeatedBuyerQuestion` can fail with beyond request validation. */
export const REPEAT_ERROR_CODES = ['provider_unavailable', 'budget'] as const;
/** The codes `checkBrandRecognition` can fail with beyond request validation. */
export const CHECK_ERROR_CODES = ['not_configured', 'provider_paused', 'provider_overloaded', 'budget'] as const;

export type RepeatErrorCode = (typeof REPEAT_ERROR_CODES)[number];
export type CheckErrorCode = (typeof CHECK_ERROR_CODES)[number];
export type MeasurementErrorCode = RepeatErrorCode | CheckErrorCode;

/** What the caller should wait before retrying when the provider said nothing (a common short back-off). */
export const DEFAULT_OVERLOADED_RETRY_AFTER_SECONDS = 30;
/** A refused key or an unreachable provider needs an operator or the provider to recover; poll slowly. */
export const DEFAULT_PAUSED_RETRY_AFTER_SECONDS = 300;

export interface MeasurementErrorOptions {
  code: MeasurementErrorCode;
  /**
   * True only for repeat's `provider_unavailable` when the provider is merely not enabled here: the caller
   * can pick another (REST answers 400; otherwise the code's status, 503).
   */
  callerCanFix?: boolean | undefined;
  /** One sentence safe to show to a person. */
  message: string;
  /** What to do next. */
  hint: string;
  /** Whole seconds to wait, at least 1; omitted when waiting cannot help. */
  retryAfterSeconds?: number | undefined;
  cause?: unknown;
}

/** A measurement that could not produce a result, with the spec's stable `code`. */
export class MeasurementError extends CoreError {
  override readonly name = 'MeasurementError';
  declare readonly code: MeasurementErrorCode;
  readonly callerCanFix: boolean;

  constructor(options: MeasurementErrorOptions) {
    super(options.code, options.message, options.hint, {
      retryAfterSeconds: options.retryAfterSeconds === undefined ? undefined : wholeSecondsAtLeastOne(options.retryAfterSeconds * 1000),
      cause: options.cause,
    });
    this.callerCanFix = options.callerCanFix ?? false;
  }
}

/** Rounds a wait in milliseconds up to whole seconds, at least 1 (the `Retry-After` header's form). */
export function wholeSecondsAtLeastOne(milliseconds: number): number {
  if (!Number.isFinite(milliseconds)) return 1;
  return Math.max(1, Math.ceil(milliseconds / 1000));
}

/** Builds the 503 `budget` error; `resetAt` is when the month (and the budget) turns. */
export function budgetError(resetAt: Date, now: Date = new Date(), cause?: unknown): MeasurementError {
  return new MeasurementError({
    code: 'budget',
    message: "This month's budget for model calls is used up.",
    hint: `Try again after ${resetAt.toISOString()}, when the monthly budget renews.`,
    retryAfterSeconds: wholeSecondsAtLeastOne(resetAt.getTime() - now.getTime()),
    cause,
  });
}

/** A short human reason for a failed run, by failure kind (vendor messages stay in the logs). */
export function describeProviderFailure(error: unknown): string {
  if (!(error instanceof ProviderFailure)) return 'the call failed unexpectedly';
  const after = error.attempts > 1 ? ` after ${error.attempts} attempts` : '';
  switch (error.kind) {
    case 'rate_limited':
      return `rate limited by the provider${after}`;
    case 'overloaded':
      return `the provider was overloaded or answered with a server error${after}`;
    case 'timeout':
      return `the provider did not answer in time${after}`;
    case 'unavailable':
      return `the provider could not be reached or refused the request${after}`;
    case 'bad_request':
      return 'the provider rejected the request';
    case 'budget':
      return 'the monthly provider budget is used up';
    default:
      return 'the call failed';
  }
}
