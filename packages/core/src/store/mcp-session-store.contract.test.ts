// The MCP sessions port's contract on SQLite (two connections to one file) and PostgreSQL (two pools on
// one database): a session opened on one instance is found on the other, and ended on either it is ended on both.

import { PgMcpSessionStore } from './postgres/pg-mcp-session-store.js';
import { describeOnPostgres } from './postgres/test-support/pg-test-database.js';
import { mcpSessionStoreContract } from './test-support/mcp-session-store-contract.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('mcp-session-store');

mcpSessionStoreContract('SQLite', async () => ({ first: stores.open().mcpSessionRepository, second: stores.open().mcpSessionRepository }));

describeOnPostgres('mcp_sessions', (fresh) => {
  mcpSessionStoreContract('PostgreSQL', async () => {
    const database = await fresh();
    return { first: new PgMcpSessionStore(database.pool()), second: new PgMcpSessionStore(database.pool()) };
  });
});
