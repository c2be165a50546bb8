-- MCP sessions (SQLite's migration 12), so an instance that gets a request for a session it does not
-- hold rebuilds it from here, and a session ended on one instance answers 404 on all (docs/mcp.md).
-- Times are ISO-8601 UTC text in the "C" collation, compared as text exactly as in SQLite. A session is
-- open while ended_at is NULL and last_seen_at is within the idle time.
CREATE TABLE mcp_sessions (
  id text PRIMARY KEY,
  caller_key text NOT NULL,
  owner_email text,
  protocol_version text NOT NULL,
  client_info text NOT NULL,
  client_capabilities text NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  last_seen_at text COLLATE "C" NOT NULL,
  ended_at text COLLATE "C"
);
CREATE INDEX mcp_sessions_last_seen ON mcp_sessions (last_seen_at);
CREATE INDEX mcp_sessions_ended ON mcp_sessions (ended_at) WHERE ended_at IS NOT NULL;
