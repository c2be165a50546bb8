import type { JobLease, JobOwner, JobRecord, JobStore } from './types.js';

/**
 * The jobs port held in this process's memory: for work that has no shared store to coordinate
 * through (a runner built without the service's store, as in unit tests and one-shot tools). Same
 * rules as the stored adapters, but only this process sees the leases.
 */
export function createMemoryJobStore(): JobStore {
  const jobs = new Map<string, JobRecord>();
  const id = (kind: string, key: string): string => `${kind}\u0000${key}`;
  const take = (job: JobRecord, owner: JobOwner, leaseMs: number, nowMs: number): JobLease => {
    if (job.owner !== owner.id) job.attempts += 1;
    job.owner = owner.id;
    job.ownerHost = owner.host;
    job.ownerPid = owner.pid;
    job.leaseExpiresAt = nowMs + leaseMs;
    job.updatedAt = nowMs;
    return { kind: job.kind, key: job.key, expiresAt: job.leaseExpiresAt, attempts: job.attempts };
  };
  const enqueue = (kind: string, key: string, nowMs: number, availableAtMs = 0): boolean => {
    if (jobs.has(id(kind, key))) return false;
    jobs.set(id(kind, key), {
      kind,
      key,
      status: 'open',
      owner: undefined,
      ownerHost: undefined,
      ownerPid: undefined,
      leaseExpiresAt: availableAtMs,
      attempts: 0,
      error: undefined,
      createdAt: nowMs,
      updatedAt: nowMs,
    });
    return true;
  };
  const held = (kind: string, key: string, owner: string): JobRecord | undefined => {
    const job = jobs.get(id(kind, key));
    return job !== undefined && job.status === 'open' && job.owner === owner ? job : undefined;
  };
  return {
    async enqueue(kind, key, nowMs, availableAtMs) {
      return enqueue(kind, key, nowMs, availableAtMs);
    },
    async claim(kind, key, owner, leaseMs, nowMs) {
      enqueue(kind, key, nowMs);
      const job = jobs.get(id(kind, key)) as JobRecord;
      if (job.status !== 'open') return undefined;
      if (job.owner !== undefined && job.owner !== owner.id && job.leaseExpiresAt > nowMs) return undefined;
      return take(job, owner, leaseMs, nowMs);
    },
    async claimExpired(kinds, owner, leaseMs, nowMs, limit, deadOwners = []) {
      const free = [...jobs.values()]
        .filter(
          (job) =>
            job.status === 'open' &&
            kinds.includes(job.kind) &&
            job.owner !== owner.id &&
            (job.leaseExpiresAt <= nowMs || (job.owner !== undefined && deadOwners.includes(job.owner))),
        )
        .sort((left, right) => left.createdAt - right.createdAt)
        .slice(0, Math.max(0, limit));
      return free.map((job) => take(job, owner, leaseMs, nowMs));
    },
    async heartbeat(owner, leaseMs, nowMs) {
      const kept: Array<{ kind: string; key: string }> = [];
      for (const job of jobs.values()) {
        if (job.status !== 'open' || job.owner !== owner) continue;
        job.leaseExpiresAt = nowMs + leaseMs;
        job.updatedAt = nowMs;
        kept.push({ kind: job.kind, key: job.key });
      }
      return kept;
    },
    async finish(kind, key, owner, status, nowMs, error) {
      const job = held(kind, key, owner);
      if (job === undefined) return false;
      Object.assign(job, { status, error, owner: undefined, ownerHost: undefined, ownerPid: undefined, leaseExpiresAt: 0, updatedAt: nowMs });
      return true;
    },
    async release(kind, key, owner, availableAtMs, nowMs) {
      const job = held(kind, key, owner);
      if (job === undefined) return false;
      Object.assign(job, { owner: undefined, ownerHost: undefined, ownerPid: undefined, leaseExpiresAt: availableAtMs, updatedAt: nowMs });
      return true;
    },
    async get(kind, key) {
      const job = jobs.get(id(kind, key));
      return job === undefined ? undefined : { ...job };
    },
    async ownersOnHost(host) {
      const owners = new Map<string, number>();
      for (const job of jobs.values()) {
        if (job.status === 'open' && job.ownerHost === host && job.owner !== undefined && job.ownerPid !== undefined) owners.set(job.owner, job.ownerPid);
      }
      return [...owners].map(([owner, pid]) => ({ owner, pid }));
    },
  };
}
