// The budget port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on one
// database): reservations exact under concurrency, settlements atomic with their call-log row.

import { PgBudgetStore } from './postgres/pg-budget-store.js';
import { describeOnPostgres } from './postgres/test-support/pg-test-database.js';
import { budgetStoreContract } from './test-support/budget-store-contract.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('budget-store');

budgetStoreContract('SQLite', async () => {
  const store = stores.open();
  return {
    first: store.budgetRepository,
    second: stores.open().budgetRepository,
    callLog: async () => store.database.prepare('SELECT purpose, outcome FROM provider_calls ORDER BY id').all() as Array<{ purpose: string; outcome: string }>,
    breakCallLog: async () => void store.database.exec("CREATE TRIGGER broken_log BEFORE INSERT ON provider_calls BEGIN SELECT RAISE(ABORT, 'disk gone'); END"),
    repairCallLog: async () => void store.database.exec('DROP TRIGGER broken_log'),
  };
});

describeOnPostgres(
  'budget',
  (fresh) => {
    budgetStoreContract('PostgreSQL', async () => {
      const database = await fresh();
      const admin = database.pool();
      return {
        first: new PgBudgetStore(database.pool()),
        second: new PgBudgetStore(database.pool()),
        callLog: async () => (await admin.query<{ purpose: string; outcome: string }>('SELECT purpose, outcome FROM provider_calls ORDER BY id')).rows,
        breakCallLog: async () => void (await admin.query('CREATE TRIGGER broken_log BEFORE INSERT ON provider_calls FOR EACH ROW EXECUTE FUNCTION broken_log()')),
        repairCallLog: async () => void (await admin.query('DROP TRIGGER broken_log ON provider_calls')),
      };
    });
  },
  async (database) => {
    await database.pool().query("CREATE FUNCTION broken_log() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk gone'; END $$");
  },
);
