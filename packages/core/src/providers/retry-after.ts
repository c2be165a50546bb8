/** Anything with a case-insensitive `get`, e.g. the Fetch API's `Headers`. */
export interface HeaderLookup {
  get(name: string): string | null;
}

/**
 * How long a response asked us to wait, in ms: `retry-after-ms` first (OpenAI and Anthropic send it
 * with sub-second precision), then `retry-after` as seconds or an HTTP date.
 */
export function parseRetryAfter(headers: HeaderLookup | undefined, now: number = Date.now()): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = parseNonNegativeNumber(headers.get('retry-after-ms'));
  if (milliseconds !== undefined) return Math.ceil(milliseconds);
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  const seconds = parseNonNegativeNumber(value);
  if (seconds !== undefined) return Math.ceil(seconds * 1000);
  // Only an HTTP date (which names a weekday and month) is tried as a date: Date.parse('-1') is a year.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  // A date in the past means "now"; an unparseable value means the provider did not say.
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Gemini puts the wait in the error body (`google.rpc.RetryInfo.retryDelay`, e.g. "37s" or "1.5s")
 * rather than a header; this reads it from the JSON text the SDK uses as the error message.
 */
export function parseGoogleRetryDelay(errorBody: string): number | undefined {
  const match = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(errorBody);
  const seconds = match?.[1];
  return seconds === undefined ? undefined : Math.ceil(Number(seconds) * 1000);
}

function parseNonNegativeNumber(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  // Number('') is 0 and Number('1e3') is 1000: accept only plain decimals, as the headers specify.
  if (!/^\d+(?:\.\d+)?$/.test(trimmed)) return undefined;
  return Number(trimmed);
}
