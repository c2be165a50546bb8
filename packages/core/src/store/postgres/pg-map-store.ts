import {
  mapCellFromRow,
  mapJobFromRow,
  mapJobValues,
  type MapCellRecord,
  type MapCellRow,
  type MapJobRecord,
  type MapJobRow,
  type NewMapJob,
  type RerunStart,
} from '../map-repository.js';
import type { CompletedMapGeneration, MapReadState, MapStore } from '../ports.js';
import { inTransaction, type PgPool } from './pool.js';

type Queryable = Pick<PgPool, 'query'>;

// DO NOTHING covers both the (audit, generation) key and the one-running-job-per-audit index.
const INSERT_JOB_SQL = `
  INSERT INTO buyer_question_map_jobs
    (audit_id, generation, status, mode, brand, website, competitors_json, questions_json, providers_json, charged_email, created_at)
  VALUES ($1, $2, 'running', $3, $4, $5, $6, $7, $8, $9, $10)
  ON CONFLICT DO NOTHING
`;


async function runningJobOn(client: Queryable, auditId: string): Promise<MapJobRecord | undefined> {
  const { rows } = await client.query<MapJobRow>("SELECT * FROM buyer_question_map_jobs WHERE audit_id = $1 AND status = 'running'", [auditId]);
  return rows[0] === undefined ? undefined : mapJobFromRow(rows[0]);
}

/** A summary number of the stored map (json_extract in SQLite): a JSON number, else null. */
function summaryNumber(field: 'questions' | 'questionsWon'): string {
  return `CASE WHEN jsonb_typeof(map_json::jsonb #> '{summary,${field}}') = 'number' THEN (map_json::jsonb #>> '{summary,${field}}')::double precision END`;
}

/**
 * The PostgreSQL adapter of MapStore. Starting a re-run takes a transaction-scoped advisory lock on the
 * audit, so concurrent re-runs from any instances queue: the first starts (and spends), the others join.
 */
export class PgMapStore implements MapStore {
  constructor(private readonly pool: PgPool) {}

  async createFirstJob(job: NewMapJob): Promise<boolean> {
    const result = await this.pool.query(
      `INSERT INTO buyer_question_map_jobs
         (audit_id, generation, status, mode, brand, website, competitors_json, questions_json, providers_json, charged_email, created_at)
       SELECT $1, $2, 'running', $3, $4, $5, $6, $7, $8, $9, $10
       WHERE NOT EXISTS (SELECT 1 FROM buyer_question_map_jobs WHERE audit_id = $1)
       ON CONFLICT DO NOTHING`,
      mapJobValues(job, 1),
    );
    return result.rowCount === 1;
  }

