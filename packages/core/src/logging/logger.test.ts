import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

describe('createLogger', () => {
  it('writes one JSON object per line with bound fields and filters by level', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', write: (line) => lines.push(line), now: () => new Date(0) });
    const child = logger.child({ requestId: 'r-1' });
    child.debug('hidden');
    child.info('request finished', { status: 200 });
    child.error('failed', { error: new Error('boom') });
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.endsWith('\n'))).toBe(true);
    const first = JSON.parse(lines[0] ?? '');
    expect(first).toEqual({ time: '1970-01-01T00:00:00.000Z', level: 'info', msg: 'request finished', requestId: 'r-1', status: 200 });
    const second = JSON.parse(lines[1] ?? '');
    expect(second.error.message).toBe('boom');
    expect(second.requestId).toBe('r-1');
  });

  it('writes nothing when silent', () => {
    const lines: string[] = [];
    createLogger({ level: 'silent', write: (line) => lines.push(line) }).error('x');
    expect(lines).toEqual([]);
  });
});
