import type { TokenStore } from './ports.js';
import { SqlRepository } from './sql-repository.js';

/** What a token grants: a badge image or a read-only shared report. */
export type AuditTokenKind = 'badge' | 'share';

/** One stored token. Only its SHA-256 hash is kept; the raw token is shown once, to its owner. */
export interface AuditTokenRecord {
  tokenHash: string;
  kind: AuditTokenKind;
  auditId: string;
  createdBy: string;
  createdAt: string;
  revokedAt: string | undefined;
}

/** What a badge shows, read with its token in one query. */
export interface BadgeSubjectRecord {
  auditId: string;
  brand: string;
  mode: string;
  /** When the audit ran. */
  createdAt: string;
  /** When the audit's latest buyer-question map completed (a map run, first or re-run, measures again), if any. */
  lastRunAt: string | undefined;
}

/** A token row as either driver returns it. */
export interface TokenRow {
  token_hash: string;
  kind: AuditTokenKind;
  audit_id: string;
  created_by: string;
  created_at: string;
  revoked_at: string | null;
}

interface BadgeSubjectRow {
  audit_id: string;
  brand: string;
  mode: string;
  created_at: string;
  last_run_at: unknown;
}

/**
 * SQL of the audit_tokens table (badge tokens and share links): the SQLite adapter of TokenStore (ports.ts),
 * plus findBadgeSubject, the badge's synchronous read on the cheap-read fast path (see its comment).
 */
export class TokenRepository extends SqlRepository implements TokenStore {
  async insertToken(token: Omit<AuditTokenRecord, 'revokedAt'>): Promise<void> {
    this.statement(`
      INSERT INTO audit_tokens (token_hash, kind, audit_id, created_by, created_at, revoked_at)
      VALUES (@tokenHash, @kind, @auditId, @createdBy, @createdAt, NULL)
    `).run(token);
  }

  async findActiveToken(tokenHash: string, kind: AuditTokenKind): Promise<AuditTokenRecord | undefined> {
    const row = this.statement('SELECT * FROM audit_tokens WHERE token_hash = ? AND kind = ? AND revoked_at IS NULL').get(tokenHash, kind) as
      | TokenRow
      | undefined;
    return row === undefined ? undefined : toTokenRecord(row);
  }

  /**
   * The badge's brand and dates for an active badge token, in one indexed read: the token, its audit's
   * columns (the stored response is never parsed on this hot path) and the latest completed map of the
   * audit (primary-key range of its jobs). Synchronous and outside the TokenStore port on purpose: the
   * badge is answered before Express (apps/server/src/http/cheap-reads.ts) from one synchronous SQLite
   * read; it joins audits and maps, so its PostgreSQL form comes with those aggregates (docs/architecture.md).
   */
  findBadgeSubject(tokenHash: string): BadgeSubjectRecord | undefined {
    const row = this.statement(`
      SELECT audits.id AS audit_id, audits.brand, audits.mode, audits.created_at,
             (SELECT MAX(jobs.completed_at) FROM buyer_question_map_jobs AS jobs
              WHERE jobs.audit_id = audits.id AND jobs.status = 'complete') AS last_run_at
      FROM audit_tokens JOIN audits ON audits.id = audit_tokens.audit_id
      WHERE audit_tokens.token_hash = ? AND audit_tokens.kind = 'badge' AND audit_tokens.revoked_at IS NULL
    `).get(tokenHash) as BadgeSubjectRow | undefined;
    if (row === undefined) return undefined;
    return {
      auditId: row.audit_id,
      brand: row.brand,
      mode: row.mode,
      createdAt: row.created_at,
      lastRunAt: typeof row.last_run_at === 'string' ? row.last_run_at : undefined,
    };
  }

  async listTokens(auditId: string): Promise<AuditTokenRecord[]> {
    const rows = this.statement('SELECT * FROM audit_tokens WHERE audit_id = ? ORDER BY created_at, token_hash').all(auditId) as TokenRow[];
    return rows.map(toTokenRecord);
  }

  async revokeToken(tokenHash: string, kind: AuditTokenKind, auditId: string, revokedAt: string): Promise<boolean> {
    const result = this.statement(
      'UPDATE audit_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE token_hash = ? AND kind = ? AND audit_id = ?',
    ).run(revokedAt, tokenHash, kind, auditId);
    return result.changes === 1;
  }

  async revokeTokenById(id: string, kind: AuditTokenKind, auditId: string, revokedAt: string): Promise<boolean> {
    const result = this.statement(
      `UPDATE audit_tokens SET revoked_at = COALESCE(revoked_at, ?)
       WHERE token_hash = (SELECT token_hash FROM audit_tokens WHERE audit_id = ? AND kind = ? AND substr(token_hash, 1, 16) = ?
                           ORDER BY created_at, token_hash LIMIT 1)`,
    ).run(revokedAt, auditId, kind, id);
    return result.changes === 1;
  }
}

export function toTokenRecord(row: TokenRow): AuditTokenRecord {
  return {
    tokenHash: row.token_hash,
    kind: row.kind,
    auditId: row.audit_id,
    createdBy: row.created_by,
    createdAt: row.created_at,
    revokedAt: row.revoked_at ?? undefined,
  };
}
