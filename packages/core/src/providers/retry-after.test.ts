import { describe, expect, it } from 'vitest';
import { parseGoogleRetryDelay, parseRetryAfter } from './retry-after.js';

const now = Date.parse('2026-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delta-seconds, including fractions', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '0.25' }), now)).toBe(250);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBe(0);
  });

  it('prefers retry-after-ms when present', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), now)).toBe(1500);
  });

  it('falls back to retry-after when retry-after-ms is malformed', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': 'soon', 'retry-after': '3' }), now)).toBe(3000);
  });

  it('says nothing when there is no usable header', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'later' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': '-1' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': '' }), now)).toBeUndefined();
  });
});

describe('parseGoogleRetryDelay', () => {
  it('reads RetryInfo.retryDelay from a Gemini error body', () => {
    const body = JSON.stringify({
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s' }],
      },
    });
    expect(parseGoogleRetryDelay(body)).toBe(37_000);
    expect(parseGoogleRetryDelay('{"retryDelay": "1.5s"}')).toBe(1500);
  });

  it('says nothing when the body has no retry delay', () => {
    expect(parseGoogleRetryDelay('{"error":{"code":429}}')).toBeUndefined();
  });
});
