import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openStore, type Store } from '../store.js';

/**
 * A fresh DATA_DIR per test; `open()` opens another connection to its database file (several
 * connections stand for several processes). Everything opened is closed and removed after each test.
 */
export function useTempStores(prefix: string): { open(): Store; dataDir(): string } {
  let folder = '';
  const opened: Store[] = [];
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), `visibility-${prefix}-`));
  });
  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
    rmSync(folder, { recursive: true, force: true });
  });
  return {
    open() {
      const store = openStore({ dataDir: folder });
      opened.push(store);
      return store;
    },
    dataDir: () => folder,
  };
}
