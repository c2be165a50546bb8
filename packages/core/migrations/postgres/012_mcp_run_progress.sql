-- A run's latest progress (SQLite's migration 13), written at most about once a second (and on every
-- stage change) by the instance working on the run, so every instance shows the same progress. The
-- percent is kept apart so a write can refuse to move it back.
ALTER TABLE mcp_runs ADD COLUMN progress_json text, ADD COLUMN progress_percent integer;
