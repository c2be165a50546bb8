// The rate-limit port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on
// one database): all limits of a call count together, and concurrent callers never get one call too many.

import { afterAll, beforeAll, describe } from 'vitest';
import { PgRateLimitStore } from './postgres/pg-rate-limit-store.js';
import { createTestDatabase, PG_SKIP_REASON, PG_TEST_URL, type TestDatabase } from './postgres/test-support/pg-test-database.js';
import { rateLimitStoreContract } from './test-support/rate-limit-store-contract.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('rate-limit-store');

rateLimitStoreContract('SQLite', async () => ({ first: stores.open().rateLimitRepository, second: stores.open().rateLimitRepository }));

describe.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? PG_SKIP_REASON : 'PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('limits');
  });
  afterAll(async () => database?.drop());
  rateLimitStoreContract('PostgreSQL', async () => {
    await database.truncate();
    return { first: new PgRateLimitStore(database.pool()), second: new PgRateLimitStore(database.pool()) };
  });
});
