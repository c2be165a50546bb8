import type { AuditStore } from './ports.js';
import { SqlRepository } from './sql-repository.js';

/** One stored audit: the columns queries need, plus the whole response as returned. */
export interface AuditRecord {
  id: string;
  createdAt: string;
  brand: string;
  brandKey: string;
  website: string;
  category: string;
  categoryKey: string;
  email: string | undefined;
  mode: string;
  /** False when no provider answered: its score must not count as a measured 0. */
  measured: boolean;
  score: number | null;
  response: Record<string, unknown>;
}

/** An audits row as either database returns it (SQLite stores `measured` as 0/1, PostgreSQL as a boolean). */
export interface AuditRow {
  id: string;
  created_at: string;
  brand: string;
  brand_key: string;
  website: string;
  category: string;
  category_key: string;
  email: string | null;
  mode: string;
  measured: number | boolean;
  score: number | null;
  response_json: string;
}

export function auditFromRow(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    createdAt: row.created_at,
    brand: row.brand,
    brandKey: row.brand_key,
    website: row.website,
    category: row.category,
    categoryKey: row.category_key,
    email: row.email ?? undefined,
    mode: row.mode,
    measured: row.measured === 1 || row.measured === true,
    score: row.score,
    response: JSON.parse(row.response_json) as Record<string, unknown>,
  };
}

/** SQL of the audits table, the SQLite adapter of AuditStore; every operation is one statement. */
export class AuditRepository extends SqlRepository implements AuditStore {
  async insertAudit(audit: AuditRecord): Promise<void> {
    this.statement(`
      INSERT INTO audits (id, created_at, brand, brand_key, website, category, category_key, email, mode, measured, score, response_json)
      VALUES (@id, @createdAt, @brand, @brandKey, @website, @category, @categoryKey, @email, @mode, @measured, @score, @responseJson)
    `).run({
      ...audit,
      email: audit.email ?? null,
      measured: audit.measured ? 1 : 0,
      responseJson: JSON.stringify(audit.response),
    });
  }

  async auditExists(id: string): Promise<boolean> {
    return this.statement('SELECT 1 FROM audits WHERE id = ?').get(id) !== undefined;
  }

  async getAudit(id: string): Promise<AuditRecord | undefined> {
    return this.getAuditNow(id);
  }

  /**
   * getAudit, synchronously: for the map read's fast path before Express (http/cheap-reads.ts answers
   * without a promise) and the map code that still runs inside SQLite, until maps have their own port.
   */
  getAuditNow(id: string): AuditRecord | undefined {
    const row = this.statement('SELECT * FROM audits WHERE id = ?').get(id) as AuditRow | undefined;
    return row === undefined ? undefined : auditFromRow(row);
  }

  async latestScoresInCategory(categoryKey: string, excludingBrandKey: string, mode: string): Promise<number[]> {
    const rows = this.statement(`
      SELECT score FROM (
        SELECT brand_key, score, ROW_NUMBER() OVER (PARTITION BY brand_key ORDER BY created_at DESC) AS recency
        FROM audits
        WHERE category_key = ? AND brand_key <> ? AND mode = ? AND measured = 1 AND score IS NOT NULL
      ) WHERE recency = 1
    `).all(categoryKey, excludingBrandKey, mode) as Array<{ score: number }>;
    return rows.map((row) => row.score);
  }

  async listAuditsByEmail(email: string, limit = 100): Promise<AuditRecord[]> {
    const rows = this.statement('SELECT * FROM audits WHERE email = ? ORDER BY created_at DESC LIMIT ?').all(email, limit) as AuditRow[];
    return rows.map(auditFromRow);
  }
}
