// Job leases: the one interface every piece of background work (a buyer-question map, an MCP run, any
// scheduled work) is claimed, kept alive, finished and taken over through. A job is a row (kind, key)
// in the store; the process working on it holds a lease (owner + expiry) and renews it with heartbeats.
// When the owner dies its lease runs out and another process claims the job and resumes it from what
// the store already holds (work is written to the store as it is done, so nothing is asked twice).

/** Who holds a lease: one id per running process, plus where it runs (to spot dead local owners). */
export interface JobOwner {
  /** Unique per process start, e.g. `host/pid/random`. */
  id: string;
  host: string;
  pid: number;
}

/** `open` jobs can be claimed (when their lease is free); `done` and `failed` are final. */
export type JobStatus = 'open' | 'done' | 'failed';

/** One job as stored. Times are epoch milliseconds. */
export interface JobRecord {
  kind: string;
  key: string;
  status: JobStatus;
  /** The holder of the lease; undefined when nobody holds it (new, released or never claimed). */
  owner: string | undefined;
  ownerHost: string | undefined;
  ownerPid: number | undefined;
  /** The lease is held until then; at or after it, anyone may claim the job. */
  leaseExpiresAt: number;
  /** How many times the job was claimed (1 = never taken over). */
  attempts: number;
  error: string | undefined;
  createdAt: number;
  updatedAt: number;
}

/** A lease this owner now holds. */
export interface JobLease {
  kind: string;
  key: string;
  expiresAt: number;
  attempts: number;
}

/**
 * The jobs port. Every method is one atomic statement or transaction, so two processes never both
 * hold a job: SQLite runs each inside one IMMEDIATE transaction, PostgreSQL claims with
 * `FOR UPDATE SKIP LOCKED`.
 */
export interface JobStore {
  /**
   * Creates an open, unclaimed job unless (kind, key) exists in any state; true when created. A scan
   * claims it from `availableAtMs` on (default: at once), which is how work is scheduled for later.
   */
  enqueue(kind: string, key: string, nowMs: number, availableAtMs?: number): Promise<boolean>;
  /**
   * Claims one job for `owner` until `nowMs + leaseMs`, creating it when missing. Succeeds when the
   * job is open and its lease is free (expired or released) or already this owner's; undefined when
   * another owner holds it or it is finished.
   */
  claim(kind: string, key: string, owner: JobOwner, leaseMs: number, nowMs: number): Promise<JobLease | undefined>;
  /**
   * Claims up to `limit` open jobs of the kinds whose lease is free, or whose owner is one of
   * `deadOwners` (processes known to be gone), oldest first: the takeover.
   */
  claimExpired(kinds: readonly string[], owner: JobOwner, leaseMs: number, nowMs: number, limit: number, deadOwners?: readonly string[]): Promise<JobLease[]>;
  /** Extends every open lease `owner` holds to `nowMs + leaseMs`; returns the jobs it still holds. */
  heartbeat(owner: string, leaseMs: number, nowMs: number): Promise<Array<{ kind: string; key: string }>>;
  /** Marks a job this owner holds done or failed; false when it no longer holds it. */
  finish(kind: string, key: string, owner: string, status: 'done' | 'failed', nowMs: number, error?: string): Promise<boolean>;
  /** Gives up a lease (the job stays open) so anyone may claim it from `availableAtMs`; false when not held. */
  release(kind: string, key: string, owner: string, availableAtMs: number, nowMs: number): Promise<boolean>;
  /** One job, or undefined. */
  get(kind: string, key: string): Promise<JobRecord | undefined>;
  /** The owners on `host` that hold open leases, with their process ids (to find local owners that died). */
  ownersOnHost(host: string): Promise<Array<{ owner: string; pid: number }>>;
}
