-- Badge tokens and share links, stored as SHA-256 hashes: the raw token is shown once, to its owner
-- (SQLite's migration 8). Times are ISO-8601 UTC text in the "C" collation, as in SQLite. A token
-- belongs to a stored audit (006_audits), as on SQLite.
CREATE TABLE audit_tokens (
  token_hash text COLLATE "C" PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('badge', 'share')),
  audit_id text NOT NULL REFERENCES audits (id),
  created_by text NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  revoked_at text COLLATE "C"
);
CREATE INDEX audit_tokens_audit ON audit_tokens (audit_id, kind);
