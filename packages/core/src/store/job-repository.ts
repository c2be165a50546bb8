import type { JobLease, JobOwner, JobRecord, JobStatus, JobStore } from '../jobs/types.js';
import { SqlRepository } from './sql-repository.js';

interface JobRow {
  kind: string;
  key: string;
  status: JobStatus;
  owner: string | null;
  owner_host: string | null;
  owner_pid: number | null;
  lease_expires_at: number;
  attempts: number;
  error: string | null;
  created_at: number;
  updated_at: number;
}

function fromRow(row: JobRow): JobRecord {
  return {
    kind: row.kind,
    key: row.key,
    status: row.status,
    owner: row.owner ?? undefined,
    ownerHost: row.owner_host ?? undefined,
    ownerPid: row.owner_pid ?? undefined,
    leaseExpiresAt: row.lease_expires_at,
    attempts: row.attempts,
    error: row.error ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * SQL of the job_leases table: the SQLite adapter of the jobs port. Every claim runs in one IMMEDIATE
 * transaction (the write lock is taken before the read), the SQLite equivalent of FOR UPDATE SKIP LOCKED:
 * two processes on one file never both hold a job.
 */
export class JobRepository extends SqlRepository implements JobStore {
  async enqueue(kind: string, key: string, nowMs: number, availableAtMs = 0): Promise<boolean> {
    return this.enqueueNow(kind, key, nowMs, availableAtMs);
  }

  private enqueueNow(kind: string, key: string, nowMs: number, availableAtMs = 0): boolean {
    return (
      this.statement(`
        INSERT INTO job_leases (kind, key, status, lease_expires_at, attempts, created_at, updated_at)
        VALUES (?, ?, 'open', ?, 0, ?, ?) ON CONFLICT DO NOTHING
      `).run(kind, key, availableAtMs, nowMs, nowMs).changes === 1
    );
  }

  async claim(kind: string, key: string, owner: JobOwner, leaseMs: number, nowMs: number): Promise<JobLease | undefined> {
    return this.transaction(() => {
      this.enqueueNow(kind, key, nowMs);
      const row = this.statement(`
        UPDATE job_leases
        SET owner = @owner, owner_host = @host, owner_pid = @pid, lease_expires_at = @expires,
            attempts = attempts + (CASE WHEN owner IS @owner THEN 0 ELSE 1 END), updated_at = @now
        WHERE kind = @kind AND key = @key AND status = 'open' AND (lease_expires_at <= @now OR owner IS NULL OR owner = @owner)
        RETURNING kind, key, lease_expires_at, attempts
      `).get({ owner: owner.id, host: owner.host, pid: owner.pid, expires: nowMs + leaseMs, now: nowMs, kind, key }) as
        | Pick<JobRow, 'kind' | 'key' | 'lease_expires_at' | 'attempts'>
        | undefined;
      return row === undefined ? undefined : { kind: row.kind, key: row.key, expiresAt: row.lease_expires_at, attempts: row.attempts };
    });
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
    const kindList = JSON.stringify(kinds);
    const deadList = JSON.stringify(deadOwners);
    return this.transaction(() => {
      const rows = this.statement(`
        UPDATE job_leases
        SET owner = @owner, owner_host = @host, owner_pid = @pid, lease_expires_at = @expires, attempts = attempts + 1, updated_at = @now
        WHERE (kind, key) IN (
          SELECT kind, key FROM job_leases
          WHERE status = 'open'
            AND kind IN (SELECT value FROM json_each(@kinds))
            AND (lease_expires_at <= @now OR owner IN (SELECT value FROM json_each(@dead)))
            AND owner IS NOT @owner
          ORDER BY created_at, kind, key
          LIMIT @limit
        )
        RETURNING kind, key, lease_expires_at, attempts
      `).all({ owner: owner.id, host: owner.host, pid: owner.pid, expires: nowMs + leaseMs, now: nowMs, kinds: kindList, dead: deadList, limit }) as Array<
        Pick<JobRow, 'kind' | 'key' | 'lease_expires_at' | 'attempts'>
      >;
      return rows.map((row) => ({ kind: row.kind, key: row.key, expiresAt: row.lease_expires_at, attempts: row.attempts }));
    });
  }

  async heartbeat(owner: string, leaseMs: number, nowMs: number): Promise<Array<{ kind: string; key: string }>> {
    return this.statement(`
      UPDATE job_leases SET lease_expires_at = ?, updated_at = ?
      WHERE owner = ? AND status = 'open'
      RETURNING kind, key
    `).all(nowMs + leaseMs, nowMs, owner) as Array<{ kind: string; key: string }>;
  }

  async finish(kind: string, key: string, owner: string, status: 'done' | 'failed', nowMs: number, error?: string): Promise<boolean> {
    return (
      this.statement(`
        UPDATE job_leases SET status = ?, error = ?, owner = NULL, owner_host = NULL, owner_pid = NULL, lease_expires_at = 0, updated_at = ?
        WHERE kind = ? AND key = ? AND owner = ? AND status = 'open'
      `).run(status, error ?? null, nowMs, kind, key, owner).changes === 1
    );
  }

  async release(kind: string, key: string, owner: string, availableAtMs: number, nowMs: number): Promise<boolean> {
    return (
      this.statement(`
        UPDATE job_leases SET owner = NULL, owner_host = NULL, owner_pid = NULL, lease_expires_at = ?, updated_at = ?
        WHERE kind = ? AND key = ? AND owner = ? AND status = 'open'
      `).run(availableAtMs, nowMs, kind, key, owner).changes === 1
    );
  }

  async get(kind: string, key: string): Promise<JobRecord | undefined> {
    const row = this.statement('SELECT * FROM job_leases WHERE kind = ? AND key = ?').get(kind, key) as JobRow | undefined;
    return row === undefined ? undefined : fromRow(row);
  }

  async ownersOnHost(host: string): Promise<Array<{ owner: string; pid: number }>> {
    return this.statement(`
      SELECT DISTINCT owner, owner_pid AS pid FROM job_leases
      WHERE status = 'open' AND owner_host = ? AND owner IS NOT NULL AND owner_pid IS NOT NULL
    `).all(host) as Array<{ owner: string; pid: number }>;
  }
}
