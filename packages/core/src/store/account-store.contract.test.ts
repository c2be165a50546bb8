// The accounts port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on
// one database): credits are spent exactly, whichever instance spends.

import { PgAccountStore } from './postgres/pg-account-store.js';
import { describeOnPostgres } from './postgres/test-support/pg-test-database.js';
import { accountStoreContract } from './test-support/account-store-contract.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('account-store');

accountStoreContract('SQLite', async () => ({ first: stores.open().accountRepository, second: stores.open().accountRepository }));

describeOnPostgres('accounts', (fresh) => {
  accountStoreContract('PostgreSQL', async () => {
    const database = await fresh();
    return { first: new PgAccountStore(database.pool()), second: new PgAccountStore(database.pool()) };
  });
});
