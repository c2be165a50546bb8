import type { RunStore } from './ports.js';
import { SqlRepository } from './sql-repository.js';

/** Where a run started through the MCP tools is: audit first, then its buyer-question map. */
export type McpRunStatus = 'queued' | 'auditing' | 'mapping' | 'done' | 'failed';

/** The states a run can still leave; `done` and `failed` are final. */
export const UNFINISHED_MCP_RUN_STATUSES: readonly McpRunStatus[] = ['queued', 'auditing', 'mapping'];

/**
 * A run's latest progress as its process published it (mcp-runs/progress.ts shapes it), stored so every
 * instance reads the same progress. `stage` is one of the run stages (mcp-runs/types.ts).
 */
export interface McpRunProgress {
  stage: string;
  completed: number;
  total: number;
  /** The whole run, 0 to 100; the store never lets it go down. */
  percent: number;
  message: string;
}

/** One stored run. */
export interface McpRunRecord {
  id: string;
  /** The quota key: the website's host, lower-cased, without `www.`. */
  domain: string;
  /** The lineup the run measures with; a demo run never holds the quota of a live one. */
  mode: string;
  status: McpRunStatus;
  brand: string;
  website: string;
  category: string;
  /** The validated request without its email. */
  request: Record<string, unknown>;
  auditId: string | undefined;
  errorCode: string | undefined;
  error: string | undefined;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | undefined;
  /** The latest progress recorded by the process working on the run (written at most about once a second). */
  progress: McpRunProgress | undefined;
}

/** What starting a run stores. */
export type NewMcpRun = Pick<McpRunRecord, 'id' | 'domain' | 'mode' | 'brand' | 'website' | 'category' | 'request' | 'createdAt'>;

/** A claim either created the run or found the one that already holds the domain's quota. */
export type McpRunClaim = { outcome: 'created'; run: McpRunRecord } | { outcome: 'existing'; run: McpRunRecord };

/** A row of mcp_runs as both adapters read it. */
export interface McpRunRow {
  id: string;
  domain: string;
  mode: string;
  status: McpRunStatus;
  brand: string;
  website: string;
  category: string;
  request_json: string;
  audit_id: string | null;
  error_code: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  progress_json: string | null;
  progress_percent: number | null;
}

/** One row as a record (shared by the SQLite and PostgreSQL adapters). */
export function mcpRunFromRow(row: McpRunRow): McpRunRecord {
  return {
    id: row.id,
    domain: row.domain,
    mode: row.mode,
    status: row.status,
    brand: row.brand,
    website: row.website,
    category: row.category,
    request: JSON.parse(row.request_json) as Record<string, unknown>,
    auditId: row.audit_id ?? undefined,
    errorCode: row.error_code ?? undefined,
    error: row.error ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at ?? undefined,
    progress: row.progress_json === null ? undefined : (JSON.parse(row.progress_json) as McpRunProgress),
  };
}

/** The columns a progress write sets: the JSON and, apart, the percent the guard compares. */
export function progressColumns(progress: McpRunProgress): { progressJson: string; percent: number } {
  const { stage, completed, total, percent, message } = progress;
  return { progressJson: JSON.stringify({ stage, completed, total, percent, message }), percent: Math.round(percent) };
}

// Failed runs never hold the quota: nothing was measured, so the domain may try again at once.
const QUOTA_RUN_SQL = `
  SELECT * FROM mcp_runs
  WHERE domain = ? AND mode = ? AND created_at >= ? AND status <> 'failed'
  ORDER BY created_at DESC LIMIT 1
`;

