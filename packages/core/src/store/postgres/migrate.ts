import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SchemaTooNewError } from '../migrations.js';
import type { PgPool } from './pool.js';

/** One versioned migration file: `NNN_name.sql`, applied once, in order, each in its own transaction. */
export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

/** packages/core/migrations/postgres (the same three levels up from src/ and from dist/). */
export const PG_MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/postgres/', import.meta.url));

/** Any key of our own: every instance takes the same advisory lock around migrating. */
const MIGRATION_LOCK_KEY = 0x5649_5331; // "VIS1"

/** The migration files, oldest first. Append only: never edit a shipped one. */
export function readPgMigrations(dir: string = PG_MIGRATIONS_DIR): PgMigration[] {
  return readdirSync(dir)
    .flatMap((file) => {
      const match = /^(\d+)_([a-z0-9_]+)\.sql$/u.exec(file);
      return match === null ? [] : [{ version: Number(match[1]), name: match[2] as string, sql: readFileSync(`${dir}/${file}`, 'utf8') }];
    })
    .sort((left, right) => left.version - right.version);
}

/**
 * Brings the database to the newest version under a session advisory lock, so instances starting
 * together migrate one after the other (the later ones find nothing left to do). Returns the versions
 * it applied.
 */
export async function applyPgMigrations(pool: PgPool, migrations: readonly PgMigration[] = readPgMigrations()): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      const { rows } = await client.query<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
      const current = rows[0]?.version ?? 0;
      const known = migrations.reduce((highest, migration) => Math.max(highest, migration.version), 0);
      if (current > known) throw new SchemaTooNewError(current, known);
      const applied: number[] = [];
      for (const migration of migrations) {
        if (migration.version <= current) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new Error(`PostgreSQL migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, { cause: error });
        }
        applied.push(migration.version);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
}
