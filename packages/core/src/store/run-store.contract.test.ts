// The runs port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on one
// database): what one instance claims, another sees, and concurrent claims create one run.

import { insertAudit } from '../map/test-support/map-fixtures.js';
import { PgAuditStore } from './postgres/pg-audit-store.js';
import { PgRunStore } from './postgres/pg-run-store.js';
import { describeOnPostgres } from './postgres/test-support/pg-test-database.js';
import { contractAudit } from './test-support/audit-store-contract.js';
import { runStoreContract } from './test-support/run-store-contract.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('run-store');

runStoreContract('SQLite', async () => {
  const store = stores.open();
  return { first: store.mcpRunRepository, second: stores.open().mcpRunRepository, auditId: async () => insertAudit(store) };
});

describeOnPostgres('runs', (fresh) => {
  runStoreContract('PostgreSQL', async () => {
    const database = await fresh();
    const audits = new PgAuditStore(database.pool());
    // A run's audit must exist (mcp_runs.audit_id references audits in both stores).
    const auditId = async (): Promise<string> => {
      const audit = contractAudit();
      await audits.insertAudit(audit);
      return audit.id;
    };
    return { first: new PgRunStore(database.pool()), second: new PgRunStore(database.pool()), auditId };
  });
});
