// The store's ports: one async interface per aggregate, each operation atomic (one statement or one
// transaction in the adapter), so application code never reads, decides and writes back. Adapters:
// SQLite (the repositories in this folder, DATA_DIR) and PostgreSQL (store/postgres, DATABASE_URL).
// Moved so far: jobs (jobs/types.ts: JobStore), runs (RunStore), the monthly budget with the provider
// call log (BudgetStore), the rate-limit counters (RateLimitStore), accounts with their credits
// (AccountStore), stored audits (AuditStore), buyer-question maps (MapStore), watches with their runs,
// answers and alerts (WatchStore), sign-in links (SignInStore) and badge tokens and share links
// (TokenStore), and MCP sessions (McpSessionStore). The fast paths before Express still read SQLite synchronously beside the ports: the map
// read, and the badge image (TokenRepository.findBadgeSubject); see docs/architecture.md.

import type { AccountRecord } from './account-repository.js';
import type { AuditRecord } from './audit-repository.js';
import type { BudgetReservationRecord, BudgetTotals } from './budget-repository.js';
import type { MapCellRecord, MapJobRecord, NewMapJob, RerunStart } from './map-repository.js';
import type { CounterWindow } from './rate-limit-repository.js';
import type { McpSessionRecord, NewMcpSession } from './mcp-session-repository.js';
import type { McpRunClaim, McpRunProgress, McpRunRecord, McpRunStatus, NewMcpRun } from './mcp-run-repository.js';
import type { ProviderCallRecord } from './repository.js';
import type { SignInLinkRecord } from './sign-in-repository.js';
import type { AuditTokenKind, AuditTokenRecord } from './token-repository.js';
import type {
  AlertAttempt,
  ManualRunStart,
  NewWatchAlert,
  NewWatchRun,
  RunOutcome,
  ScheduledRunClaim,
  WatchAlertRecord,
  WatchAlertTryRecord,
  WatchAnswerRecord,
  WatchPatch,
  WatchRecord,
  WatchRunRecord,
} from './watch-repository.js';

export type { JobStore } from '../jobs/types.js';

/** The measurements started through the MCP tools (mcp_runs). Transitions only move a run forward. */
export interface RunStore {
  /**
   * Creates the run unless a run of the same domain and mode that has not failed was created at or
   * after `windowStart`; then that run is returned instead. Atomic: two starts for one domain, from any
   * two instances, create one run.
   */
  claimRun(run: NewMcpRun, windowStart: string): Promise<McpRunClaim>;
  /** The run that holds the domain's quota since `windowStart`, if any (read only). */
  findQuotaRun(domain: string, mode: string, windowStart: string): Promise<McpRunRecord | undefined>;
  getRun(id: string): Promise<McpRunRecord | undefined>;
  /** queued -> auditing; false when the run was no longer queued. */
  markAuditing(id: string, at: string): Promise<boolean>;
  /** auditing -> mapping, with the stored audit's id. */
  markMapping(id: string, auditId: string, at: string): Promise<boolean>;
  /** auditing or mapping -> done; the audit id is set when the run finished without a map. */
  markDone(id: string, auditId: string, finishedAt: string): Promise<boolean>;
  /** Any unfinished state -> failed, with a stable code and a reason a person can read. */
  markFailed(id: string, errorCode: string, error: string, at: string): Promise<boolean>;
  /**
   * Stores the run's latest progress, so every instance reads what the one working on it publishes;
   * false, storing nothing, when the stored percent is higher (progress never goes back) or there is no
   * such run. Any state: the final progress (done, failed) lands after the run's final write.
   */
  recordProgress(id: string, progress: McpRunProgress): Promise<boolean>;
  /** Runs in one state, oldest first. */
  runsWithStatus(status: McpRunStatus): Promise<McpRunRecord[]>;
}

/** One call's settlement: its reservation goes, its real cost is spent, and its call-log row is written, atomically. */
export interface BudgetSettlement {
  reservationId: string;
  /** What the reservation held: when it was already reclaimed as stale, only the cost above it is added. */
  estimateMicroUsd: number;
  costMicroUsd: number;
  /** The month the cost is spent in, "YYYY-MM" (the settlement's, not the reservation's). */
  month: string;
  at: Date;
  /** The provider call-log row, written in the same transaction (absent when the call is not logged). */
  callLog?: ProviderCallRecord | undefined;
}