/** SQL of the mcp_runs table (measurements started through the MCP tools): the SQLite adapter of RunStore. */
export class McpRunRepository extends SqlRepository implements RunStore {
  /**
   * Creates the run unless a run of the same domain and mode that has not failed was created at or
   * after `windowStart`; then that run is returned instead. One IMMEDIATE transaction, so two starts
   * for one domain (even from two processes) create one run.
   */
  async claimRun(run: NewMcpRun, windowStart: string): Promise<McpRunClaim> {
    return this.transaction(() => {
      const existing = this.statement(QUOTA_RUN_SQL).get(run.domain, run.mode, windowStart) as McpRunRow | undefined;
      if (existing !== undefined) return { outcome: 'existing', run: mcpRunFromRow(existing) };
      this.statement(`
        INSERT INTO mcp_runs (id, domain, mode, status, brand, website, category, request_json, created_at, updated_at)
        VALUES (@id, @domain, @mode, 'queued', @brand, @website, @category, @requestJson, @createdAt, @createdAt)
      `).run({ ...run, requestJson: JSON.stringify(run.request) });
      const created = this.readRun(run.id);
      if (created === undefined) throw new Error(`the run ${run.id} was not stored`);
      return { outcome: 'created', run: created };
    });
  }

  /** The run that holds the domain's quota since `windowStart`, if any (read only). */
  async findQuotaRun(domain: string, mode: string, windowStart: string): Promise<McpRunRecord | undefined> {
    const row = this.statement(QUOTA_RUN_SQL).get(domain, mode, windowStart) as McpRunRow | undefined;
    return row === undefined ? undefined : mcpRunFromRow(row);
  }

  /** Reads one run by id. */
  async getRun(id: string): Promise<McpRunRecord | undefined> {
    return this.readRun(id);
  }

  private readRun(id: string): McpRunRecord | undefined {
    const row = this.statement('SELECT * FROM mcp_runs WHERE id = ?').get(id) as McpRunRow | undefined;
    return row === undefined ? undefined : mcpRunFromRow(row);
  }

  /** queued -> auditing; false when the run was no longer queued. */
  async markAuditing(id: string, at: string): Promise<boolean> {
    return this.statement(`UPDATE mcp_runs SET status = 'auditing', updated_at = ? WHERE id = ? AND status = 'queued'`).run(at, id).changes === 1;
  }

  /** auditing -> mapping, with the stored audit's id. */
  async markMapping(id: string, auditId: string, at: string): Promise<boolean> {
    return (
      this.statement(`UPDATE mcp_runs SET status = 'mapping', audit_id = ?, updated_at = ? WHERE id = ? AND status = 'auditing'`).run(auditId, at, id)
        .changes === 1
    );
  }

  /** auditing or mapping -> done; the audit id is set when the run finished without a map. */
  async markDone(id: string, auditId: string, finishedAt: string): Promise<boolean> {
    return (
      this.statement(`
        UPDATE mcp_runs SET status = 'done', audit_id = ?, updated_at = ?, finished_at = ?
        WHERE id = ? AND status IN ('auditing', 'mapping')
      `).run(auditId, finishedAt, finishedAt, id).changes === 1
    );
  }

  /** Any unfinished state -> failed, with a stable code and a reason a person can read. */
  async markFailed(id: string, errorCode: string, error: string, at: string): Promise<boolean> {
    return (
      this.statement(`
        UPDATE mcp_runs SET status = 'failed', error_code = ?, error = ?, updated_at = ?, finished_at = ?
        WHERE id = ? AND status IN ('queued', 'auditing', 'mapping')
      `).run(errorCode, error, at, at, id).changes === 1
    );
  }

  /** Stores the run's latest progress unless the stored one is further along; false then (or no such run). */
  async recordProgress(id: string, progress: McpRunProgress): Promise<boolean> {
    const { progressJson, percent } = progressColumns(progress);
    return (
      this.statement(`
        UPDATE mcp_runs SET progress_json = ?, progress_percent = ?
        WHERE id = ? AND (progress_percent IS NULL OR progress_percent <= ?)
      `).run(progressJson, percent, id, percent).changes === 1
    );
  }

  /** Runs in one state, oldest first. */
  async runsWithStatus(status: McpRunStatus): Promise<McpRunRecord[]> {
    const rows = this.statement('SELECT * FROM mcp_runs WHERE status = ? ORDER BY created_at').all(status) as McpRunRow[];
    return rows.map(mcpRunFromRow);
  }
}
