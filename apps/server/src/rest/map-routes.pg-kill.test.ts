// Issue 17's second "done when", on PostgreSQL: kill -9 of the instance that owns a buyer-question map while
// a second instance runs on the same database (DATABASE_URL, no shared DATA_DIR): the second takes the job
// over once the dead owner's lease runs out (instances may be on other hosts, so only expiry frees a lease
// here) and asks only the cells that were not stored, within 60 s. JOB_LEASE_SECONDS=6 shortens the lease
// so the takeover comes in seconds rather than 35 s; the bound checked is still the service's 60 s. Each
// instance runs as the real CLI in LIVE mode against a standalone simulator process, so every provider call
// crosses a process boundary and is counted there. The SQLite twin is map-routes.kill.test.ts; the scene
// (and its checks) both play is test-support/map-kill.ts.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgPool, type PgPool } from '@visibility/core';
import { startMapKillScene, type MapKillScene, type StoredCell } from '../test-support/map-kill.js';

const LEASE_SECONDS = 6;
const PG_TEST_URL = process.env['VISIBILITY_TEST_DATABASE_URL'];
const SKIP_REASON = 'PostgreSQL kill test skipped: no VISIBILITY_TEST_DATABASE_URL (install postgresql: apt-get install -y postgresql)';

describe.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? SKIP_REASON : 'buyer-question map on PostgreSQL: kill -9 mid-map', () => {
  let scene: MapKillScene;
  let dataDirs: string[];
  let admin: PgPool;
  let database: PgPool;
  let databaseName: string;
  let databaseUrl: string;

  beforeAll(async () => {
    scene = await startMapKillScene();
    // Each instance its own DATA_DIR: nothing is shared but the database.
    dataDirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'visibility-pg-map-kill-')));
    admin = createPgPool(PG_TEST_URL as string, { max: 1 });
    databaseName = `vis_map_kill_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${databaseName}`);
    const url = new URL(PG_TEST_URL as string);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    database = createPgPool(databaseUrl, { max: 2 });
  }, 360_000);

  afterAll(async () => {
    await scene?.close();
    for (const dataDir of dataDirs ?? []) rmSync(dataDir, { recursive: true, force: true });
    await database?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin?.end();
  });

  const instanceSettings = (dataDir: string): NodeJS.ProcessEnv => ({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: 'k'.repeat(40),
    JOB_LEASE_SECONDS: String(LEASE_SECONDS),
  });

  it('is taken over by the other instance within 60 s, asking only the cells that were not stored: every stored answer is asked once', async () => {
    const killed = await scene.killOwnerMidMap(instanceSettings(dataDirs[0] as string), instanceSettings(dataDirs[1] as string));
    const { auditId, killedAt } = killed;

    // What survived the kill, read straight from the database.
    const { rows: storedCells } = await database.query<StoredCell>(
      'SELECT question_index AS "questionIndex", provider, answer FROM buyer_question_map_cells WHERE audit_id = $1 AND generation = 1',
      [auditId],
    );
    const { rows: jobAtKill } = await database.query<{ status: string }>('SELECT status FROM buyer_question_map_jobs WHERE audit_id = $1', [auditId]);
    const { rows: leaseAtKill } = await database.query<{ owner: string | null; expires: string }>(
      "SELECT owner, lease_expires_at AS expires FROM job_leases WHERE kind = 'map' AND key = $1 AND status = 'open'",
      [`${auditId}#1`],
    );
    expect(jobAtKill).toEqual([{ status: 'running' }]);
    // The dead owner still holds the lease: only its expiry frees it on PostgreSQL.
    expect(leaseAtKill).toHaveLength(1);
    expect(leaseAtKill[0]?.owner).not.toBeNull();
    expect(Number(leaseAtKill[0]?.expires)).toBeGreaterThan(killedAt - LEASE_SECONDS * 1000);
    await scene.expectTakeOver(killed, storedCells);
  }, 240_000);
});
