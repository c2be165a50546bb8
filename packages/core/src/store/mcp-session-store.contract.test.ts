// The MCP sessions port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on
// one database): a session opened on one instance is found on the other, and ended on either it is ended on both.

import { afterAll, beforeAll, describe } from 'vitest';
import { PgMcpSessionStore } from './postgres/pg-mcp-session-store.js';
import { createTestDatabase, PG_SKIP_REASON, PG_TEST_URL, type TestDatabase } from './postgres/test-support/pg-test-database.js';
import { mcpSessionStoreContract } from './test-support/mcp-session-store-contract.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('mcp-session-store');

mcpSessionStoreContract('SQLite', async () => ({ first: stores.open().mcpSessionRepository, second: stores.open().mcpSessionRepository }));

describe.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? PG_SKIP_REASON : 'PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('mcp_sessions');
  });
  afterAll(async () => database?.drop());
  mcpSessionStoreContract('PostgreSQL', async () => {
    await database.truncate();
    return { first: new PgMcpSessionStore(database.pool()), second: new PgMcpSessionStore(database.pool()) };
  });
});
