-- Job leases (the jobs port): one row per piece of background work (kind 'map' keyed auditId#generation,
-- kind 'mcp-run' keyed by run id), who holds it and until when (epoch ms). A free lease (expired,
-- released, never claimed) may be claimed by any instance: that is how a dead owner's job is taken over.
CREATE TABLE job_leases (
  kind text NOT NULL,
  key text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'done', 'failed')),
  owner text,
  owner_host text,
  owner_pid integer,
  lease_expires_at bigint NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  error text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (kind, key)
);
CREATE INDEX job_leases_open ON job_leases (kind, lease_expires_at) WHERE status = 'open';
CREATE INDEX job_leases_owner ON job_leases (owner) WHERE status = 'open';
