import { SqlRepository } from './sql-repository.js';
import type { ProviderId } from '../providers/types.js';

/** One column of a map: a provider and the model it was asked with when the job started. */
export interface MapJobProvider {
  provider: ProviderId;
  model: string;
}

/** What a new job freezes: the grid it will ask and who paid for it. */
export interface NewMapJob {
  auditId: string;
  mode: string;
  brand: string;
  website: string;
  /** The audit's watch list, a hint for the brand extractor. */
  competitors: readonly string[];
  questions: readonly string[];
  providers: readonly MapJobProvider[];
  /** The account that paid one credit for this generation; undefined for the free first map. */
  chargedEmail?: string | undefined;
  createdAt: string;
}

/** One stored job: running, or complete with its map. */
export interface MapJobRecord extends Omit<NewMapJob, 'competitors' | 'questions' | 'providers'> {
  generation: number;
  status: 'running' | 'complete';
  competitors: string[];
  questions: string[];
  providers: MapJobProvider[];
  chargedEmail: string | undefined;
  completedAt: string | undefined;
  /** The finished grid as it was stored; undefined while running. */
  map: Record<string, unknown> | undefined;
}

/** One finished cell (a question asked once to one provider): an answer, or the failure that replaced it. */
export interface MapCellRecord {
  auditId: string;
  generation: number;
  questionIndex: number;
  provider: ProviderId;
  ok: boolean;
  model: string | null;
  answer: string | null;
  /** Brands the answer named, in order of first mention (empty when the call failed). */
  brands: string[];
  named: boolean;
  position: number | null;
  failureKind: string | null;
  failureMessage: string | null;
  answeredAt: string;
}

/** How starting a re-run went: a new generation, one already running, or no credit to pay for it. */
export type RerunStart =
  | { outcome: 'started'; job: MapJobRecord }
  | { outcome: 'joined'; job: MapJobRecord }
  | { outcome: 'no_credits' };

/** A buyer_question_map_jobs row, as either database returns it. */
export interface MapJobRow {
  audit_id: string;
  generation: number;
  status: 'running' | 'complete';
  mode: string;
  brand: string;
  website: string;
  competitors_json: string;
  questions_json: string;
  providers_json: string;
  charged_email: string | null;
  created_at: string;
  completed_at: string | null;
  map_json: string | null;
}

/** A buyer_question_map_cells row (SQLite keeps ok/named as 0/1, PostgreSQL as booleans). */
export interface MapCellRow {
  audit_id: string;
  generation: number;
  question_index: number;
  provider: ProviderId;
  ok: number | boolean;
  model: string | null;
  answer: string | null;
  brands_json: string;
  named: number | boolean;
  position: number | null;
  failure_kind: string | null;
  failure_message: string | null;
  answered_at: string;
}

/** A new job's column values, in the order both adapters' INSERT lists them (status 'running' is written as a literal). */
export function mapJobValues(job: NewMapJob, generation: number): unknown[] {
  return [
    job.auditId,
    generation,
    job.mode,
    job.brand,
    job.website,
    JSON.stringify(job.competitors),
    JSON.stringify(job.questions),
    JSON.stringify(job.providers),
    job.chargedEmail?.toLowerCase() ?? null,
    job.createdAt,
  ];
}

export function mapJobFromRow(row: MapJobRow): MapJobRecord {
  return {
    auditId: row.audit_id,
    generation: row.generation,
    status: row.status,
    mode: row.mode,
    brand: row.brand,
    website: row.website,
    competitors: JSON.parse(row.competitors_json) as string[],
    questions: JSON.parse(row.questions_json) as string[],
    providers: JSON.parse(row.providers_json) as MapJobProvider[],
    chargedEmail: row.charged_email ?? undefined,
    createdAt: row.created_at,
    completedAt: row.completed_at ?? undefined,
    map: row.map_json === null ? undefined : (JSON.parse(row.map_json) as Record<string, unknown>),
  };
}

export function mapCellFromRow(row: MapCellRow): MapCellRecord {
  return {
    auditId: row.audit_id,
    generation: row.generation,
    questionIndex: row.question_index,
    provider: row.provider,
    ok: row.ok === 1 || row.ok === true,
    model: row.model,
    answer: row.answer,
    brands: JSON.parse(row.brands_json) as string[],
    named: row.named === 1 || row.named === true,
    position: row.position,
    failureKind: row.failure_kind,
    failureMessage: row.failure_message,
    answeredAt: row.answered_at,
  };
}

