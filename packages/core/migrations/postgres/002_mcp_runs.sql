-- One row per measurement started through the MCP tools (audit, then its buyer-question map). Times are
-- ISO-8601 UTC text, as in SQLite, so the quota window compares the same way in both stores. audit_id
-- gets its foreign key when audits move to PostgreSQL.
CREATE TABLE mcp_runs (
  id text PRIMARY KEY,
  domain text NOT NULL,
  mode text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'auditing', 'mapping', 'done', 'failed')),
  brand text NOT NULL,
  website text NOT NULL,
  category text NOT NULL,
  request_json text NOT NULL,
  audit_id text,
  error_code text,
  error text,
  created_at text NOT NULL,
  updated_at text NOT NULL,
  finished_at text
);
CREATE INDEX mcp_runs_domain ON mcp_runs (domain, mode, created_at);
CREATE INDEX mcp_runs_unfinished ON mcp_runs (status) WHERE status IN ('queued', 'auditing', 'mapping');
