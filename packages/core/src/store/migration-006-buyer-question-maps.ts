import type { Migration } from './migrations.js';

/**
 * Version 6: the buyer-question map jobs and their cells (owned by the map module, docs/buyer-question-map.md).
 *
 * One job row per (audit, generation): generation 1 is the free first map, each re-run adds the next one.
 * The primary key is what makes concurrent starts create one job, and the partial unique index keeps at
 * most one job per audit running, across processes. The job freezes what it asks (questions, providers,
 * brand) so a resume after a restart asks exactly the same grid. Each cell is stored as soon as its answer
 * arrives; its primary key means an answer can be stored once and only once.
 */
export const MIGRATION_006_BUYER_QUESTION_MAPS: Migration = {
  version: 6,
  name: 'buyer_question_maps',
  sql: `
    CREATE TABLE buyer_question_map_jobs (
      audit_id TEXT NOT NULL REFERENCES audits (id),
      generation INTEGER NOT NULL CHECK (generation >= 1),
      status TEXT NOT NULL CHECK (status IN ('running', 'complete')),
      mode TEXT NOT NULL,
      brand TEXT NOT NULL,
      website TEXT NOT NULL,
      competitors_json TEXT NOT NULL,
      questions_json TEXT NOT NULL,
      providers_json TEXT NOT NULL,
      charged_email TEXT,
      created_at TEXT NOT NULL,
      completed_at TEXT,
      map_json TEXT,
      PRIMARY KEY (audit_id, generation),
      CHECK ((status = 'complete') = (map_json IS NOT NULL AND completed_at IS NOT NULL))
    ) STRICT;
    CREATE UNIQUE INDEX buyer_question_map_jobs_one_running ON buyer_question_map_jobs (audit_id) WHERE status = 'running';
    CREATE INDEX buyer_question_map_jobs_running ON buyer_question_map_jobs (status) WHERE status = 'running';

    CREATE TABLE buyer_question_map_cells (
      audit_id TEXT NOT NULL,
      generation INTEGER NOT NULL,
      question_index INTEGER NOT NULL CHECK (question_index >= 0),
      provider TEXT NOT NULL,
      ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
      model TEXT,
      answer TEXT,
      brands_json TEXT NOT NULL,
      named INTEGER NOT NULL CHECK (named IN (0, 1)),
      position INTEGER,
      failure_kind TEXT,
      failure_message TEXT,
      answered_at TEXT NOT NULL,
      PRIMARY KEY (audit_id, generation, question_index, provider),
      FOREIGN KEY (audit_id, generation) REFERENCES buyer_question_map_jobs (audit_id, generation)
    ) STRICT;
  `,
};