/** SQL of the buyer-question map jobs and cells. Every state change is one statement or one transaction. */
export class MapRepository extends SqlRepository {
  private jobWriteCount = 0;

  /**
   * How many times this repository has written map jobs (created, cancelled, completed): a reader that
   * keeps what it looked up knows it is stale when this has moved. Writes through another
   * MapRepository (another process on the same file) do not move it.
   */
  get jobWrites(): number {
    return this.jobWriteCount;
  }

  private insertJob(job: NewMapJob, generation: number): boolean {
    this.jobWriteCount += 1;
    // DO NOTHING covers both the (audit, generation) key and the one-running-job-per-audit index.
    const result = this.statement(`
      INSERT INTO buyer_question_map_jobs
        (audit_id, generation, status, mode, brand, website, competitors_json, questions_json, providers_json, charged_email, created_at)
      VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO NOTHING
    `).run(...mapJobValues(job, generation));
    return result.changes === 1;
  }

  /** Creates the free first job (generation 1) unless any job of the audit exists; true when this call created it. */
  createFirstJob(job: NewMapJob): boolean {
    return this.database
      .transaction(() => {
        const existing = this.statement('SELECT 1 FROM buyer_question_map_jobs WHERE audit_id = ? LIMIT 1').get(job.auditId);
        return existing === undefined && this.insertJob(job, 1);
      })
      .immediate();
  }

  /**
   * Starts the next generation and pays for it in one write transaction: when a job of the audit is
   * already running it is joined (nothing spent); when `spend` finds no credit nothing is written.
   */
  createRerunJob(job: NewMapJob, spend: () => boolean): RerunStart {
    return this.database
      .transaction((): RerunStart => {
        const running = this.runningJob(job.auditId);
        if (running !== undefined) return { outcome: 'joined', job: running };
        if (!spend()) return { outcome: 'no_credits' };
        const generation = this.latestGeneration(job.auditId) + 1;
        // Cannot conflict inside this write transaction; if it ever did, the throw rolls the spend back.
        if (!this.insertJob(job, generation)) throw new Error(`map job ${job.auditId}#${generation} already exists`);
        return { outcome: 'started', job: this.job(job.auditId, generation) as MapJobRecord };
      })
      .immediate();
  }

  /** Removes a job that never asked anything and runs `undo` (the credit refund) in the same transaction. */
  cancelJob(auditId: string, generation: number, undo: () => void = () => {}): void {
    this.jobWriteCount += 1;
    this.database
      .transaction(() => {
        this.statement('DELETE FROM buyer_question_map_cells WHERE audit_id = ? AND generation = ?').run(auditId, generation);
        const removed = this.statement("DELETE FROM buyer_question_map_jobs WHERE audit_id = ? AND generation = ? AND status = 'running'").run(
          auditId,
          generation,
        );
        if (removed.changes === 1) undo();
      })
      .immediate();
  }

  /** The highest generation of the audit, 0 when it has no job. */
  latestGeneration(auditId: string): number {
    const row = this.statement('SELECT MAX(generation) AS generation FROM buyer_question_map_jobs WHERE audit_id = ?').get(auditId) as {
      generation: number | null;
    };
    return row.generation ?? 0;
  }

  /** One job by audit and generation. */
  job(auditId: string, generation: number): MapJobRecord | undefined {
    const row = this.statement('SELECT * FROM buyer_question_map_jobs WHERE audit_id = ? AND generation = ?').get(auditId, generation) as
      | MapJobRow
      | undefined;
    return row === undefined ? undefined : mapJobFromRow(row);
  }

  /** The audit's job still being measured, if any (at most one). */
  runningJob(auditId: string): MapJobRecord | undefined {
    const row = this.statement("SELECT * FROM buyer_question_map_jobs WHERE audit_id = ? AND status = 'running'").get(auditId) as
      | MapJobRow
      | undefined;
    return row === undefined ? undefined : mapJobFromRow(row);
  }

  /** The newest finished job of the audit: the stored map. */
  latestCompleteJob(auditId: string): MapJobRecord | undefined {
    const row = this.statement(
      "SELECT * FROM buyer_question_map_jobs WHERE audit_id = ? AND status = 'complete' ORDER BY generation DESC LIMIT 1",
    ).get(auditId) as MapJobRow | undefined;
    return row === undefined ? undefined : mapJobFromRow(row);
  }

