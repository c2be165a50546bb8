import pg from 'pg';

/** How long opening a connection to PostgreSQL may take before the store counts as unavailable. */
export const PG_CONNECT_TIMEOUT_MS = 3_000;
/**
 * How long a request may wait for a free connection of the pool (all `max` busy) before it is refused.
 * Longer than the connect deadline: a burst of requests on a healthy database queues for its turn
 * instead of being told the database is unreachable; a database that hangs is still given up on
 * within the statement deadline.
 */
export const PG_POOL_WAIT_MS = 10_000;
export const PG_STATEMENT_TIMEOUT_MS = 10_000;

export type PgPool = pg.Pool;

export interface PgPoolOptions {
  max?: number;
  onError?: (error: Error) => void;
  /** Tests only: shorter deadlines than PG_CONNECT_TIMEOUT_MS and PG_POOL_WAIT_MS. */
  connectTimeoutMs?: number;
  poolWaitMs?: number;
}

/**
 * A pool on DATABASE_URL that fails fast when PostgreSQL is unreachable (a new connection within 3 s,
 * statements within 10 s) and recovers by itself: a broken connection is dropped from the pool and the
 * next query opens a new one. A request that finds every connection busy waits up to 10 s for one (pg's
 * pool has one deadline for both waits, so the connect deadline is set on each client instead). An idle
 * client's error (the server restarted) is logged, never thrown.
 */
export function createPgPool(url: string, options: PgPoolOptions = {}): PgPool {
  const connectTimeoutMs = options.connectTimeoutMs ?? PG_CONNECT_TIMEOUT_MS;
  class DeadlineClient extends pg.Client {
    // pg-pool constructs it with the pool's options; the types only know a no-argument constructor.
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    Client: DeadlineClient,
    // The pool's own deadline: the wait for a free connection (and a backstop on a new one's connect).
    connectionTimeoutMillis: options.poolWaitMs ?? PG_POOL_WAIT_MS,
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

/** Network errors of a connection that cannot be made or was cut. */
const UNREACHABLE_NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
/** PostgreSQL's own: shutting down, starting up, too many connections. */
const UNREACHABLE_SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What pg and pg-pool throw without a code: the pool's wait, the client's connect deadline, a cut connection, the query deadline. */
const UNREACHABLE_MESSAGES = [/timeout exceeded when trying to connect/i, /timeout expired/i, /Connection terminated/i, /Query read timeout/i, /Client has encountered a connection error/i];

/**
 * True when an error says PostgreSQL cannot be reached right now (refused, cut, timed out, shutting
 * down), as opposed to a bug or a constraint: the service answers those with 503 `store_unavailable`,
 * and the pool reconnects by itself once the database is back. Looks through `cause` and AggregateError.
 */
export function isStoreUnreachable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_NETWORK_CODES.has(code) || UNREACHABLE_SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isStoreUnreachable(inner, depth + 1))) return true;
  return isStoreUnreachable(cause, depth + 1);
}
