// The badge and share tokens port's contract on SQLite (two connections to one file) and PostgreSQL (two
// pools on one database). The badge's own synchronous read (TokenRepository.findBadgeSubject) is SQLite's
// and is tested with the badge (audit-tokens/audit-tokens.test.ts, http/cheap-reads.test.ts).

import type { AuditRecord } from './audit-repository.js';
import { PgAuditStore } from './postgres/pg-audit-store.js';
import { PgTokenStore } from './postgres/pg-token-store.js';
import { describeOnPostgres } from './postgres/test-support/pg-test-database.js';
import { useTempStores } from './test-support/temp-stores.js';
import { OTHER_TOKEN_AUDIT_ID, TOKEN_AUDIT_ID, tokenStoreContract } from './test-support/token-store-contract.js';

const stores = useTempStores('token-store');

function audit(id: string): AuditRecord {
  return {
    id,
    createdAt: '2026-11-04T09:30:00.000Z',
    brand: 'Acme',
    brandKey: 'acme',
    website: 'https://acme.example/',
    category: 'CRM software',
    categoryKey: 'crm software',
    email: 'owner@acme.example',
    mode: 'live',
    measured: true,
    score: 62,
    response: { audit: { score: 62 } },
  };
}

tokenStoreContract('SQLite', async () => {
  const first = stores.open();
  // audit_tokens.audit_id references audits on both databases.
  for (const id of [TOKEN_AUDIT_ID, OTHER_TOKEN_AUDIT_ID]) await first.auditRepository.insertAudit(audit(id));
  return { first: first.tokenRepository, second: stores.open().tokenRepository };
});

describeOnPostgres('tokens', (fresh) => {
  tokenStoreContract('PostgreSQL', async () => {
    const database = await fresh();
    const audits = new PgAuditStore(database.pool());
    for (const id of [TOKEN_AUDIT_ID, OTHER_TOKEN_AUDIT_ID]) await audits.insertAudit(audit(id));
    return { first: new PgTokenStore(database.pool()), second: new PgTokenStore(database.pool()) };
  });
});
