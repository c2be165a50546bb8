-- The monthly provider budget in integer micro-dollars (budget_spend per UTC month "YYYY-MM", and the
-- estimates of calls in flight) and the provider call log, written in the same transaction as a call's
-- settlement. Same columns as SQLite's; created_at of a reservation is epoch ms.
CREATE TABLE budget_spend (
  month text PRIMARY KEY,
  spent_micro_usd bigint NOT NULL DEFAULT 0 CHECK (spent_micro_usd >= 0),
  calls integer NOT NULL DEFAULT 0,
  updated_at text NOT NULL
);
CREATE TABLE budget_reservations (
  id text PRIMARY KEY,
  month text NOT NULL,
  provider text NOT NULL,
  model text NOT NULL,
  estimate_micro_usd bigint NOT NULL CHECK (estimate_micro_usd >= 0),
  created_at bigint NOT NULL
);
CREATE INDEX budget_reservations_created_at ON budget_reservations (created_at);
CREATE TABLE provider_calls (
  id bigserial PRIMARY KEY,
  provider text NOT NULL,
  model text NOT NULL,
  purpose text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('ok', 'failed')),
  failure_kind text,
  input_tokens integer NOT NULL DEFAULT 0,
  output_tokens integer NOT NULL DEFAULT 0,
  latency_ms integer NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 1,
  created_at text NOT NULL
);
CREATE INDEX provider_calls_created_at ON provider_calls (created_at);
