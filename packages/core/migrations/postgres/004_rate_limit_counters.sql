-- One row per (limit, caller, fixed window); times are epoch milliseconds, as in SQLite.
CREATE TABLE rate_limit_counters (
  bucket text NOT NULL,
  caller_key text NOT NULL,
  window_start bigint NOT NULL,
  window_end bigint NOT NULL,
  used integer NOT NULL CHECK (used >= 0),
  PRIMARY KEY (bucket, caller_key, window_start)
);
CREATE INDEX rate_limit_counters_window_end ON rate_limit_counters (window_end);
