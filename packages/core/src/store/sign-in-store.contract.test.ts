// The sign-in links port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on
// one database): a link signs in once, whichever instance the callback lands on.

import { PgSignInStore } from './postgres/pg-sign-in-store.js';
import { describeOnPostgres } from './postgres/test-support/pg-test-database.js';
import { signInStoreContract } from './test-support/sign-in-store-contract.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('sign-in-store');

signInStoreContract('SQLite', async () => ({ first: stores.open().signInRepository, second: stores.open().signInRepository }));

describeOnPostgres('sign_in', (fresh) => {
  signInStoreContract('PostgreSQL', async () => {
    const database = await fresh();
    return { first: new PgSignInStore(database.pool()), second: new PgSignInStore(database.pool()) };
  });
});
