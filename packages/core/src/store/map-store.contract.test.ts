// The maps port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on one
// database): one first job and one paid re-run per audit whichever instance starts it, each cell once.

import { PgAccountStore } from './postgres/pg-account-store.js';
import { PgAuditStore } from './postgres/pg-audit-store.js';
import { PgMapStore } from './postgres/pg-map-store.js';
import { describeOnPostgres } from './postgres/test-support/pg-test-database.js';
import { mapStoreContract } from './test-support/map-store-contract.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('map-store');

mapStoreContract('SQLite', async () => {
  const store = stores.open();
  return { first: store.mapStore, second: stores.open().mapStore, audits: store.auditRepository, accounts: store.accountRepository };
});

describeOnPostgres('maps', (fresh) => {
  mapStoreContract('PostgreSQL', async () => {
    const database = await fresh();
    return {
      first: new PgMapStore(database.pool()),
      second: new PgMapStore(database.pool()),
      audits: new PgAuditStore(database.pool()),
      accounts: new PgAccountStore(database.pool()),
    };
  });
});
