import { mcpRunFromRow, progressColumns, type McpRunClaim, type McpRunRecord, type McpRunRow, type McpRunProgress, type McpRunStatus, type NewMcpRun } from '../mcp-run-repository.js';
import type { RunStore } from '../ports.js';
import { inTransaction, type PgPool } from './pool.js';

// Failed runs never hold the quota: nothing was measured, so the domain may try again at once.
const QUOTA_RUN_SQL = `
  SELECT * FROM mcp_runs
  WHERE domain = $1 AND mode = $2 AND created_at >= $3 AND status <> 'failed'
  ORDER BY created_at DESC LIMIT 1
`;

/** The PostgreSQL adapter of RunStore (mcp_runs). */
export class PgRunStore implements RunStore {
  constructor(private readonly pool: PgPool) {}

  /**
   * One transaction holding a transaction-scoped advisory lock on (domain, mode): concurrent claims for
   * one domain, from any instances, queue on it, so the second finds the first's run.
   */
  claimRun(run: NewMcpRun, windowStart: string): Promise<McpRunClaim> {
    return inTransaction(this.pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('mcp_runs:' || $1 || '|' || $2, 0))", [run.domain, run.mode]);
      const existing = await client.query<McpRunRow>(QUOTA_RUN_SQL, [run.domain, run.mode, windowStart]);
      if (existing.rows[0] !== undefined) return { outcome: 'existing', run: mcpRunFromRow(existing.rows[0]) };
      const created = await client.query<McpRunRow>(
        `INSERT INTO mcp_runs (id, domain, mode, status, brand, website, category, request_json, created_at, updated_at)
         VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $8, $8) RETURNING *`,
        [run.id, run.domain, run.mode, run.brand, run.website, run.category, JSON.stringify(run.request), run.createdAt],
      );
      return { outcome: 'created', run: mcpRunFromRow(created.rows[0] as McpRunRow) };
    });
  }

  async findQuotaRun(domain: string, mode: string, windowStart: string): Promise<McpRunRecord | undefined> {
    const { rows } = await this.pool.query<McpRunRow>(QUOTA_RUN_SQL, [domain, mode, windowStart]);
    return rows[0] === undefined ? undefined : mcpRunFromRow(rows[0]);
  }

  async getRun(id: string): Promise<McpRunRecord | undefined> {
    const { rows } = await this.pool.query<McpRunRow>('SELECT * FROM mcp_runs WHERE id = $1', [id]);
    return rows[0] === undefined ? undefined : mcpRunFromRow(rows[0]);
  }

  async markAuditing(id: string, at: string): Promise<boolean> {
    const result = await this.pool.query(`UPDATE mcp_runs SET status = 'auditing', updated_at = $1 WHERE id = $2 AND status = 'queued'`, [at, id]);
    return result.rowCount === 1;
  }

  async markMapping(id: string, auditId: string, at: string): Promise<boolean> {
    const result = await this.pool.query(`UPDATE mcp_runs SET status = 'mapping', audit_id = $1, updated_at = $2 WHERE id = $3 AND status = 'auditing'`, [
      auditId,
      at,
      id,
    ]);
    return result.rowCount === 1;
  }

  async markDone(id: string, auditId: string, finishedAt: string): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE mcp_runs SET status = 'done', audit_id = $1, updated_at = $2, finished_at = $2 WHERE id = $3 AND status IN ('auditing', 'mapping')`,
      [auditId, finishedAt, id],
    );
    return result.rowCount === 1;
  }

  async markFailed(id: string, errorCode: string, error: string, at: string): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE mcp_runs SET status = 'failed', error_code = $1, error = $2, updated_at = $3, finished_at = $3
       WHERE id = $4 AND status IN ('queued', 'auditing', 'mapping')`,
      [errorCode, error, at, id],
    );
    return result.rowCount === 1;
  }

  async recordProgress(id: string, progress: McpRunProgress): Promise<boolean> {
    const { progressJson, percent } = progressColumns(progress);
    const result = await this.pool.query(
      `UPDATE mcp_runs SET progress_json = $1, progress_percent = $2 WHERE id = $3 AND (progress_percent IS NULL OR progress_percent <= $2)`,
      [progressJson, percent, id],
    );
    return result.rowCount === 1;
  }

  async runsWithStatus(status: McpRunStatus): Promise<McpRunRecord[]> {
    const { rows } = await this.pool.query<McpRunRow>('SELECT * FROM mcp_runs WHERE status = $1 ORDER BY created_at', [status]);
    return rows.map(mcpRunFromRow);
  }
}
