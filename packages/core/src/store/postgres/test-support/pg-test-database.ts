import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { applyPgMigrations } from '../migrate.js';
import { createPgPool, type PgPool } from '../pool.js';

/**
 * The test run's PostgreSQL (scripts/pg/vitest-global-setup.ts starts one per run when the binaries
 * exist); undefined means the PostgreSQL half of the store's tests is skipped.
 */
export const PG_TEST_URL: string | undefined = process.env['VISIBILITY_TEST_DATABASE_URL'];

/** Why PostgreSQL tests are skipped, for describe titles. */
export const PG_SKIP_REASON = 'PostgreSQL tests skipped: no VISIBILITY_TEST_DATABASE_URL (install postgresql: apt-get install -y postgresql)';

/** A fresh, migrated database of its own on the test cluster; `pool()` opens another pool (another "instance"). */
export interface TestDatabase {
  url: string;
  pool(): PgPool;
  /** Empties every table but schema_migrations (between tests). */
  truncate(): Promise<void>;
  drop(): Promise<void>;
}

export async function createTestDatabase(prefix = 'test'): Promise<TestDatabase> {
  if (PG_TEST_URL === undefined) throw new Error(PG_SKIP_REASON);
  const name = `vis_${prefix.replace(/[^a-z0-9_]/giu, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_TEST_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_TEST_URL);
  url.pathname = `/${name}`;
  const pools: PgPool[] = [];
  const pool = (): PgPool => {
    const created = createPgPool(url.toString(), { max: 5 });
    pools.push(created);
    return created;
  };
  const migrator = pool();
  await applyPgMigrations(migrator);
  return {
    url: url.toString(),
    pool,
    async truncate() {
      const { rows } = await migrator.query<{ tablename: string }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'",
      );
      if (rows.length > 0) await migrator.query(`TRUNCATE ${rows.map((row) => `"${row.tablename}"`).join(', ')}`);
    },
    async drop() {
      await Promise.all(pools.splice(0).map((created) => created.end().catch(() => undefined)));
      const dropper = new pg.Client({ connectionString: PG_TEST_URL });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/**
 * The PostgreSQL half of a port's contract suite: one throwaway database for the file (`prepare` runs
 * once on it), emptied before each use (`fresh()`), dropped at the end; skipped, with the reason as its
 * title, when the test run has no cluster.
 */
export function describeOnPostgres(prefix: string, body: (fresh: () => Promise<TestDatabase>) => void, prepare?: (database: TestDatabase) => Promise<void>): void {
  describe.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? PG_SKIP_REASON : 'PostgreSQL', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(prefix);
      await prepare?.(database);
    });
    afterAll(async () => database?.drop());
    body(async () => {
      await database.truncate();
      return database;
    });
  });
}
