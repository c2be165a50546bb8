// The rate-limit port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on
// one database): all limits of a call count together, and concurrent callers never get one call too many.

import { PgRateLimitStore } from './postgres/pg-rate-limit-store.js';
import { describeOnPostgres } from './postgres/test-support/pg-test-database.js';
import { rateLimitStoreContract } from './test-support/rate-limit-store-contract.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('rate-limit-store');

rateLimitStoreContract('SQLite', async () => ({ first: stores.open().rateLimitRepository, second: stores.open().rateLimitRepository }));

describeOnPostgres('limits', (fresh) => {
  rateLimitStoreContract('PostgreSQL', async () => {
    const database = await fresh();
    return { first: new PgRateLimitStore(database.pool()), second: new PgRateLimitStore(database.pool()) };
  });
});
