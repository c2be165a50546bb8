-- Watches (tracking a brand over time, docs/tracking.md), their runs, the answers of each run, and the
-- alerts sent for the changes a run found: SQLite's migration 11 in PostgreSQL's types. Times are
-- ISO-8601 UTC text in the "C" collation, so they compare and sort byte by byte exactly as in SQLite
-- (ids too, so ties sort the same). A due watch is claimed with a compare-and-set on next_run_at; a
-- scheduled run is unique per (watch, scheduled_for), and a partial unique index keeps at most one run
-- per watch running, across instances. owner_email and charged_email are not foreign keys (as in SQLite).
CREATE TABLE watches (
  id text COLLATE "C" PRIMARY KEY,
  owner_email text NOT NULL,
  brand text NOT NULL,
  category text NOT NULL,
  website text,
  questions_json text NOT NULL,
  providers_json text NOT NULL,
  samples integer NOT NULL CHECK (samples BETWEEN 1 AND 5),
  schedule text NOT NULL CHECK (schedule IN ('daily', 'weekly')),
  paused boolean NOT NULL DEFAULT false,
  alert_email boolean NOT NULL DEFAULT true,
  webhook_url text,
  webhook_secret text NOT NULL,
  next_run_at text COLLATE "C" NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX watches_owner ON watches (owner_email, created_at);
CREATE INDEX watches_due ON watches (next_run_at) WHERE NOT paused;

CREATE TABLE watch_runs (
  id text COLLATE "C" PRIMARY KEY,
  watch_id text COLLATE "C" NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
  run_trigger text NOT NULL CHECK (run_trigger IN ('schedule', 'manual')),
  scheduled_for text COLLATE "C",
  status text NOT NULL CHECK (status IN ('running', 'complete', 'skipped', 'failed')),
  mode text NOT NULL,
  questions_json text NOT NULL,
  providers_json text NOT NULL,
  samples integer NOT NULL,
  reason text,
  charged_email text,
  created_at text COLLATE "C" NOT NULL,
  completed_at text COLLATE "C",
  point_json text,
  changes_json text,
  UNIQUE (watch_id, scheduled_for)
);
CREATE INDEX watch_runs_watch ON watch_runs (watch_id, created_at);
CREATE UNIQUE INDEX watch_runs_one_running ON watch_runs (watch_id) WHERE status = 'running';

CREATE TABLE watch_answers (
  run_id text COLLATE "C" NOT NULL REFERENCES watch_runs (id) ON DELETE CASCADE,
  question_index integer NOT NULL,
  provider text COLLATE "C" NOT NULL,
  sample_index integer NOT NULL,
  ok boolean NOT NULL,
  model text,
  answer text,
  brands_json text NOT NULL,
  named boolean NOT NULL,
  position integer,
  failure_kind text,
  cost_micro_usd bigint NOT NULL DEFAULT 0,
  answered_at text COLLATE "C" NOT NULL,
  PRIMARY KEY (run_id, question_index, provider, sample_index)
);

CREATE TABLE watch_alerts (
  id text COLLATE "C" PRIMARY KEY,
  watch_id text COLLATE "C" NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
  run_id text COLLATE "C" NOT NULL REFERENCES watch_runs (id) ON DELETE CASCADE,
  channel text COLLATE "C" NOT NULL CHECK (channel IN ('email', 'webhook')),
  target text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  payload text NOT NULL,
  tries integer NOT NULL DEFAULT 0,
  next_try_at text COLLATE "C",
  created_at text COLLATE "C" NOT NULL,
  UNIQUE (run_id, channel)
);
CREATE INDEX watch_alerts_watch ON watch_alerts (watch_id, created_at);
CREATE INDEX watch_alerts_pending ON watch_alerts (next_try_at) WHERE status = 'pending';

CREATE TABLE watch_alert_tries (
  alert_id text COLLATE "C" NOT NULL REFERENCES watch_alerts (id) ON DELETE CASCADE,
  try_number integer NOT NULL,
  tried_at text COLLATE "C" NOT NULL,
  ok boolean NOT NULL,
  http_status integer,
  error text,
  PRIMARY KEY (alert_id, try_number)
);
