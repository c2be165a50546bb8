import type { TokenStore } from '../ports.js';
import { toTokenRecord, type AuditTokenKind, type AuditTokenRecord, type BadgeSubjectRecord, type TokenRow } from '../token-repository.js';
import type { PgPool } from './pool.js';

/** The PostgreSQL adapter of TokenStore (migration 009): every operation is one statement. */
export class PgTokenStore implements TokenStore {
  constructor(private readonly pool: PgPool) {}

  async insertToken(token: Omit<AuditTokenRecord, 'revokedAt'>): Promise<void> {
    await this.pool.query(
      'INSERT INTO audit_tokens (token_hash, kind, audit_id, created_by, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, NULL)',
      [token.tokenHash, token.kind, token.auditId, token.createdBy, token.createdAt],
    );
  }

  async findActiveToken(tokenHash: string, kind: AuditTokenKind): Promise<AuditTokenRecord | undefined> {
    const { rows } = await this.pool.query<TokenRow>(
      'SELECT token_hash, kind, audit_id, created_by, created_at, revoked_at FROM audit_tokens WHERE token_hash = $1 AND kind = $2 AND revoked_at IS NULL',
      [tokenHash, kind],
    );
    return rows[0] === undefined ? undefined : toTokenRecord(rows[0]);
  }

  async listTokens(auditId: string): Promise<AuditTokenRecord[]> {
    const { rows } = await this.pool.query<TokenRow>(
      'SELECT token_hash, kind, audit_id, created_by, created_at, revoked_at FROM audit_tokens WHERE audit_id = $1 ORDER BY created_at, token_hash',
      [auditId],
    );
    return rows.map(toTokenRecord);
  }

  async revokeToken(tokenHash: string, kind: AuditTokenKind, auditId: string, revokedAt: string): Promise<boolean> {
    const result = await this.pool.query(
      'UPDATE audit_tokens SET revoked_at = COALESCE(revoked_at, $1) WHERE token_hash = $2 AND kind = $3 AND audit_id = $4',
      [revokedAt, tokenHash, kind, auditId],
    );
    return result.rowCount === 1;
  }

  async revokeTokenById(id: string, kind: AuditTokenKind, auditId: string, revokedAt: string): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE audit_tokens SET revoked_at = COALESCE(revoked_at, $1)
       WHERE token_hash = (SELECT token_hash FROM audit_tokens WHERE audit_id = $2 AND kind = $3 AND substr(token_hash, 1, 16) = $4
                           ORDER BY created_at, token_hash LIMIT 1)`,
      [revokedAt, auditId, kind, id],
    );
    return result.rowCount === 1;
  }

  /**
   * The badge's brand and dates for an active badge token in one query (TokenRepository.findBadgeSubject's
   * PostgreSQL form, awaited: PostgreSQL mode has no synchronous badge read, docs/architecture.md).
   */
  async findBadgeSubject(tokenHash: string): Promise<BadgeSubjectRecord | undefined> {
    const { rows } = await this.pool.query<{ audit_id: string; brand: string; mode: string; created_at: string; last_run_at: string | null }>(
      `SELECT audits.id AS audit_id, audits.brand, audits.mode, audits.created_at,
              (SELECT MAX(jobs.completed_at) FROM buyer_question_map_jobs AS jobs
               WHERE jobs.audit_id = audits.id AND jobs.status = 'complete') AS last_run_at
       FROM audit_tokens JOIN audits ON audits.id = audit_tokens.audit_id
       WHERE audit_tokens.token_hash = $1 AND audit_tokens.kind = 'badge' AND audit_tokens.revoked_at IS NULL`,
      [tokenHash],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return { auditId: row.audit_id, brand: row.brand, mode: row.mode, createdAt: row.created_at, lastRunAt: row.last_run_at ?? undefined };
  }
}
