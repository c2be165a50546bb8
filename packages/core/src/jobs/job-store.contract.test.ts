// The jobs port's contract on every adapter: SQLite (two connections to one file), PostgreSQL (two pools
// on one database: two instances), and the in-memory one.

import { createMemoryJobStore } from './memory-job-store.js';
import { jobStoreContract } from './test-support/job-store-contract.js';
import { PgJobStore } from '../store/postgres/pg-job-store.js';
import { describeOnPostgres } from '../store/postgres/test-support/pg-test-database.js';
import { useTempStores } from '../store/test-support/temp-stores.js';

const stores = useTempStores('job-store');

jobStoreContract('SQLite', async () => ({ first: stores.open().jobRepository, second: stores.open().jobRepository }));

describeOnPostgres('jobs', (fresh) => {
  jobStoreContract('PostgreSQL', async () => {
    const database = await fresh();
    return { first: new PgJobStore(database.pool()), second: new PgJobStore(database.pool()) };
  });
});

jobStoreContract('memory', async () => {
  const store = createMemoryJobStore();
  return { first: store, second: store };
});
