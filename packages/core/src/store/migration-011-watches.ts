import type { Migration } from './migrations.js';

/**
 * Version 11: watches (tracking a brand over time, docs/tracking.md), their runs, the answers of each run,
 * and the alerts sent for the changes a run found.
 *
 * Plain portable SQL (no STRICT, no SQLite-only functions) so the PostgreSQL adapter can use the same shape.
 * Times are ISO-8601 UTC strings, compared as text. A due watch is claimed with a compare-and-set on
 * `next_run_at`; a scheduled run is unique per (watch, scheduled_for), and a partial unique index keeps at
 * most one run per watch running, across processes. A running run is worked as a leased job (job_leases,
 * kind 'watch-run', keyed by the run id): a run whose process died is taken over by another. Each answer
 * is stored the moment it arrives, keyed by (run, question, provider, sample): a resumed run asks only the
 * missing ones. Each alert try is a row of its own.
 */
export const MIGRATION_011_WATCHES: Migration = {
  version: 11,
  name: 'watches',
  sql: `
    CREATE TABLE watches (
      id TEXT PRIMARY KEY,
      owner_email TEXT NOT NULL,
      brand TEXT NOT NULL,
      category TEXT NOT NULL,
      website TEXT,
      questions_json TEXT NOT NULL,
      providers_json TEXT NOT NULL,
      samples INTEGER NOT NULL CHECK (samples BETWEEN 1 AND 5),
      schedule TEXT NOT NULL CHECK (schedule IN ('daily', 'weekly')),
      paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
      alert_email INTEGER NOT NULL DEFAULT 1 CHECK (alert_email IN (0, 1)),
      webhook_url TEXT,
      webhook_secret TEXT NOT NULL,
      next_run_at TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX watches_owner ON watches (owner_email, created_at);
    CREATE INDEX watches_due ON watches (next_run_at) WHERE paused = 0;

    CREATE TABLE watch_runs (
      id TEXT PRIMARY KEY,
      watch_id TEXT NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
      run_trigger TEXT NOT NULL CHECK (run_trigger IN ('schedule', 'manual')),
      scheduled_for TEXT,
      status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'skipped', 'failed')),
      mode TEXT NOT NULL,
      questions_json TEXT NOT NULL,
      providers_json TEXT NOT NULL,
      samples INTEGER NOT NULL,
      reason TEXT,
      charged_email TEXT,
      created_at TEXT NOT NULL,
      completed_at TEXT,
      point_json TEXT,
      changes_json TEXT,
      UNIQUE (watch_id, scheduled_for)
    );
    CREATE INDEX watch_runs_watch ON watch_runs (watch_id, created_at);
    CREATE UNIQUE INDEX watch_runs_one_running ON watch_runs (watch_id) WHERE status = 'running';

    CREATE TABLE watch_answers (
      run_id TEXT NOT NULL REFERENCES watch_runs (id) ON DELETE CASCADE,
      question_index INTEGER NOT NULL,
      provider TEXT NOT NULL,
      sample_index INTEGER NOT NULL,
      ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
      model TEXT,
      answer TEXT,
      brands_json TEXT NOT NULL,
      named INTEGER NOT NULL CHECK (named IN (0, 1)),
      position INTEGER,
      failure_kind TEXT,
      cost_micro_usd INTEGER NOT NULL DEFAULT 0,
      answered_at TEXT NOT NULL,
      PRIMARY KEY (run_id, question_index, provider, sample_index)
    );

    CREATE TABLE watch_alerts (
      id TEXT PRIMARY KEY,
      watch_id TEXT NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
      run_id TEXT NOT NULL REFERENCES watch_runs (id) ON DELETE CASCADE,
      channel TEXT NOT NULL CHECK (channel IN ('email', 'webhook')),
      target TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
      payload TEXT NOT NULL,
      tries INTEGER NOT NULL DEFAULT 0,
      next_try_at TEXT,
      created_at TEXT NOT NULL,
      UNIQUE (run_id, channel)
    );
    CREATE INDEX watch_alerts_pending ON watch_alerts (next_try_at) WHERE status = 'pending';

    CREATE TABLE watch_alert_tries (
      alert_id TEXT NOT NULL REFERENCES watch_alerts (id) ON DELETE CASCADE,
      try_number INTEGER NOT NULL,
      tried_at TEXT NOT NULL,
      ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
      http_status INTEGER,
      error TEXT,
      PRIMARY KEY (alert_id, try_number)
    );
  `,
};