  createRerunJob(job: NewMapJob & { chargedEmail: string }, now: Date = new Date()): Promise<RerunStart> {
    return inTransaction(this.pool, async (client): Promise<RerunStart> => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('map_jobs:' || $1, 0))", [job.auditId]);
      const running = await runningJobOn(client, job.auditId);
      if (running !== undefined) return { outcome: 'joined', job: running };
      const spent = await client.query('UPDATE accounts SET credits = credits - 1, updated_at = $1 WHERE email = $2 AND credits > 0', [
        now.toISOString(),
        job.chargedEmail.toLowerCase(),
      ]);
      if (spent.rowCount !== 1) return { outcome: 'no_credits' };
      const { rows } = await client.query<{ generation: number | null }>('SELECT MAX(generation) AS generation FROM buyer_question_map_jobs WHERE audit_id = $1', [
        job.auditId,
      ]);
      const generation = (rows[0]?.generation ?? 0) + 1;
      const inserted = await client.query(INSERT_JOB_SQL, mapJobValues(job, generation));
      // Cannot conflict under the lock; if it ever did, the throw rolls the spend back.
      if (inserted.rowCount !== 1) throw new Error(`map job ${job.auditId}#${generation} already exists`);
      return { outcome: 'started', job: (await runningJobOn(client, job.auditId)) as MapJobRecord };
    });
  }

  cancelJob(auditId: string, generation: number, now: Date = new Date()): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM buyer_question_map_cells WHERE audit_id = $1 AND generation = $2', [auditId, generation]);
      const removed = await client.query<{ charged_email: string | null }>(
        "DELETE FROM buyer_question_map_jobs WHERE audit_id = $1 AND generation = $2 AND status = 'running' RETURNING charged_email",
        [auditId, generation],
      );
      const row = removed.rows[0];
      if (row === undefined) return false;
      if (row.charged_email !== null) {
        await client.query('UPDATE accounts SET credits = credits + 1, updated_at = $1 WHERE email = $2', [now.toISOString(), row.charged_email]);
      }
      return true;
    });
  }

  async latestGeneration(auditId: string): Promise<number> {
    const { rows } = await this.pool.query<{ generation: number | null }>('SELECT MAX(generation) AS generation FROM buyer_question_map_jobs WHERE audit_id = $1', [
      auditId,
    ]);
    return rows[0]?.generation ?? 0;
  }

  async job(auditId: string, generation: number): Promise<MapJobRecord | undefined> {
    const { rows } = await this.pool.query<MapJobRow>('SELECT * FROM buyer_question_map_jobs WHERE audit_id = $1 AND generation = $2', [auditId, generation]);
    return rows[0] === undefined ? undefined : mapJobFromRow(rows[0]);
  }

  runningJob(auditId: string): Promise<MapJobRecord | undefined> {
    return runningJobOn(this.pool, auditId);
  }

  async latestCompleteJob(auditId: string): Promise<MapJobRecord | undefined> {
    const { rows } = await this.pool.query<MapJobRow>(
      "SELECT * FROM buyer_question_map_jobs WHERE audit_id = $1 AND status = 'complete' ORDER BY generation DESC LIMIT 1",
      [auditId],
    );
    return rows[0] === undefined ? undefined : mapJobFromRow(rows[0]);
  }

  async mapReadState(auditId: string): Promise<MapReadState> {
    const { rows } = await this.pool.query<{ audit_exists: boolean; complete: number | null; running: number | null }>(
      `SELECT EXISTS (SELECT 1 FROM audits WHERE id = $1) AS audit_exists,
              (SELECT MAX(generation) FROM buyer_question_map_jobs WHERE audit_id = $1 AND status = 'complete') AS complete,
              (SELECT MAX(generation) FROM buyer_question_map_jobs WHERE audit_id = $1 AND status = 'running') AS running`,
      [auditId],
    );
    const row = rows[0];
    return { auditExists: row?.audit_exists === true, completeGeneration: row?.complete ?? undefined, runningGeneration: row?.running ?? undefined };
  }

  async latestCompleteMapJson(auditId: string): Promise<{ generation: number; mapJson: string } | undefined> {
    const { rows } = await this.pool.query<{ generation: number; map_json: string }>(
      "SELECT generation, map_json FROM buyer_question_map_jobs WHERE audit_id = $1 AND status = 'complete' ORDER BY generation DESC LIMIT 1",
      [auditId],
    );
    return rows[0] === undefined ? undefined : { generation: rows[0].generation, mapJson: rows[0].map_json };
  }

  async completedGenerations(auditId: string): Promise<CompletedMapGeneration[]> {
    const { rows } = await this.pool.query<{ generation: number; completed_at: string | null; questions: number | null; won: number | null }>(
      `SELECT generation, completed_at, ${summaryNumber('questions')} AS questions, ${summaryNumber('questionsWon')} AS won
       FROM buyer_question_map_jobs WHERE audit_id = $1 AND status = 'complete' ORDER BY generation DESC`,
      [auditId],
    );
    return rows.map((row) => ({
      generation: row.generation,
      completedAt: row.completed_at ?? '',
      questions: typeof row.questions === 'number' ? row.questions : 0,
      questionsWon: typeof row.won === 'number' ? row.won : 0,
    }));
  }

  async runningJobs(): Promise<MapJobRecord[]> {
    const { rows } = await this.pool.query<MapJobRow>(
      `SELECT * FROM buyer_question_map_jobs WHERE status = 'running' ORDER BY created_at COLLATE "C", audit_id COLLATE "C"`,
    );
    return rows.map(mapJobFromRow);
  }

  async insertCell(cell: MapCellRecord): Promise<boolean> {
    const result = await this.pool.query(
      `INSERT INTO buyer_question_map_cells
         (audit_id, generation, question_index, provider, ok, model, answer, brands_json, named, position, failure_kind, failure_message, answered_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT DO NOTHING`,
      [
        cell.auditId,
        cell.generation,
        cell.questionIndex,
        cell.provider,
        cell.ok,
        cell.model,
        cell.answer,
        JSON.stringify(cell.brands),
        cell.named,
        cell.position,
        cell.failureKind,
        cell.failureMessage,
        cell.answeredAt,
      ],
    );
    return result.rowCount === 1;
  }

  async listCells(auditId: string, generation: number): Promise<MapCellRecord[]> {
    const { rows } = await this.pool.query<MapCellRow>(
      'SELECT * FROM buyer_question_map_cells WHERE audit_id = $1 AND generation = $2 ORDER BY question_index, provider COLLATE "C"',
      [auditId, generation],
    );
    return rows.map(mapCellFromRow);
  }

  async countCells(auditId: string, generation: number): Promise<number> {
    const { rows } = await this.pool.query<{ cells: number }>(
      'SELECT COUNT(*)::integer AS cells FROM buyer_question_map_cells WHERE audit_id = $1 AND generation = $2',
      [auditId, generation],
    );
    return rows[0]?.cells ?? 0;
  }

  async completeJob(auditId: string, generation: number, map: Record<string, unknown>, completedAt: string): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE buyer_question_map_jobs SET status = 'complete', map_json = $1, completed_at = $2
       WHERE audit_id = $3 AND generation = $4 AND status = 'running'`,
      [JSON.stringify(map), completedAt, auditId, generation],
    );
    return result.rowCount === 1;
  }
}
