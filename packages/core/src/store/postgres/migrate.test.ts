import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaTooNewError } from '../migrations.js';
import { applyPgMigrations, migrationHistoryProblems, PgMigrationHistoryError, readPgMigrations, type PgMigration } from './migrate.js';
import type { PgPool } from './pool.js';
import { createTestDatabase, PG_SKIP_REASON, PG_TEST_URL, type TestDatabase } from './test-support/pg-test-database.js';

const files: PgMigration[] = [1, 2, 3, 4].map((version) => ({ version, name: `step_${version}`, sql: '' }));
const applied = (...versions: number[]) => versions.map((version) => ({ version, name: `step_${version}` }));

describe('the PostgreSQL migration history check', () => {
  it('accepts an empty database and any clean prefix of the files', () => {
    expect(migrationHistoryProblems([], files)).toEqual([]);
    expect(migrationHistoryProblems(applied(1, 2), files)).toEqual([]);
    expect(migrationHistoryProblems(applied(1, 2, 3, 4), files)).toEqual([]);
  });

  it('names a gap: a version below the newest applied one that was never applied', () => {
    expect(migrationHistoryProblems(applied(1, 3), files)).toEqual(['version 2 never applied below the newest applied version 3 (a gap)']);
    expect(migrationHistoryProblems(applied(4), files)).toEqual(['versions 1, 2, 3 never applied below the newest applied version 4 (a gap)']);
  });

  it('names a version this build has no file for, and one applied under another name', () => {
    const withHole = files.filter((file) => file.version !== 3);
    expect(migrationHistoryProblems(applied(1, 2, 3, 4), withHole)).toEqual(['version 3 (step_3) is applied but this build has no such migration']);
    expect(migrationHistoryProblems([...applied(1), { version: 2, name: 'other_branch' }], files)).toEqual([
      'version 2 was applied as "other_branch" but this build\'s 2 is "step_2"',
    ]);
  });

  it('leaves versions past the newest file to SchemaTooNewError', () => {
    expect(migrationHistoryProblems(applied(1, 2, 3, 4, 5), files)).toEqual([]);
  });

  it('refuses two files with one number', () => {
    const dir = mkdtempSync(join(tmpdir(), 'visibility-pg-migrations-'));
    try {
      writeFileSync(join(dir, '001_a.sql'), 'SELECT 1;');
      writeFileSync(join(dir, '001_b.sql'), 'SELECT 1;');
      expect(() => readPgMigrations(dir)).toThrow(/two PostgreSQL migrations are numbered 1/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? PG_SKIP_REASON : 'applyPgMigrations on PostgreSQL', () => {
  let database: TestDatabase;
  let pool: PgPool;
  beforeAll(async () => {
    database = await createTestDatabase('migrate');
    pool = database.pool();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('finds nothing to do on a migrated database, and refuses to start on a gap, an unknown version or a renamed one', async () => {
    const newest = Math.max(...readPgMigrations().map((migration) => migration.version));
    expect(await applyPgMigrations(pool)).toEqual([]);

    const { rows } = await pool.query<{ name: string }>('DELETE FROM schema_migrations WHERE version = 3 RETURNING name');
    await expect(applyPgMigrations(pool)).rejects.toThrow(PgMigrationHistoryError);
    await expect(applyPgMigrations(pool)).rejects.toThrow(/version 3 never applied below the newest applied version \d+ \(a gap\)/);
    await pool.query('INSERT INTO schema_migrations (version, name) VALUES (3, $1)', [rows[0]?.name]);

    await pool.query("UPDATE schema_migrations SET name = 'from_another_branch' WHERE version = 2");
    await expect(applyPgMigrations(pool)).rejects.toThrow(/version 2 was applied as "from_another_branch"/);
    const original = readPgMigrations().find((migration) => migration.version === 2)?.name;
    await pool.query('UPDATE schema_migrations SET name = $1 WHERE version = 2', [original]);

    // A build with one file fewer in the middle (the files of another branch) meets a database that has it.
    const withHole = readPgMigrations().filter((migration) => migration.version !== 4);
    await expect(applyPgMigrations(pool, withHole)).rejects.toThrow(/version 4 \(\w+\) is applied but this build has no such migration/);

    // Past the newest file: a newer build migrated it.
    await pool.query("INSERT INTO schema_migrations (version, name) VALUES ($1, 'from_the_future')", [newest + 1]);
    await expect(applyPgMigrations(pool)).rejects.toThrow(SchemaTooNewError);
    await pool.query('DELETE FROM schema_migrations WHERE version = $1', [newest + 1]);
    expect(await applyPgMigrations(pool)).toEqual([]);
  });
});