  /**
   * What a map read must know first, in one indexed query: whether the audit exists, the newest
   * complete generation (the stored map) and the running one (a map or re-measurement under way).
   */
  mapReadState(auditId: string): { auditExists: boolean; completeGeneration: number | undefined; runningGeneration: number | undefined } {
    // Positional parameters and an array row: this query runs on every map read.
    const [auditExists, completeGeneration, runningGeneration] = this.statement(`
      SELECT EXISTS (SELECT 1 FROM audits WHERE id = ?),
             (SELECT MAX(generation) FROM buyer_question_map_jobs WHERE audit_id = ? AND status = 'complete'),
             (SELECT MAX(generation) FROM buyer_question_map_jobs WHERE audit_id = ? AND status = 'running')
    `).raw().get(auditId, auditId, auditId) as [number, number | null, number | null];
    return { auditExists: auditExists === 1, completeGeneration: completeGeneration ?? undefined, runningGeneration: runningGeneration ?? undefined };
  }

  /** The stored map of the newest finished job as its JSON text, never parsed: what a map read sends. */
  latestCompleteMapJson(auditId: string): { generation: number; mapJson: string } | undefined {
    const row = this.statement(
      "SELECT generation, map_json FROM buyer_question_map_jobs WHERE audit_id = ? AND status = 'complete' ORDER BY generation DESC LIMIT 1",
    ).get(auditId) as { generation: number; map_json: string } | undefined;
    return row === undefined ? undefined : { generation: row.generation, mapJson: row.map_json };
  }

  /**
   * Every finished generation of an audit's map, newest first, with when it finished and how many of its
   * questions were won (read from the stored map's summary): what the report lists as earlier measurements.
   */
  completedGenerations(auditId: string): Array<{ generation: number; completedAt: string; questions: number; questionsWon: number }> {
    const rows = this.statement(
      "SELECT generation, completed_at, json_extract(map_json, '$.summary.questions') AS questions, json_extract(map_json, '$.summary.questionsWon') AS won FROM buyer_question_map_jobs WHERE audit_id = ? AND status = 'complete' ORDER BY generation DESC",
    ).all(auditId) as Array<{ generation: number; completed_at: string | null; questions: unknown; won: unknown }>;
    return rows.map((row) => ({
      generation: row.generation,
      completedAt: row.completed_at ?? '',
      questions: typeof row.questions === 'number' ? row.questions : 0,
      questionsWon: typeof row.won === 'number' ? row.won : 0,
    }));
  }

  /** Every job left running (by a process that stopped or died), oldest first: what a start resumes. */
  runningJobs(): MapJobRecord[] {
    const rows = this.statement("SELECT * FROM buyer_question_map_jobs WHERE status = 'running' ORDER BY created_at, audit_id").all() as MapJobRow[];
    return rows.map(mapJobFromRow);
  }

  /** Stores one finished cell; false (and nothing changes) when that cell was already stored. */
  insertCell(cell: MapCellRecord): boolean {
    const result = this.statement(`
      INSERT INTO buyer_question_map_cells
        (audit_id, generation, question_index, provider, ok, model, answer, brands_json, named, position, failure_kind, failure_message, answered_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO NOTHING
    `).run(
      cell.auditId,
      cell.generation,
      cell.questionIndex,
      cell.provider,
      cell.ok ? 1 : 0,
      cell.model,
      cell.answer,
      JSON.stringify(cell.brands),
      cell.named ? 1 : 0,
      cell.position,
      cell.failureKind,
      cell.failureMessage,
      cell.answeredAt,
    );
    return result.changes === 1;
  }

  /** The stored cells of one job, by question then provider. */
  listCells(auditId: string, generation: number): MapCellRecord[] {
    const rows = this.statement(
      'SELECT * FROM buyer_question_map_cells WHERE audit_id = ? AND generation = ? ORDER BY question_index, provider',
    ).all(auditId, generation) as MapCellRow[];
    return rows.map(mapCellFromRow);
  }

  /** How many cells of one job are stored. */
  countCells(auditId: string, generation: number): number {
    const row = this.statement('SELECT COUNT(*) AS cells FROM buyer_question_map_cells WHERE audit_id = ? AND generation = ?').get(
      auditId,
      generation,
    ) as { cells: number };
    return row.cells;
  }

  /** Marks a running job complete with its grid; false when it was not running (already completed). */
  completeJob(auditId: string, generation: number, map: Record<string, unknown>, completedAt: string): boolean {
    this.jobWriteCount += 1;
    const result = this.statement(`
      UPDATE buyer_question_map_jobs SET status = 'complete', map_json = ?, completed_at = ?
      WHERE audit_id = ? AND generation = ? AND status = 'running'
    `).run(JSON.stringify(map), completedAt, auditId, generation);
    return result.changes === 1;
  }
}
