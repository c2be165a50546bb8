// The audits port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on one
// database): an audit stored by one instance reads back exactly on another.

import { describe, expect, it } from 'vitest';
import { PgAuditStore } from './postgres/pg-audit-store.js';
import { describeOnPostgres } from './postgres/test-support/pg-test-database.js';
import { auditStoreContract, contractAudit } from './test-support/audit-store-contract.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('audit-store');

auditStoreContract('SQLite', async () => ({ first: stores.open().auditRepository, second: stores.open().auditRepository }));

describe('AuditRepository (SQLite only)', () => {
  it('reads an audit synchronously for the fast paths, the same as the port does', async () => {
    const repository = stores.open().auditRepository;
    const record = contractAudit({ email: 'owner@acme.example', response: { audit: { score: 50 } } });
    await repository.insertAudit(record);
    expect(repository.getAuditNow(record.id)).toEqual(await repository.getAudit(record.id));
    expect(repository.getAuditNow('missing')).toBeUndefined();
  });
});

describeOnPostgres('audits', (fresh) => {
  auditStoreContract('PostgreSQL', async () => {
    const database = await fresh();
    return { first: new PgAuditStore(database.pool()), second: new PgAuditStore(database.pool()) };
  });
});