/** The monthly provider budget (settled spend per month, reservations in flight) and the call log. */
export interface BudgetStore {
  /** Spend settled in the month, and all open reservations whatever month they were made in. */
  totals(month: string): Promise<BudgetTotals>;
  /**
   * Stores every reservation when the month's spend + all reservations + theirs stay within the ceiling
   * (a batch estimated at 0 always fits), else none: all or nothing, exact under concurrency.
   */
  reserveAll(month: string, reservations: readonly BudgetReservationRecord[], ceilingMicroUsd: number): Promise<boolean>;
  /** Settles one call (see BudgetSettlement); true when its reservation was still held. */
  settle(settlement: BudgetSettlement): Promise<boolean>;
  /** Turns reservations made before the moment into spend at their estimate, each in its month; returns how many. */
  reclaimStale(createdBeforeMs: number, at: Date): Promise<number>;
  /** Appends a provider call to the log on its own (a call that never reached a settlement: a refusal). */
  recordProviderCall(call: ProviderCallRecord): Promise<void>;
}

/** The rate limiter's fixed-window counters. */
export interface RateLimitStore {
  /**
   * Reads the counters and, only when every one is below its max, adds one to each: all count or none,
   * atomically (no two instances both take the last slot). Returns the counts before this call.
   */
  consume(windows: readonly CounterWindow[], maxes: readonly number[]): Promise<{ usedBefore: number[]; counted: boolean }>;
  /** How many calls each counter has let through (0 for a window never used). */
  usedCounts(windows: readonly CounterWindow[]): Promise<number[]>;
  /** Deletes counters whose window has ended; returns how many went. */
  pruneEndedBefore(nowMs: number): Promise<number>;
}

/** Accounts and their credits (emails are kept lower-cased). */
export interface AccountStore {
  getAccount(email: string): Promise<AccountRecord | undefined>;
  /** Creates the account if it does not exist yet. */
  ensureAccount(email: string, now?: Date): Promise<AccountRecord>;
  /** Adds credits (creating the account); returns the new balance. */
  grantCredits(email: string, credits: number, now?: Date): Promise<number>;
  /** Spends one credit if there is one, atomically: true when spent, false when the balance was 0. */
  spendCredit(email: string, now?: Date): Promise<boolean>;
  /** Gives back a credit spent for work that then could not run. */
  refundCredit(email: string, now?: Date): Promise<void>;
}

/** Finished audits, stored whole: written once, never changed. */
export interface AuditStore {
  /** Stores a finished audit (its id is new: storing an id twice rejects and changes nothing). */
  insertAudit(audit: AuditRecord): Promise<void>;
  /** Whether an audit exists, without reading (or parsing) its stored response. */
  auditExists(id: string): Promise<boolean>;
  getAudit(id: string): Promise<AuditRecord | undefined>;
  /**
   * The latest measured score of each other brand audited in a category and mode (one per brand, so a
   * brand audited ten times does not weigh ten times), excluding one brand.
   */
  latestScoresInCategory(categoryKey: string, excludingBrandKey: string, mode: string): Promise<number[]>;
  /** Audits attached to an email address, newest first. */
  listAuditsByEmail(email: string, limit?: number): Promise<AuditRecord[]>;
}

/** What a map read must know first: whether the audit exists, its stored map's and its running job's generations. */
export interface MapReadState {
  auditExists: boolean;
  completeGeneration: number | undefined;
  runningGeneration: number | undefined;
}

/** One finished generation as the report lists it. */
export interface CompletedMapGeneration {
  generation: number;
  completedAt: string;
  questions: number;
  questionsWon: number;
}

/** Buyer-question map jobs (one per audit and generation; at most one running per audit) and their cells. */
export interface MapStore {
  /** Creates the free first job (generation 1) unless any job of the audit exists; true when this call created it. */
  createFirstJob(job: NewMapJob): Promise<boolean>;
  /**
   * Starts the next generation and spends one credit of `job.chargedEmail` for it, in one transaction:
   * a job of the audit already running is joined (nothing spent); with no credit nothing is written.
   */
  createRerunJob(job: NewMapJob & { chargedEmail: string }, now?: Date): Promise<RerunStart>;
  /**
   * Removes a running job and its cells (one that could not start) and, in the same transaction, gives
   * back the credit it cost (when it was paid for); false when it was no longer running.
   */
  cancelJob(auditId: string, generation: number, now?: Date): Promise<boolean>;
  /** The highest generation of the audit, 0 when it has no job. */
  latestGeneration(auditId: string): Promise<number>;
  job(auditId: string, generation: number): Promise<MapJobRecord | undefined>;
  /** The audit's job still being measured, if any (at most one). */
  runningJob(auditId: string): Promise<MapJobRecord | undefined>;
  /** The newest finished job of the audit: the stored map. */
  latestCompleteJob(auditId: string): Promise<MapJobRecord | undefined>;
  mapReadState(auditId: string): Promise<MapReadState>;
  /** The stored map of the newest finished job as its JSON text, never parsed: what a map read sends. */
  latestCompleteMapJson(auditId: string): Promise<{ generation: number; mapJson: string } | undefined>;
  /** Every finished generation, newest first, with its questions and questions won from the map's summary. */
  completedGenerations(auditId: string): Promise<CompletedMapGeneration[]>;
  /** Every job left running, oldest first. */
  runningJobs(): Promise<MapJobRecord[]>;
  /** Stores one finished cell; false (and nothing changes) when that cell was already stored. */
  insertCell(cell: MapCellRecord): Promise<boolean>;
  /** The stored cells of one job, by question then provider. */
  listCells(auditId: string, generation: number): Promise<MapCellRecord[]>;
  countCells(auditId: string, generation: number): Promise<number>;
  /** Marks a running job complete with its grid; false when it was not running (already completed). */
  completeJob(auditId: string, generation: number, map: Record<string, unknown>, completedAt: string): Promise<boolean>;
}

