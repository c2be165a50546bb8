import { describe, expect, it } from 'vitest';
import { emptyAnswerFailure, failureFromConnectionError, failureFromHttpStatus, timeoutFailure } from './failures.js';
import type { ProviderFailureKind } from './types.js';

describe('failureFromHttpStatus', () => {
  const table: Array<[status: number, kind: ProviderFailureKind, retryable: boolean]> = [
    [400, 'bad_request', false],
    [401, 'unavailable', false],
    [402, 'unavailable', false],
    [403, 'unavailable', false],
    [404, 'unavailable', false],
    [408, 'timeout', true],
    [413, 'bad_request', false],
    [422, 'bad_request', false],
    [429, 'rate_limited', true],
    [500, 'overloaded', true],
    [501, 'unavailable', false],
    [502, 'overloaded', true],
    [503, 'overloaded', true],
    [504, 'overloaded', true],
    [529, 'overloaded', true],
  ];

  it.each(table)('maps HTTP %i to %s (retryable: %s)', (status, kind, retryable) => {
    const failure = failureFromHttpStatus('openai', { status, message: 'boom' });
    expect(failure.kind).toBe(kind);
    expect(failure.retryable).toBe(retryable);
    expect(failure.status).toBe(status);
    expect(failure.provider).toBe('openai');
    expect(failure.message).toContain(String(status));
  });

  it('keeps the retry-after on a rate limit', () => {
    const failure = failureFromHttpStatus('anthropic', { status: 429, message: 'slow down', retryAfterMs: 1200 });
    expect(failure.retryAfterMs).toBe(1200);
  });

  it("treats Anthropic's overloaded_error as overloaded whatever the status", () => {
    const failure = failureFromHttpStatus('anthropic', { status: 400, message: 'Overloaded', vendorCode: 'overloaded_error' });
    expect(failure.kind).toBe('overloaded');
    expect(failure.retryable).toBe(true);
  });

  it("treats OpenAI's insufficient_quota 429 as unavailable, not a rate limit", () => {
    const failure = failureFromHttpStatus('openai', { status: 429, message: 'quota', vendorCode: 'insufficient_quota' });
    expect(failure.kind).toBe('unavailable');
    expect(failure.retryable).toBe(false);
  });

  it('treats a bad-key code under 400 as unavailable', () => {
    const failure = failureFromHttpStatus('gemini', { status: 400, message: 'API key not valid', vendorCode: 'API_KEY_INVALID' });
    expect(failure).toMatchObject({ kind: 'unavailable', retryable: false });
  });
});

describe('failureFromConnectionError', () => {
  it('treats a refused connection as unavailable and final', () => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const failure = failureFromConnectionError('gemini', error);
    expect(failure.kind).toBe('unavailable');
    expect(failure.retryable).toBe(false);
    expect(failure.message).toContain('ECONNREFUSED');
  });

  it('finds the code inside an AggregateError (both address families refused)', () => {
    const refused = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    const error = new Error('Connection error.', { cause: new TypeError('fetch failed', { cause: new AggregateError([refused]) }) });
    expect(failureFromConnectionError('openai', error).retryable).toBe(false);
  });

  it('treats a reset connection as unavailable but retryable', () => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    const failure = failureFromConnectionError('openai', error);
    expect(failure.kind).toBe('unavailable');
    expect(failure.retryable).toBe(true);
  });
});

describe('other failures', () => {
  it('a timeout is retryable', () => {
    const failure = timeoutFailure('openai', 300);
    expect(failure.kind).toBe('timeout');
    expect(failure.retryable).toBe(true);
    expect(failure.message).toContain('300 ms');
  });

  it('an empty answer is unavailable and final', () => {
    const failure = emptyAnswerFailure('gemini', 'finish reason: SAFETY');
    expect(failure.kind).toBe('unavailable');
    expect(failure.retryable).toBe(false);
    expect(failure.message).toContain('SAFETY');
  });
});
