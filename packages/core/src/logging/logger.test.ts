import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBatchedWrite, createLogger } from './logger.js';

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

  it('stamps lines with the current time when no clock is given, fields in the order given', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', write: (line) => lines.push(line) }).child({ requestId: 'r-2' });
    const before = Date.now();
    logger.info('request', { method: 'GET', path: '/x', status: 200 });
    logger.info('request', { method: 'GET', path: '/y', status: 404 });
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const record of records) {
      expect(Date.parse(String(record.time))).toBeGreaterThanOrEqual(before);
      expect(Date.parse(String(record.time))).toBeLessThanOrEqual(Date.now());
    }
    expect(Object.keys(records[1] ?? {})).toEqual(['time', 'level', 'msg', 'requestId', 'method', 'path', 'status']);
  });

  it('writes nothing when silent', () => {
    const lines: string[] = [];
    createLogger({ level: 'silent', write: (line) => lines.push(line) }).error('x');
    expect(lines).toEqual([]);
  });
});

describe('createBatchedWrite', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('joins the lines of one event-loop turn into one write, in order, and writes nothing more when idle', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const batched = createBatchedWrite((text) => writes.push(text));
    batched.write('a\n');
    batched.write('b\n');
    expect(writes).toEqual([]);
    vi.runAllTimers();
    expect(writes).toEqual(['a\nb\n']);
    batched.write('c\n');
    vi.runAllTimers();
    vi.runAllTimers();
    expect(writes).toEqual(['a\nb\n', 'c\n']);
  });

  it('writes at once when the pending lines reach the size bound, and flush() writes what is pending', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const batched = createBatchedWrite((text) => writes.push(text), { maxPendingBytes: 6 });
    batched.write('12\n');
    batched.write('34\n');
    expect(writes).toEqual(['12\n34\n']);
    batched.write('5\n');
    batched.flush();
    expect(writes).toEqual(['12\n34\n', '5\n']);
    vi.runAllTimers();
    expect(writes).toHaveLength(2);
  });

  it('feeds a logger: every line still arrives whole', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const batched = createBatchedWrite((text) => writes.push(text));
    const logger = createLogger({ level: 'info', write: batched.write, now: () => new Date(0) });
    logger.info('one', { status: 200 });
    logger.info('two');
    vi.runAllTimers();
    expect(writes.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line).msg)).toEqual(['one', 'two']);
  });
});
