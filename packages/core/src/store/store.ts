import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type BetterSqlite3Type from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { applyMigrations, MIGRATIONS, type Migration } from './migrations.js';
import { AccountRepository } from './account-repository.js';
import { AuditRepository } from './audit-repository.js';
import { BudgetRepository } from './budget-repository.js';
import { MapRepository } from './map-repository.js';
import { JobRepository } from './job-repository.js';
import { McpRunRepository } from './mcp-run-repository.js';
import { McpSessionRepository } from './mcp-session-repository.js';
import { RateLimitRepository } from './rate-limit-repository.js';
import { SignInRepository } from './sign-in-repository.js';
import { SqliteMapStore } from './sqlite-map-store.js';
import { Repository } from './repository.js';
import { TokenRepository } from './token-repository.js';
import { WatchRepository } from './watch-repository.js';

const require = createRequire(import.meta.url);
let driver: typeof BetterSqlite3Type | undefined;

/**
 * better-sqlite3 12 (raw node::ObjectWrap) aborts the process on Node 24 when a statement is
 * collected after the environment is gone ("Assertion failed: (env) != nullptr" at exit or in
 * workers); 13 (Node-API) fixes that but needs Node 22 and crashes on Node 20. Both are installed
 * where they can be: 13 as the optional `better-sqlite3-napi` alias (npm skips it on Node 20), so
 * Node 22+ uses 13 and Node 20 uses 12. Same API, same database file format.
 */
export function sqliteDriver(): typeof BetterSqlite3Type {
  if (driver !== undefined) return driver;
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 22) {
    try {
      driver = require('better-sqlite3-napi') as typeof BetterSqlite3Type;
      return driver;
    } catch {
      // not installed (an install without optional dependencies): 12 still works, with the exit-time caveat
    }
  }
  driver = require('better-sqlite3') as typeof BetterSqlite3Type;
  return driver;
}

export interface Store {
  readonly path: string;
  readonly database: Database;
  readonly repository: Repository;
  /** Persistent fixed-window counters behind the rate limiter. */
  readonly rateLimitRepository: RateLimitRepository;
  /** Monthly spend and open reservations behind the provider budget. */
  readonly budgetRepository: BudgetRepository;
  readonly auditRepository: AuditRepository;
  readonly accountRepository: AccountRepository;
  /** Buyer-question map jobs and their cells. */
  readonly mapRepository: MapRepository;
  /** The maps port over mapRepository (and the accounts, for a re-run's credit). */
  readonly mapStore: SqliteMapStore;
  /** One-time sign-in links, stored hashed. */
  readonly signInRepository: SignInRepository;
  /** Badge tokens and share links, stored hashed. */
  readonly tokenRepository: TokenRepository;
  /** Measurements started through the MCP tools. */
  readonly mcpRunRepository: McpRunRepository;
  /** MCP sessions, so another process can rebuild one it does not hold. */
  readonly mcpSessionRepository: McpSessionRepository;
  /** Watches (tracking over time), their runs, answers and alerts. */
  readonly watchRepository: WatchRepository;
  /** Job leases (the jobs port): who works on which background job, until when. */
  readonly jobRepository: JobRepository;
  /** Schema versions applied while opening (empty when it was already current). */
  readonly appliedMigrations: readonly number[];
  close(): void;
}

export interface OpenStoreOptions {
  dataDir: string;
  /** File name inside dataDir (default visibility.sqlite). */
  fileName?: string;
  migrations?: readonly Migration[];
}

/** Opens (creating if needed) the SQLite store in WAL mode and migrates it to the newest schema. */
export function openStore(options: OpenStoreOptions): Store {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, options.fileName ?? 'visibility.sqlite');
  const database = new (sqliteDriver())(path);
  try {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
    const appliedMigrations = applyMigrations(database, options.migrations ?? MIGRATIONS);
    const repository = new Repository(database);
    const accountRepository = new AccountRepository(database);
    const mapRepository = new MapRepository(database);
    let closed = false;
    return {
      path,
      database,
      repository,
      rateLimitRepository: new RateLimitRepository(database),
      budgetRepository: new BudgetRepository(database),
      auditRepository: new AuditRepository(database),
      accountRepository,
      mapRepository,
      mapStore: new SqliteMapStore(mapRepository, accountRepository),
      signInRepository: new SignInRepository(database),
      tokenRepository: new TokenRepository(database),
      mcpRunRepository: new McpRunRepository(database),
      mcpSessionRepository: new McpSessionRepository(database),
      watchRepository: new WatchRepository(database),
      jobRepository: new JobRepository(database),
      appliedMigrations,
      close() {
        if (closed) return;
        closed = true;
        database.close();
      },
    };
  } catch (error) {
    database.close();
    throw error;
  }
}
