// The sign-in links port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on
// one database): a link signs in once, whichever instance the callback lands on.

import { afterAll, beforeAll, describe } from 'vitest';
import { PgSignInStore } from './postgres/pg-sign-in-store.js';
import { createTestDatabase, PG_SKIP_REASON, PG_TEST_URL, type TestDatabase } from './postgres/test-support/pg-test-database.js';
import { signInStoreContract } from './test-support/sign-in-store-contract.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('sign-in-store');

signInStoreContract('SQLite', async () => ({ first: stores.open().signInRepository, second: stores.open().signInRepository }));

describe.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? PG_SKIP_REASON : 'PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sign_in');
  });
  afterAll(async () => database?.drop());
  signInStoreContract('PostgreSQL', async () => {
    await database.truncate();
    return { first: new PgSignInStore(database.pool()), second: new PgSignInStore(database.pool()) };
  });
});
