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

/**
 * The database's applied migrations do not fit this build's files: a gap (a version below the newest
 * applied one that was never applied), a version this build has no file for, or a version applied
 * under another name (two branches that numbered different migrations alike). Starting on such a
 * schema would run against tables that are not what the code expects, so the start stops here.
 */
export class PgMigrationHistoryError extends Error {
  override readonly name = 'PgMigrationHistoryError';
  constructor(readonly problems: readonly string[]) {
    super(
      `The database's schema_migrations do not match this build's migrations (packages/core/migrations/postgres): ${problems.join('; ')}. ` +
        'Refusing to start; restore the database from a backup taken by this build, or run the build that migrated it.',
    );
  }
}

/** What is wrong with the applied history against the known files (empty when it is a clean prefix). */
export function migrationHistoryProblems(applied: readonly { version: number; name: string }[], migrations: readonly PgMigration[]): string[] {
  const problems: string[] = [];
  const known = new Map(migrations.map((migration) => [migration.version, migration]));
  const appliedVersions = new Set(applied.map((row) => row.version));
  const newest = applied.reduce((highest, row) => Math.max(highest, row.version), 0);
  const knownNewest = migrations.reduce((highest, migration) => Math.max(highest, migration.version), 0);
  for (const row of applied) {
    const file = known.get(row.version);
    // Versions past the newest file are SchemaTooNewError's (a newer build migrated it), not ours.
    if (file === undefined && row.version <= knownNewest) problems.push(`version ${row.version} (${row.name}) is applied but this build has no such migration`);
    else if (file !== undefined && file.name !== row.name) problems.push(`version ${row.version} was applied as "${row.name}" but this build's ${row.version} is "${file.name}"`);
  }
  const missing = migrations.filter((migration) => migration.version < newest && !appliedVersions.has(migration.version)).map((migration) => migration.version);
  if (missing.length > 0) problems.push(`version${missing.length === 1 ? '' : 's'} ${missing.join(', ')} never applied below the newest applied version ${newest} (a gap)`);
  return problems;
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
    .sort((left, right) => left.version - right.version)
    .map((migration, index, all) => {
      if (index > 0 && all[index - 1]?.version === migration.version) throw new Error(`two PostgreSQL migrations are numbered ${migration.version} in ${dir}`);
      return migration;
    });
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
      const { rows } = await client.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version');
      const current = rows.reduce((highest, row) => Math.max(highest, row.version), 0);
      const known = migrations.reduce((highest, migration) => Math.max(highest, migration.version), 0);
      if (current > known) throw new SchemaTooNewError(current, known);
      const problems = migrationHistoryProblems(rows, migrations);
      if (problems.length > 0) throw new PgMigrationHistoryError(problems);
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
