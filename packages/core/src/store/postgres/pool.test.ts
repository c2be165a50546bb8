import { describe, expect, it } from 'vitest';
import { isStoreUnreachable } from './pool.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isStoreUnreachable', () => {
  it('recognises a refused, cut or timed-out connection and a server shutting down, also inside cause and AggregateError', () => {
    expect(isStoreUnreachable(withCode('ECONNREFUSED'))).toBe(true);
    expect(isStoreUnreachable(new AggregateError([withCode('ECONNREFUSED')], ''))).toBe(true);
    expect(isStoreUnreachable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isStoreUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isStoreUnreachable(withCode('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(isStoreUnreachable(withCode('08006'))).toBe(true);
    expect(isStoreUnreachable(new Error('saving failed', { cause: withCode('ECONNRESET') }))).toBe(true);
  });

  it('leaves bugs and refused statements alone (they stay 500s)', () => {
    expect(isStoreUnreachable(withCode('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isStoreUnreachable(withCode('42P01', 'relation "nope" does not exist'))).toBe(false);
    expect(isStoreUnreachable(new TypeError('cannot read properties of undefined'))).toBe(false);
    expect(isStoreUnreachable(undefined)).toBe(false);
    expect(isStoreUnreachable('ECONNREFUSED')).toBe(false);
  });
});
