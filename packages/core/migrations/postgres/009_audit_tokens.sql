-- Badge tokens and share links, stored as SHA-256 hashes: the raw token is shown once, to its owner
-- (SQLite's migration 8). Times are ISO-8601 UTC text in the "C" collation, as in SQLite. audit_id gets
-- its foreign key to audits when audits move to PostgreSQL (a later migration; as for mcp_runs.audit_id).
CREATE TABLE audit_tokens (
  token_hash text COLLATE "C" PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('badge', 'share')),
  audit_id text COLLATE "C" NOT NULL,
  created_by text NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  revoked_at text COLLATE "C"
);
CREATE INDEX audit_tokens_audit ON audit_tokens (audit_id, kind);