// --- Watches (tracking): WatchStore. SQLite: WatchRepository; PostgreSQL: postgres/pg-watch-store.ts. ---

/** Watches, their runs and answers, and their alerts (docs/tracking.md). */
export interface WatchStore {
  createWatch(watch: WatchRecord): Promise<void>;
  getWatch(id: string): Promise<WatchRecord | undefined>;
  /** The owner's watches, oldest first. */
  listWatches(ownerEmail: string): Promise<WatchRecord[]>;
  countWatches(ownerEmail: string): Promise<number>;
  /** Changes the fields given (one statement); false when there is no such watch. */
  updateWatch(id: string, patch: WatchPatch, now: string): Promise<boolean>;
  /** Deletes the watch with its runs, answers and alerts. */
  deleteWatch(id: string): Promise<boolean>;
  /** Watches due at `now` (not paused), most overdue first. */
  dueWatches(now: string, limit: number): Promise<WatchRecord[]>;
  /**
   * Claims a due watch for one scheduled run: moves `next_run_at` from the value read to the next one
   * (compare-and-set, so of several instances exactly one wins) and records the run in the same
   * transaction. With `skipReason`, or when another run of the watch is still running, the run is
   * recorded as skipped with the reason. Undefined when another instance claimed it first.
   */
  claimScheduledRun(claim: ScheduledRunClaim): Promise<WatchRunRecord | undefined>;
  /**
   * Starts a run asked for now by the owner, spending one credit in the same transaction; joins the
   * running one instead (no credit) when there is one. A null `chargedEmail` (the operator's CLI run)
   * spends nothing.
   */
  startManualRun(start: { run: NewWatchRun; chargedEmail: string | null; now: string }): Promise<ManualRunStart>;
  /** Records a run that never started (the budget was used up): skipped, with the reason, no credit spent. */
  recordSkippedRun(run: NewWatchRun, trigger: 'schedule' | 'manual'): Promise<WatchRunRecord>;
  getRun(id: string): Promise<WatchRunRecord | undefined>;
  /** A watch's runs, oldest first, optionally from/to (ISO times, inclusive). */
  listRuns(watchId: string, range?: { from?: string | undefined; to?: string | undefined }): Promise<WatchRunRecord[]>;
  /** Completed runs of the watch created before a moment, newest first. */
  earlierCompleteRuns(watchId: string, before: string, limit: number): Promise<WatchRunRecord[]>;
  /** Ids of the runs still running, oldest first. */
  runningRunIds(): Promise<string[]>;
  /** Stores one answer; false when it was stored already (an answer is stored once). */
  insertAnswer(answer: WatchAnswerRecord): Promise<boolean>;
  listAnswers(runId: string): Promise<WatchAnswerRecord[]>;
  countAnswers(runId: string): Promise<number>;
  /** Finishes a running run and queues its alerts, atomically; false when it was finished already (alerts are queued once). */
  finishRun(id: string, outcome: RunOutcome, alerts: readonly NewWatchAlert[]): Promise<boolean>;
  /** Alerts waiting for a try at `now`. */
  dueAlerts(now: string, limit: number): Promise<WatchAlertRecord[]>;
  /** The earliest time a pending alert wants its next try, if any. */
  nextAlertTryAt(): Promise<string | undefined>;
  /** Claims the next try of an alert (compare-and-set on its try count), leasing it until `leaseUntil`; false when another instance claimed it. */
  claimAlertTry(id: string, expectedTries: number, leaseUntil: string): Promise<boolean>;
  /** Logs one try and sets what happens next (delivered, failed for good, or another try at `nextTryAt`), atomically. */
  recordAlertTry(id: string, attempt: AlertAttempt, next: { status: 'pending' | 'delivered' | 'failed'; nextTryAt: string | null }): Promise<void>;
  listAlerts(watchId: string): Promise<WatchAlertRecord[]>;
  /** Every try of the watch's alerts, oldest first: the log shown on the watch. */
  listAlertTries(watchId: string): Promise<WatchAlertTryRecord[]>;
}

