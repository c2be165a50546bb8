import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentSchemaVersion, MIGRATIONS, SchemaTooNewError } from './migrations.js';
import { openStore } from './store.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'visibility-store-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const newest = Math.max(...MIGRATIONS.map((migration) => migration.version));

describe('openStore', () => {
  it('creates a fresh database in WAL mode at the newest schema', () => {
    const store = openStore({ dataDir });
    expect(store.appliedMigrations).toEqual(MIGRATIONS.map((migration) => migration.version));
    expect(currentSchemaVersion(store.database)).toBe(newest);
    expect(store.database.pragma('journal_mode', { simple: true })).toBe('wal');
    store.close();
  });

  it('migrates an existing older database forward and keeps its data', () => {
    const first = MIGRATIONS.filter((migration) => migration.version === 1);
    const old = openStore({ dataDir, migrations: first });
    expect(old.appliedMigrations).toEqual([1]);
    old.repository.setMeta('installed', 'long ago');
    old.close();

    const upgraded = openStore({ dataDir });
    expect(upgraded.appliedMigrations).toEqual(MIGRATIONS.filter((migration) => migration.version > 1).map((m) => m.version));
    expect(upgraded.repository.getMeta('installed')).toBe('long ago');
    upgraded.repository.recordProviderCall({
      provider: 'openai',
      model: 'gpt-4.1-mini-2025-04-14',
      purpose: 'repeat',
      outcome: 'ok',
      inputTokens: 12,
      outputTokens: 300,
      latencyMs: 900,
      attempts: 1,
      createdAt: '2026-11-02T10:00:00.000Z',
    });
    upgraded.close();

    const again = openStore({ dataDir });
    expect(again.appliedMigrations).toEqual([]);
    expect(again.repository.providerCallTotals(new Date('2026-11-01T00:00:00Z'))).toEqual({
      calls: 1,
      failed: 0,
      inputTokens: 12,
      outputTokens: 300,
    });
    expect(again.repository.providerCallTotals(new Date('2026-12-01T00:00:00Z')).calls).toBe(0);
    again.close();
  });

  it('refuses a database written by a newer build', () => {
    const store = openStore({ dataDir });
    store.database.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(newest + 1, 'future', 'x');
    store.close();
    expect(() => openStore({ dataDir })).toThrow(SchemaTooNewError);
  });

  it('rolls a failing migration back whole', () => {
    const broken = [
      ...MIGRATIONS,
      { version: newest + 1, name: 'broken', sql: 'CREATE TABLE half_done (id INTEGER); SELECT * FROM no_such_table;' },
    ];
    expect(() => openStore({ dataDir, migrations: broken })).toThrow(/no_such_table/);
    const store = openStore({ dataDir });
    expect(currentSchemaVersion(store.database)).toBe(newest);
    const table = store.database.prepare("SELECT name FROM sqlite_master WHERE name = 'half_done'").get();
    expect(table).toBeUndefined();
    store.close();
  });
});
