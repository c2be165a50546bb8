// The watches port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on one
// database): a due watch is claimed by exactly one instance, a manual run spends one credit, each answer
// is stored once, each alert try is claimed once.

import { afterAll, beforeAll, describe } from 'vitest';
import { PgAccountStore } from './postgres/pg-account-store.js';
import { PgWatchStore } from './postgres/pg-watch-store.js';
import { createTestDatabase, PG_SKIP_REASON, PG_TEST_URL, type TestDatabase } from './postgres/test-support/pg-test-database.js';
import { useTempStores } from './test-support/temp-stores.js';
import { watchStoreContract } from './test-support/watch-store-contract.js';

const stores = useTempStores('watch-store');

watchStoreContract('SQLite', async () => {
  const first = stores.open();
  return { first: first.watchRepository, second: stores.open().watchRepository, accounts: first.accountRepository };
});

describe.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? PG_SKIP_REASON : 'PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('watches');
  });
  afterAll(async () => database?.drop());
  watchStoreContract('PostgreSQL', async () => {
    await database.truncate();
    return { first: new PgWatchStore(database.pool()), second: new PgWatchStore(database.pool()), accounts: new PgAccountStore(database.pool()) };
  });
});
