-- Finished audits, kept whole: response_json is the response as returned, as text (not jsonb, which
-- would reorder its keys); the other columns are what queries filter by. Times are ISO-8601 UTC text,
-- as in SQLite, so "newest first" orders the same way in both stores.
CREATE TABLE audits (
  id text PRIMARY KEY,
  created_at text NOT NULL,
  brand text NOT NULL,
  brand_key text NOT NULL,
  website text NOT NULL,
  category text NOT NULL,
  category_key text NOT NULL,
  email text,
  mode text NOT NULL,
  measured boolean NOT NULL,
  score double precision,
  response_json text NOT NULL
);
CREATE INDEX audits_category_key ON audits (category_key, created_at);
CREATE INDEX audits_email ON audits (email) WHERE email IS NOT NULL;

-- An MCP run's audit must exist, as in SQLite (002 left this for when audits moved here).
ALTER TABLE mcp_runs ADD CONSTRAINT mcp_runs_audit_id_fkey FOREIGN KEY (audit_id) REFERENCES audits (id);
