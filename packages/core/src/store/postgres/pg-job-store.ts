import type { JobLease, JobOwner, JobRecord, JobStatus, JobStore } from '../../jobs/types.js';
import type { PgPool } from './pool.js';

interface JobRow {
  kind: string;
  key: string;
  status: JobStatus;
  owner: string | null;
  owner_host: string | null;
  owner_pid: number | null;
  lease_expires_at: string;
  attempts: number;
  error: string | null;
  created_at: string;
  updated_at: string;
}

type LeaseRow = Pick<JobRow, 'kind' | 'key' | 'lease_expires_at' | 'attempts'>;

const lease = (row: LeaseRow): JobLease => ({ kind: row.kind, key: row.key, expiresAt: Number(row.lease_expires_at), attempts: row.attempts });

/**
 * The PostgreSQL adapter of the jobs port. Claims are single statements: a claim by key is one
 * conditional UPDATE (the row lock makes a concurrent claimer re-check the condition), a takeover picks
 * its rows with FOR UPDATE SKIP LOCKED, so instances scanning together never claim the same job.
 */
export class PgJobStore implements JobStore {
  constructor(private readonly pool: PgPool) {}

  async enqueue(kind: string, key: string, nowMs: number, availableAtMs = 0): Promise<boolean> {
    const result = await this.pool.query(
      `INSERT INTO job_leases (kind, key, status, lease_expires_at, attempts, created_at, updated_at)
       VALUES ($1, $2, 'open', $4, 0, $3, $3) ON CONFLICT DO NOTHING`,
      [kind, key, nowMs, availableAtMs],
    );
    return result.rowCount === 1;
  }

  async claim(kind: string, key: string, owner: JobOwner, leaseMs: number, nowMs: number): Promise<JobLease | undefined> {
    await this.enqueue(kind, key, nowMs);
    const { rows } = await this.pool.query<LeaseRow>(
      `UPDATE job_leases
       SET owner = $3, owner_host = $4, owner_pid = $5, lease_expires_at = $6,
           attempts = attempts + (CASE WHEN owner IS NOT DISTINCT FROM $3 THEN 0 ELSE 1 END), updated_at = $7
       WHERE kind = $1 AND key = $2 AND status = 'open' AND (lease_expires_at <= $7 OR owner IS NULL OR owner = $3)
       RETURNING kind, key, lease_expires_at, attempts`,
      [kind, key, owner.id, owner.host, owner.pid, nowMs + leaseMs, nowMs],
    );
    return rows[0] === undefined ? undefined : lease(rows[0]);
  }

  async claimExpired(
    kinds: readonly string[],
    owner: JobOwner,
    leaseMs: number,
    nowMs: number,
    limit: number,
    deadOwners: readonly string[] = [],
  ): Promise<JobLease[]> {
    if (kinds.length === 0 || limit <= 0) return [];
    const { rows } = await this.pool.query<LeaseRow & { created_at: string }>(
      `WITH free AS (
         SELECT kind, key FROM job_leases
         WHERE status = 'open' AND kind = ANY($1::text[])
           AND (lease_expires_at <= $2 OR owner = ANY($3::text[]))
           AND owner IS DISTINCT FROM $4
         ORDER BY created_at, kind, key
         LIMIT $5
         FOR UPDATE SKIP LOCKED
       )
       UPDATE job_leases AS job
       SET owner = $4, owner_host = $6, owner_pid = $7, lease_expires_at = $8, attempts = job.attempts + 1, updated_at = $2
       FROM free WHERE job.kind = free.kind AND job.key = free.key
       RETURNING job.kind, job.key, job.lease_expires_at, job.attempts, job.created_at`,
      [[...kinds], nowMs, [...deadOwners], owner.id, limit, owner.host, owner.pid, nowMs + leaseMs],
    );
    return rows
      .sort((left, right) => Number(left.created_at) - Number(right.created_at) || left.kind.localeCompare(right.kind) || left.key.localeCompare(right.key))
      .map(lease);
  }

  async heartbeat(owner: string, leaseMs: number, nowMs: number): Promise<Array<{ kind: string; key: string }>> {
    const { rows } = await this.pool.query<{ kind: string; key: string }>(
      `UPDATE job_leases SET lease_expires_at = $1, updated_at = $2 WHERE owner = $3 AND status = 'open' RETURNING kind, key`,
      [nowMs + leaseMs, nowMs, owner],
    );
    return rows;
  }

  async finish(kind: string, key: string, owner: string, status: 'done' | 'failed', nowMs: number, error?: string): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE job_leases SET status = $1, error = $2, owner = NULL, owner_host = NULL, owner_pid = NULL, lease_expires_at = 0, updated_at = $3
       WHERE kind = $4 AND key = $5 AND owner = $6 AND status = 'open'`,
      [status, error ?? null, nowMs, kind, key, owner],
    );
    return result.rowCount === 1;
  }

  async release(kind: string, key: string, owner: string, availableAtMs: number, nowMs: number): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE job_leases SET owner = NULL, owner_host = NULL, owner_pid = NULL, lease_expires_at = $1, updated_at = $2
       WHERE kind = $3 AND key = $4 AND owner = $5 AND status = 'open'`,
      [availableAtMs, nowMs, kind, key, owner],
    );
    return result.rowCount === 1;
  }

  async get(kind: string, key: string): Promise<JobRecord | undefined> {
    const { rows } = await this.pool.query<JobRow>('SELECT * FROM job_leases WHERE kind = $1 AND key = $2', [kind, key]);
    const row = rows[0];
    if (row === undefined) return undefined;
    return {
      kind: row.kind,
      key: row.key,
      status: row.status,
      owner: row.owner ?? undefined,
      ownerHost: row.owner_host ?? undefined,
      ownerPid: row.owner_pid ?? undefined,
      leaseExpiresAt: Number(row.lease_expires_at),
      attempts: row.attempts,
      error: row.error ?? undefined,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
  }

  async ownersOnHost(host: string): Promise<Array<{ owner: string; pid: number }>> {
    const { rows } = await this.pool.query<{ owner: string; pid: number }>(
      `SELECT DISTINCT owner, owner_pid AS pid FROM job_leases
       WHERE status = 'open' AND owner_host = $1 AND owner IS NOT NULL AND owner_pid IS NOT NULL`,
      [host],
    );
    return rows;
  }
}
