import { ProviderFailure, type ProviderId } from './types.js';

/** What an adapter learned from a non-2xx HTTP answer, vendor-neutral. */
export interface HttpErrorFacts {
  status: number;
  message: string;
  retryAfterMs?: number | undefined;
  /** The vendor's machine-readable error type or code, e.g. `overloaded_error`, `insufficient_quota`. */
  vendorCode?: string | null | undefined;
  cause?: unknown;
}

/** Vendor codes for a bad key that arrive under a status other than 401 (Gemini answers a wrong key with 400). */
const BAD_CREDENTIAL_CODES = new Set(['API_KEY_INVALID', 'invalid_api_key']);

/** Maps an HTTP error status (and vendor error code) to a typed failure; see docs/providers.md for the table. */
export function failureFromHttpStatus(provider: ProviderId, facts: HttpErrorFacts): ProviderFailure {
  const { status, retryAfterMs, cause } = facts;
  const base = { provider, status, retryAfterMs, cause, message: `${provider} answered HTTP ${status}: ${facts.message}` };
  // Anthropic can report overload under a status other than 529; the body type is authoritative.
  if (facts.vendorCode === 'overloaded_error') return new ProviderFailure({ ...base, kind: 'overloaded' });
  // OpenAI says 429 for an exhausted account too; waiting will not refill it, so it is not a rate limit.
  if (facts.vendorCode === 'insufficient_quota') return new ProviderFailure({ ...base, kind: 'unavailable', retryable: false });
  if (facts.vendorCode && BAD_CREDENTIAL_CODES.has(facts.vendorCode)) {
    return new ProviderFailure({ ...base, kind: 'unavailable', retryable: false });
  }
  if (status === 429) return new ProviderFailure({ ...base, kind: 'rate_limited' });
  if (status === 408) return new ProviderFailure({ ...base, kind: 'timeout' });
  if (status === 401 || status === 402 || status === 403 || status === 404) {
    return new ProviderFailure({ ...base, kind: 'unavailable', retryable: false });
  }
  if (status === 501) return new ProviderFailure({ ...base, kind: 'unavailable', retryable: false });
  if (status >= 500) return new ProviderFailure({ ...base, kind: 'overloaded' });
  return new ProviderFailure({ ...base, kind: 'bad_request' });
}

/** Error codes that mean the endpoint is wrong, not busy: retrying the same address cannot help. */
const PERMANENT_CONNECTION_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ERR_INVALID_URL', 'ERR_INVALID_ARG_VALUE']);

/**
 * Maps a failure to reach the provider at all: refused or unresolvable addresses are `unavailable`
 * and final; resets and other socket errors are `unavailable` but retryable, since they are usually blips.
 */
export function failureFromConnectionError(provider: ProviderId, error: unknown): ProviderFailure {
  const codes = collectErrorCodes(error);
  const permanent = codes.some((code) => PERMANENT_CONNECTION_CODES.has(code) || code.includes('CERT'));
  const detail = codes.length > 0 ? ` (${codes.join(', ')})` : '';
  return new ProviderFailure({
    kind: 'unavailable',
    provider,
    retryable: !permanent,
    cause: error,
    message: `could not reach ${provider}${detail}: ${describe(error)}`,
  });
}

/** The failure for an attempt our own deadline (or the SDK's matching timeout) cut short. */
export function timeoutFailure(provider: ProviderId, timeoutMs: number, cause?: unknown): ProviderFailure {
  return new ProviderFailure({ kind: 'timeout', provider, cause, message: `${provider} did not answer within ${timeoutMs} ms` });
}

/**
 * A 200 with no text is not an answer. It is `unavailable` and final: at temperature 0 the usual causes
 * (safety block, the output cap spent on reasoning) repeat, so a retry would mostly buy the same nothing.
 */
export function emptyAnswerFailure(provider: ProviderId, detail: string): ProviderFailure {
  return new ProviderFailure({
    kind: 'unavailable',
    provider,
    retryable: false,
    message: `${provider} returned no answer text (${detail})`,
  });
}

/** Node's fetch hides the socket error under `cause` (sometimes an AggregateError); collect every `code`. */
function collectErrorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    const code = (value as { code?: unknown }).code;
    if (typeof code === 'string' && !codes.includes(code)) codes.push(code);
    visit((value as { cause?: unknown }).cause);
    const nested = (value as { errors?: unknown }).errors;
    if (Array.isArray(nested)) nested.forEach(visit);
  };
  visit(error);
  return codes;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Anything an SDK throws that is neither an HTTP answer nor a network error (a malformed body, an SDK
 * bug): `unavailable` and final, because repeating the same call is unlikely to change it.
 */
export function unexpectedFailure(provider: ProviderId, error: unknown): ProviderFailure {
  return new ProviderFailure({
    kind: 'unavailable',
    provider,
    retryable: false,
    cause: error,
    message: `unexpected error from the ${provider} SDK: ${describe(error)}`,
  });
}
