// The accounts port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on
// one database): credits are spent exactly, whichever instance spends.

import { afterAll, beforeAll, describe } from 'vitest';
import { PgAccountStore } from './postgres/pg-account-store.js';
import { createTestDatabase, PG_SKIP_REASON, PG_TEST_URL, type TestDatabase } from './postgres/test-support/pg-test-database.js';
import { accountStoreContract } from './test-support/account-store-contract.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('account-store');

accountStoreContract('SQLite', async () => ({ first: stores.open().accountRepository, second: stores.open().accountRepository }));

describe.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? PG_SKIP_REASON : 'PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('accounts');
  });
  afterAll(async () => database?.drop());
  accountStoreContract('PostgreSQL', async () => {
    await database.truncate();
    return { first: new PgAccountStore(database.pool()), second: new PgAccountStore(database.pool()) };
  });
});
