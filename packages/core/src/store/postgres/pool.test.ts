import { createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createPgPool, isStoreUnreachable } from './pool.js';
import { PG_SKIP_REASON, PG_TEST_URL } from './test-support/pg-test-database.js';

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

describe('the pool\'s two deadlines', () => {
  it('gives up a connection that never answers at the connect deadline, as unreachable, long before the pool wait', async () => {
    // A "database" that accepts the TCP connection and never says a word (a blackholed server).
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as { port: number }).port;
    const pool = createPgPool(`postgres://nobody@127.0.0.1:${port}/none`, { connectTimeoutMs: 200, poolWaitMs: 30_000 });
    try {
      const started = Date.now();
      const error = await pool.query('SELECT 1').then(() => undefined, (caught: unknown) => caught);
      expect(isStoreUnreachable(error)).toBe(true);
      // Bounded, not timed: the pool's own 30 s deadline would keep the test waiting past its timeout.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await pool.end();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? PG_SKIP_REASON : 'lets a request wait for a busy pool longer than the connect deadline', async () => {
    const pool = createPgPool(PG_TEST_URL as string, { max: 1, connectTimeoutMs: 100, poolWaitMs: 20_000 });
    try {
      // The one connection is busy for well past the connect deadline; the second query waits its turn.
      const [busy, queued] = await Promise.all([pool.query('SELECT pg_sleep(0.5) AS slept'), pool.query('SELECT 1 AS one')]);
      expect(busy.rows).toHaveLength(1);
      expect(queued.rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? PG_SKIP_REASON : 'refuses a request whose wait for a busy pool passes the pool wait, as unreachable', async () => {
    const pool = createPgPool(PG_TEST_URL as string, { max: 1, connectTimeoutMs: 2_000, poolWaitMs: 100 });
    try {
      const [busy, queued] = await Promise.allSettled([pool.query('SELECT pg_sleep(0.5)'), pool.query('SELECT 1')]);
      expect(busy.status).toBe('fulfilled');
      expect(queued.status).toBe('rejected');
      expect(isStoreUnreachable((queued as PromiseRejectedResult).reason)).toBe(true);
    } finally {
      await pool.end();
    }
  });
});
