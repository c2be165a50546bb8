// kill -9 of the server in the middle of a buyer-question map while a second server runs on the same
// DATA_DIR: the second takes the job over (its job runner finds the lease of a dead process) and asks only
// the cells that were not stored, well within 60 s. Each server runs as the real CLI in LIVE mode against a
// standalone simulator process, so every provider call crosses a process boundary and is counted there.
// The scene (and its checks) is shared with the PostgreSQL twin, map-routes.pg-kill.test.ts.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '@visibility/core';
import { startMapKillScene, type MapKillScene } from '../test-support/map-kill.js';

describe('buyer-question map: kill -9 mid-map', () => {
  let scene: MapKillScene;
  let dataDir: string;

  beforeAll(async () => {
    scene = await startMapKillScene();
    dataDir = mkdtempSync(join(tmpdir(), 'visibility-map-kill-'));
  }, 360_000);

  afterAll(async () => {
    await scene?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  it('is taken over by the other instance within 60 s, asking only the cells that were not stored: every stored answer is asked once', async () => {
    // Both instances on one DATA_DIR.
    const killed = await scene.killOwnerMidMap({ DATA_DIR: dataDir }, { DATA_DIR: dataDir });

    // What survived the kill, read straight from the database.
    const store = openStore({ dataDir });
    const storedCells = store.mapRepository.listCells(killed.auditId, 1);
    const jobAtKill = store.mapRepository.runningJob(killed.auditId);
    store.close();
    expect(jobAtKill?.status).toBe('running');
    await scene.expectTakeOver(killed, storedCells);
  }, 240_000);
});
