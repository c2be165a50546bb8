import pg from 'pg';

/** How long a request waits for a connection or a statement before the store counts as unavailable. */
export const PG_CONNECT_TIMEOUT_MS = 3_000;
export const PG_STATEMENT_TIMEOUT_MS = 10_000;

export type PgPool = pg.Pool;

/**
 * A pool on DATABASE_URL that fails fast when PostgreSQL is unreachable (connect within 3 s, statements
 * within 10 s) and recovers by itself: a broken connection is dropped from the pool and the next query
 * opens a new one. An idle client's error (the server restarted) is logged, never thrown.
 */
export function createPgPool(url: string, options: { max?: number; onError?: (error: Error) => void } = {}): PgPool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    statement_timeout: PG_STATEMENT_TIMEOUT_MS,
    query_timeout: PG_STATEMENT_TIMEOUT_MS + 1_000,
    application_name: 'ai-visibility',
  });
  pool.on('error', (error) => options.onError?.(error));
  return pool;
}

/** Runs work in one transaction on one client of the pool (ROLLBACK on any error). */
export async function inTransaction<T>(pool: PgPool, work: (client: pg.PoolClient) => Promise<T>, isolation = 'READ COMMITTED'): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
