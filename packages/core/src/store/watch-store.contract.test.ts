// The watches port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on one
// database): a due watch is claimed by exactly one instance, a manual run spends one credit, each answer
// is stored once, each alert try is claimed once.

import { PgAccountStore } from './postgres/pg-account-store.js';
import { PgWatchStore } from './postgres/pg-watch-store.js';
import { describeOnPostgres } from './postgres/test-support/pg-test-database.js';
import { useTempStores } from './test-support/temp-stores.js';
import { watchStoreContract } from './test-support/watch-store-contract.js';

const stores = useTempStores('watch-store');

watchStoreContract('SQLite', async () => {
  const first = stores.open();
  return { first: first.watchRepository, second: stores.open().watchRepository, accounts: first.accountRepository };
});

describeOnPostgres('watches', (fresh) => {
  watchStoreContract('PostgreSQL', async () => {
    const database = await fresh();
    return { first: new PgWatchStore(database.pool()), second: new PgWatchStore(database.pool()), accounts: new PgAccountStore(database.pool()) };
  });
});
