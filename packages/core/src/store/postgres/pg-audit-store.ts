import { auditFromRow, type AuditRecord, type AuditRow } from '../audit-repository.js';
import type { AuditStore } from '../ports.js';
import type { PgPool } from './pool.js';

/** The PostgreSQL adapter of AuditStore (audits); every operation is one statement. */
export class PgAuditStore implements AuditStore {
  constructor(private readonly pool: PgPool) {}

  async insertAudit(audit: AuditRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO audits (id, created_at, brand, brand_key, website, category, category_key, email, mode, measured, score, response_json)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        audit.id,
        audit.createdAt,
        audit.brand,
        audit.brandKey,
        audit.website,
        audit.category,
        audit.categoryKey,
        audit.email ?? null,
        audit.mode,
        audit.measured,
        audit.score,
        JSON.stringify(audit.response),
      ],
    );
  }

  async auditExists(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('SELECT 1 FROM audits WHERE id = $1', [id]);
    return rowCount === 1;
  }

  async getAudit(id: string): Promise<AuditRecord | undefined> {
    const { rows } = await this.pool.query<AuditRow>('SELECT * FROM audits WHERE id = $1', [id]);
    return rows[0] === undefined ? undefined : auditFromRow(rows[0]);
  }

  async latestScoresInCategory(categoryKey: string, excludingBrandKey: string, mode: string): Promise<number[]> {
    const { rows } = await this.pool.query<{ score: number }>(
      `SELECT score FROM (
         SELECT brand_key, score, ROW_NUMBER() OVER (PARTITION BY brand_key ORDER BY created_at DESC) AS recency
         FROM audits
         WHERE category_key = $1 AND brand_key <> $2 AND mode = $3 AND measured AND score IS NOT NULL
       ) AS latest WHERE recency = 1`,
      [categoryKey, excludingBrandKey, mode],
    );
    return rows.map((row) => row.score);
  }

  async listAuditsByEmail(email: string, limit = 100): Promise<AuditRecord[]> {
    const { rows } = await this.pool.query<AuditRow>('SELECT * FROM audits WHERE email = $1 ORDER BY created_at DESC LIMIT $2', [email, limit]);
    return rows.map(auditFromRow);
  }
}
