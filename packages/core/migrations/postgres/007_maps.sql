-- The buyer-question map jobs and their cells (docs/buyer-question-map.md), as in SQLite: one job row
-- per (audit, generation), generation 1 the free first map and each re-run the next; the partial unique
-- index keeps at most one job per audit running, across instances. Each cell's key means an answer is
-- stored once and only once. map_json is kept as text (not jsonb), so a map read sends the bytes stored.
CREATE TABLE buyer_question_map_jobs (
  audit_id text NOT NULL REFERENCES audits (id),
  generation integer NOT NULL CHECK (generation >= 1),
  status text NOT NULL CHECK (status IN ('running', 'complete')),
  mode text NOT NULL,
  brand text NOT NULL,
  website text NOT NULL,
  competitors_json text NOT NULL,
  questions_json text NOT NULL,
  providers_json text NOT NULL,
  charged_email text,
  created_at text NOT NULL,
  completed_at text,
  map_json text,
  PRIMARY KEY (audit_id, generation),
  CHECK ((status = 'complete') = (map_json IS NOT NULL AND completed_at IS NOT NULL))
);
CREATE UNIQUE INDEX buyer_question_map_jobs_one_running ON buyer_question_map_jobs (audit_id) WHERE status = 'running';
CREATE INDEX buyer_question_map_jobs_running ON buyer_question_map_jobs (status) WHERE status = 'running';

CREATE TABLE buyer_question_map_cells (
  audit_id text NOT NULL,
  generation integer NOT NULL,
  question_index integer NOT NULL CHECK (question_index >= 0),
  provider text NOT NULL,
  ok boolean NOT NULL,
  model text,
  answer text,
  brands_json text NOT NULL,
  named boolean NOT NULL,
  position integer,
  failure_kind text,
  failure_message text,
  answered_at text NOT NULL,
  PRIMARY KEY (audit_id, generation, question_index, provider),
  FOREIGN KEY (audit_id, generation) REFERENCES buyer_question_map_jobs (audit_id, generation)
);
