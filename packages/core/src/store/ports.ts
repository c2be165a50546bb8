// The store's ports: one async interface per aggregate, each operation atomic (one statement or one
// transaction in the adapter), so application code never reads, decides and writes back. Adapters:
// SQLite (the repositories in this folder, DATA_DIR) and PostgreSQL (store/postgres, DATABASE_URL).
// Moved so far: jobs (jobs/types.ts: JobStore) and runs (RunStore). The other aggregates (audits,
// maps, accounts, limits/budget) are still the synchronous SQLite repositories.

import type { McpRunClaim, McpRunRecord, McpRunStatus, NewMcpRun } from './mcp-run-repository.js';

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
  /** Runs in one state, oldest first. */
  runsWithStatus(status: McpRunStatus): Promise<McpRunRecord[]>;
}
