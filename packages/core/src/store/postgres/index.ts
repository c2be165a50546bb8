// The PostgreSQL adapters of the store's ports (DATABASE_URL=postgres://…), their pool and migrations.

export { applyPgMigrations, migrationHistoryProblems, PG_MIGRATIONS_DIR, PgMigrationHistoryError, readPgMigrations } from './migrate.js';
export type { PgMigration } from './migrate.js';
export { PgJobStore } from './pg-job-store.js';
export { PgAccountStore } from './pg-account-store.js';
export { PgAuditStore } from './pg-audit-store.js';
export { PgMapStore } from './pg-map-store.js';
export { PgBudgetStore } from './pg-budget-store.js';
export { PgRateLimitStore } from './pg-rate-limit-store.js';
export { PgMcpSessionStore } from './pg-mcp-session-store.js';
export { PgRunStore } from './pg-run-store.js';
export { PgSignInStore } from './pg-sign-in-store.js';
export { PgTokenStore } from './pg-token-store.js';
export { PgWatchStore } from './pg-watch-store.js';
export { createPgPool, inTransaction, isStoreUnreachable, PG_CONNECT_TIMEOUT_MS, PG_POOL_WAIT_MS, PG_STATEMENT_TIMEOUT_MS, type PgPoolOptions } from './pool.js';
export type { PgPool } from './pool.js';