// --- Sign-in links: SignInStore. SQLite: SignInRepository; PostgreSQL: postgres/pg-sign-in-store.ts. ---

/** One-time sign-in links, kept by the SHA-256 hash of their token (emails lower-cased). */
export interface SignInStore {
  /** Stores a new link by its token hash. */
  insertLink(link: { tokenHash: string; email: string; createdAt: Date; expiresAt: Date }): Promise<void>;
  /**
   * Marks an unused, unexpired link used and returns its email; undefined when the link is unknown,
   * expired or already used. One UPDATE, so two concurrent uses, from any instances, cannot both succeed.
   */
  consumeLink(tokenHash: string, now?: Date): Promise<string | undefined>;
  /** Reads one link by its token hash (tests and diagnostics). */
  getLink(tokenHash: string): Promise<SignInLinkRecord | undefined>;
  /** Deletes links that expired before `before` (used or not: they can never sign anyone in again); returns how many. */
  deleteExpiredLinks(before: Date): Promise<number>;
}

// --- Badge tokens and share links: TokenStore. SQLite: TokenRepository; PostgreSQL: postgres/pg-token-store.ts.
// The badge's own read (TokenRepository.findBadgeSubject: token + audit + latest map in one query) stays a
// synchronous SQLite read beside this port, for the cheap-read fast path; see docs/architecture.md. ---

/** Badge tokens and share links of audits, kept by the SHA-256 hash of the token. */
export interface TokenStore {
  /** Stores a new token hash (the audit must exist). */
  insertToken(token: Omit<AuditTokenRecord, 'revokedAt'>): Promise<void>;
  /** Reads a token of one kind that has not been revoked. */
  findActiveToken(tokenHash: string, kind: AuditTokenKind): Promise<AuditTokenRecord | undefined>;
  /** Every token of an audit (active and revoked), oldest first: what its owner can list and revoke. */
  listTokens(auditId: string): Promise<AuditTokenRecord[]>;
  /**
   * Marks a token of this audit and kind revoked (keeping the first revocation time, one UPDATE); true
   * when such a token exists, revoked now or before.
   */
  revokeToken(tokenHash: string, kind: AuditTokenKind, auditId: string, revokedAt: string): Promise<boolean>;
  /**
   * revokeToken by the listed id (the first 16 hex characters of the hash; the oldest such token should
   * two ever share it), in one UPDATE: no read of the list first. True when such a token exists.
   */
  revokeTokenById(id: string, kind: AuditTokenKind, auditId: string, revokedAt: string): Promise<boolean>;
}

// --- MCP sessions: McpSessionStore. SQLite: McpSessionRepository; PostgreSQL: postgres/pg-mcp-session-store.ts. ---

/**
 * The MCP sessions of every instance (docs/mcp.md): an instance that gets a request for a session it
 * does not hold rebuilds it from here, and a session ended on one instance answers 404 on all. A session
 * is open while it is not ended and was seen at or after the idle cutoff (`seenSince`).
 */
export interface McpSessionStore {
  /** Records a session its initialize just opened (last seen = created); an id is stored once. */
  insertSession(session: NewMcpSession): Promise<void>;
  /** The session when it is open: not ended, last seen at or after `seenSince`. */
  findOpenSession(id: string, seenSince: Date): Promise<McpSessionRecord | undefined>;
  /** The session whatever its state (tests and diagnostics). */
  getSession(id: string): Promise<McpSessionRecord | undefined>;
  /**
   * Marks an open session seen at `at` (never moving it back); false, changing nothing, when it ended,
   * went idle (last seen before `seenSince`) or never existed. One UPDATE.
   */
  touchSession(id: string, at: Date, seenSince: Date): Promise<boolean>;
  /** Ends an open session (DELETE, eviction); true when this call ended it, false when it had ended or is unknown. */
  endSession(id: string, at: Date): Promise<boolean>;
  /** Deletes the sessions ended or last seen before `before` (both answer 404 like an unknown id); returns how many. */
  deleteSessionsBefore(before: Date): Promise<number>;
}
