import type { Database } from 'better-sqlite3';
import { MIGRATION_006_BUYER_QUESTION_MAPS } from './migration-006-buyer-question-maps.js';
import { MIGRATION_011_WATCHES } from './migration-011-watches.js';

/** One schema change. Versions are applied once, in order, each in its own transaction. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every schema change the service knows, oldest first. Append only: never edit a shipped one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'app_meta',
    sql: `
      CREATE TABLE app_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 2,
    name: 'provider_calls',
    sql: `
      CREATE TABLE provider_calls (
        id INTEGER PRIMARY KEY,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        purpose TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'failed')),
        failure_kind TEXT,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        latency_ms INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX provider_calls_created_at ON provider_calls (created_at);
    `,
  },
  {
    version: 3,
    name: 'rate_limit_counters',
    // One row per (limit, caller, fixed window). Times are epoch milliseconds so window arithmetic
    // needs no date parsing; window_end is indexed because pruning deletes by it.
    sql: `
      CREATE TABLE rate_limit_counters (
        bucket TEXT NOT NULL,
        caller_key TEXT NOT NULL,
        window_start INTEGER NOT NULL,
        window_end INTEGER NOT NULL,
        used INTEGER NOT NULL CHECK (used >= 0),
        PRIMARY KEY (bucket, caller_key, window_start)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX rate_limit_counters_window_end ON rate_limit_counters (window_end);
    `,
  },
  {
    version: 4,
    name: 'budget',
    // Money is integer micro-dollars so sums never drift. budget_spend holds settled spend per UTC
    // month ("YYYY-MM"); budget_reservations holds estimates of calls still in flight.
    sql: `
      CREATE TABLE budget_spend (
        month TEXT PRIMARY KEY,
        spent_micro_usd INTEGER NOT NULL DEFAULT 0 CHECK (spent_micro_usd >= 0),
        calls INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE budget_reservations (
        id TEXT PRIMARY KEY,
        month TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        estimate_micro_usd INTEGER NOT NULL CHECK (estimate_micro_usd >= 0),
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX budget_reservations_created_at ON budget_reservations (created_at);
    `,
  },
  {
    version: 5,
    name: 'audits',
    // The response is kept whole (it may gain fields over time); the columns are what we query by.
    // category_key and brand_key are normalised so the category benchmark groups spellings together.
    sql: `
      CREATE TABLE audits (
        id TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        brand TEXT NOT NULL,
        brand_key TEXT NOT NULL,
        website TEXT NOT NULL,
        category TEXT NOT NULL,
        category_key TEXT NOT NULL,
        email TEXT,
        mode TEXT NOT NULL,
        measured INTEGER NOT NULL CHECK (measured IN (0, 1)),
        score REAL,
        response_json TEXT NOT NULL
      ) STRICT;
      CREATE INDEX audits_category_key ON audits (category_key, created_at);
      CREATE INDEX audits_email ON audits (email) WHERE email IS NOT NULL;
    `,
  },
  MIGRATION_006_BUYER_QUESTION_MAPS,
  {
    version: 7,
    name: 'accounts',
    // Accounts exist from the first sign-in or credit grant. Sign-in links are stored hashed and used once.
    sql: `
      CREATE TABLE accounts (
        email TEXT PRIMARY KEY,
        credits INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE sign_in_links (
        token_hash TEXT PRIMARY KEY,
        email TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT
      ) STRICT;
      CREATE INDEX sign_in_links_email ON sign_in_links (email, created_at);
    `,
  },
  {
    version: 8,
    name: 'audit_tokens',
    // Badge tokens and share links, stored as SHA-256 hashes: the raw token is shown once, to its owner.
    sql: `
      CREATE TABLE audit_tokens (
        token_hash TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('badge', 'share')),
        audit_id TEXT NOT NULL REFERENCES audits (id),
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      ) STRICT;
      CREATE INDEX audit_tokens_audit ON audit_tokens (audit_id, kind);
    `,
  },
  {
    version: 9,
    name: 'mcp_runs',
    // One row per measurement started through the MCP tools (audit, then its buyer-question map). The
    // (domain, mode, created_at) index serves the quota lookup: one free run per domain every 30 days.
    // The request is kept without the email (the audit holds that) so a run can be described later.
    sql: `
      CREATE TABLE mcp_runs (
        id TEXT PRIMARY KEY,
        domain TEXT NOT NULL,
        mode TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'auditing', 'mapping', 'done', 'failed')),
        brand TEXT NOT NULL,
        website TEXT NOT NULL,
        category TEXT NOT NULL,
        request_json TEXT NOT NULL,
        audit_id TEXT REFERENCES audits (id),
        error_code TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        finished_at TEXT
      ) STRICT;
      CREATE INDEX mcp_runs_domain ON mcp_runs (domain, mode, created_at);
      CREATE INDEX mcp_runs_unfinished ON mcp_runs (status) WHERE status IN ('queued', 'auditing', 'mapping');
    `,
  },
  {
    version: 10,
    name: 'job_leases',
    // One row per piece of background work (kind 'map' keyed auditId#generation, kind 'mcp-run' keyed
    // by run id): who holds it and until when (epoch ms). A free lease (expired, released, never
    // claimed) may be claimed by any process; that is how a job whose owner died is taken over.
    sql: `
      CREATE TABLE job_leases (
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'done', 'failed')),
        owner TEXT,
        owner_host TEXT,
        owner_pid INTEGER,
        lease_expires_at INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (kind, key)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX job_leases_open ON job_leases (kind, lease_expires_at) WHERE status = 'open';
      CREATE INDEX job_leases_owner ON job_leases (owner) WHERE status = 'open';
    `,
  },
  MIGRATION_011_WATCHES,
  {
    version: 12,
    name: 'mcp_sessions',
    // MCP sessions, so any process can rebuild one it does not hold (docs/mcp.md). Times are ISO text;
    // a session is open while ended_at is NULL and last_seen_at is within the idle time.
    sql: `
      CREATE TABLE mcp_sessions (
        id TEXT PRIMARY KEY,
        caller_key TEXT NOT NULL,
        owner_email TEXT,
        protocol_version TEXT NOT NULL,
        client_info TEXT NOT NULL,
        client_capabilities TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        ended_at TEXT
      ) STRICT;
      CREATE INDEX mcp_sessions_last_seen ON mcp_sessions (last_seen_at);
      CREATE INDEX mcp_sessions_ended ON mcp_sessions (ended_at) WHERE ended_at IS NOT NULL;
    `,
  },
  {
    version: 13,
    name: 'mcp_run_progress',
    // A run's latest progress, written (throttled) by the process working on it, so every process shows
    // the same progress. The percent is kept apart so the write can refuse to move it back.
    sql: `
      ALTER TABLE mcp_runs ADD COLUMN progress_json TEXT;
      ALTER TABLE mcp_runs ADD COLUMN progress_percent INTEGER;
    `,
  },
];

/** The schema version newer code must not be started against, with a clear message. */
export class SchemaTooNewError extends Error {
  override readonly name = 'SchemaTooNewError';
  constructor(readonly databaseVersion: number, readonly knownVersion: number) {
    super(
      `The database is at schema version ${databaseVersion}, newer than this build knows (${knownVersion}). ` +
        'Run a newer build of the service, or point DATA_DIR at another folder.',
    );
  }
}

/** Brings the database to the newest version; returns the versions it applied. */
export function applyMigrations(database: Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  database.exec(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    ) STRICT;
  `);
  const current = currentSchemaVersion(database);
  const known = migrations.reduce((highest, migration) => Math.max(highest, migration.version), 0);
  if (current > known) throw new SchemaTooNewError(current, known);
  const record = database.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: number[] = [];
  for (const migration of [...migrations].sort((left, right) => left.version - right.version)) {
    if (migration.version <= current) continue;
    // IMMEDIATE takes the write lock first, so two processes starting together cannot both apply it.
    database
      .transaction(() => {
        if (currentSchemaVersion(database) >= migration.version) return;
        database.exec(migration.sql);
        record.run(migration.version, migration.name, new Date().toISOString());
        applied.push(migration.version);
      })
      .immediate();
  }
  return applied;
}

/** The highest applied schema version (0 for a fresh database). */
export function currentSchemaVersion(database: Database): number {
  const row = database.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null };
  return row.version ?? 0;
}
