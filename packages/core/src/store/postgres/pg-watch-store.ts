import type pg from 'pg';
import type { WatchStore } from '../ports.js';
import {
  ALERT_COLUMNS,
  ALERT_TRY_COLUMNS,
  ANSWER_COLUMNS,
  RUN_COLUMNS,
  toAlert,
  toAlertTry,
  toAnswer,
  toRun,
  toWatch,
  WATCH_COLUMNS,
  watchRunValues,
  type AlertAttempt,
  type ManualRunStart,
  type NewWatchAlert,
  type NewWatchRun,
  type Row,
  type RunOutcome,
  type ScheduledRunClaim,
  type WatchAlertRecord,
  type WatchAlertTryRecord,
  type WatchAnswerRecord,
  type WatchPatch,
  type WatchRecord,
  type WatchRunRecord,
} from '../watch-repository.js';
import { inTransaction, type PgPool } from './pool.js';

type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * The PostgreSQL adapter of WatchStore (migration 010). A due watch's claim is the same compare-and-set on
 * next_run_at as on SQLite, one UPDATE that takes the watch's row lock, so of several instances exactly one
 * moves it; a manual start locks the same row first, so a scheduled and a manual run of one watch never
 * both see "nothing running" (the partial unique index on running runs would refuse the second anyway).
 */
export class PgWatchStore implements WatchStore {
  constructor(private readonly pool: PgPool) {}

  async createWatch(watch: WatchRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO watches (id, owner_email, brand, category, website, questions_json, providers_json, samples, schedule, paused,
         alert_email, webhook_url, webhook_secret, next_run_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      [
        watch.id,
        watch.ownerEmail.toLowerCase(),
        watch.brand,
        watch.category,
        watch.website,
        JSON.stringify(watch.questions),
        JSON.stringify(watch.providers),
        watch.samples,
        watch.schedule,
        watch.paused,
        watch.alertEmail,
        watch.webhookUrl,
        watch.webhookSecret,
        watch.nextRunAt,
        watch.createdAt,
        watch.updatedAt,
      ],
    );
  }

  async getWatch(id: string): Promise<WatchRecord | undefined> {
    const { rows } = await this.pool.query<Row>(`SELECT ${WATCH_COLUMNS} FROM watches WHERE id = $1`, [id]);
    return rows[0] === undefined ? undefined : toWatch(rows[0]);
  }

  async listWatches(ownerEmail: string): Promise<WatchRecord[]> {
    const { rows } = await this.pool.query<Row>(`SELECT ${WATCH_COLUMNS} FROM watches WHERE owner_email = $1 ORDER BY created_at, id`, [ownerEmail.toLowerCase()]);
    return rows.map(toWatch);
  }

  async countWatches(ownerEmail: string): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>('SELECT COUNT(*)::integer AS count FROM watches WHERE owner_email = $1', [ownerEmail.toLowerCase()]);
    return rows[0]?.count ?? 0;
  }

  async updateWatch(id: string, patch: WatchPatch, now: string): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE watches SET
         schedule = COALESCE($3::text, schedule),
         paused = COALESCE($4::boolean, paused),
         alert_email = COALESCE($5::boolean, alert_email),
         webhook_url = CASE WHEN $6::boolean THEN $7::text ELSE webhook_url END,
         next_run_at = COALESCE($8::text, next_run_at),
         updated_at = $2
       WHERE id = $1`,
      [
        id,
        now,
        patch.schedule ?? null,
        patch.paused ?? null,
        patch.alertEmail ?? null,
        patch.webhookUrl !== undefined,
        patch.webhookUrl ?? null,
        patch.nextRunAt ?? null,
      ],
    );
    return result.rowCount === 1;
  }

  async deleteWatch(id: string): Promise<boolean> {
    return (await this.pool.query('DELETE FROM watches WHERE id = $1', [id])).rowCount === 1;
  }

  async dueWatches(now: string, limit: number): Promise<WatchRecord[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${WATCH_COLUMNS} FROM watches WHERE NOT paused AND next_run_at <= $1 ORDER BY next_run_at, id LIMIT $2`,
      [now, limit],
    );
    return rows.map(toWatch);
  }

  claimScheduledRun(claim: ScheduledRunClaim): Promise<WatchRunRecord | undefined> {
    return inTransaction(this.pool, async (client) => {
      const moved = await client.query('UPDATE watches SET next_run_at = $1, updated_at = $2 WHERE id = $3 AND next_run_at = $4 AND NOT paused', [
        claim.nextRunAt,
        claim.now,
        claim.watchId,
        claim.expectedNextRunAt,
      ]);
      if (moved.rowCount !== 1) return undefined;
      const busy = await client.query<{ id: string }>("SELECT id FROM watch_runs WHERE watch_id = $1 AND status = 'running'", [claim.watchId]);
      const busyId = busy.rows[0]?.id;
      const reason = claim.skipReason ?? (busyId === undefined ? null : `run ${busyId} of this watch was still running`);
      return insertRun(client, { ...claim.run, status: reason === null ? 'running' : 'skipped', reason }, 'schedule', claim.expectedNextRunAt, null);
    });
  }

  startManualRun(start: { run: NewWatchRun; chargedEmail: string | null; now: string }): Promise<ManualRunStart> {
    return inTransaction(this.pool, async (client): Promise<ManualRunStart> => {
      // The watch's row lock orders this start after any claim or start of the same watch in flight.
      await client.query('SELECT id FROM watches WHERE id = $1 FOR UPDATE', [start.run.watchId]);
      const busy = await client.query<Row>(`SELECT ${RUN_COLUMNS} FROM watch_runs WHERE watch_id = $1 AND status = 'running'`, [start.run.watchId]);
      if (busy.rows[0] !== undefined) return { outcome: 'joined', run: toRun(busy.rows[0]) };
      if (start.chargedEmail !== null) {
        const spent = await client.query('UPDATE accounts SET credits = credits - 1, updated_at = $1 WHERE email = $2 AND credits > 0', [
          start.now,
          start.chargedEmail.toLowerCase(),
        ]);
        if (spent.rowCount !== 1) return { outcome: 'no_credits' };
      }
      return { outcome: 'started', run: await insertRun(client, start.run, 'manual', null, start.chargedEmail?.toLowerCase() ?? null) };
    });
  }

  recordSkippedRun(run: NewWatchRun, trigger: 'schedule' | 'manual'): Promise<WatchRunRecord> {
    return insertRun(this.pool, { ...run, status: 'skipped' }, trigger, null, null);
  }

  async getRun(id: string): Promise<WatchRunRecord | undefined> {
    const { rows } = await this.pool.query<Row>(`SELECT ${RUN_COLUMNS} FROM watch_runs WHERE id = $1`, [id]);
    return rows[0] === undefined ? undefined : toRun(rows[0]);
  }

  async listRuns(watchId: string, range: { from?: string | undefined; to?: string | undefined } = {}): Promise<WatchRunRecord[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${RUN_COLUMNS} FROM watch_runs
       WHERE watch_id = $1 AND ($2::text IS NULL OR created_at >= $2) AND ($3::text IS NULL OR created_at <= $3)
       ORDER BY created_at, id`,
      [watchId, range.from ?? null, range.to ?? null],
    );
    return rows.map(toRun);
  }

  async earlierCompleteRuns(watchId: string, before: string, limit: number): Promise<WatchRunRecord[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${RUN_COLUMNS} FROM watch_runs WHERE watch_id = $1 AND status = 'complete' AND created_at < $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
      [watchId, before, limit],
    );
    return rows.map(toRun);
  }

  async runningRunIds(): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>("SELECT id FROM watch_runs WHERE status = 'running' ORDER BY created_at");
    return rows.map((row) => row.id);
  }

  async insertAnswer(answer: WatchAnswerRecord): Promise<boolean> {
    const result = await this.pool.query(
      `INSERT INTO watch_answers (run_id, question_index, provider, sample_index, ok, model, answer, brands_json, named, position,
         failure_kind, cost_micro_usd, answered_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (run_id, question_index, provider, sample_index) DO NOTHING`,
      [
        answer.runId,
        answer.questionIndex,
        answer.provider,
        answer.sampleIndex,
        answer.ok,
        answer.model,
        answer.answer,
        JSON.stringify(answer.brands),
        answer.named,
        answer.position,
        answer.failureKind,
        answer.costMicroUsd,
        answer.answeredAt,
      ],
    );
    return result.rowCount === 1;
  }

  async listAnswers(runId: string): Promise<WatchAnswerRecord[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${ANSWER_COLUMNS} FROM watch_answers WHERE run_id = $1 ORDER BY provider, question_index, sample_index`,
      [runId],
    );
    return rows.map(toAnswer);
  }

  async countAnswers(runId: string): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>('SELECT COUNT(*)::integer AS count FROM watch_answers WHERE run_id = $1', [runId]);
    return rows[0]?.count ?? 0;
  }

  finishRun(id: string, outcome: RunOutcome, alerts: readonly NewWatchAlert[]): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const done = await client.query(
        "UPDATE watch_runs SET status = $1, reason = $2, point_json = $3, changes_json = $4, completed_at = $5 WHERE id = $6 AND status = 'running'",
        [outcome.status, outcome.reason, outcome.pointJson, outcome.changesJson, outcome.completedAt, id],
      );
      if (done.rowCount !== 1) return false;
      for (const alert of alerts) {
        await client.query(
          `INSERT INTO watch_alerts (id, watch_id, run_id, channel, target, status, payload, tries, next_try_at, created_at)
           VALUES ($1, $2, $3, $4, $5, 'pending', $6, 0, $7, $8)`,
          [alert.id, alert.watchId, alert.runId, alert.channel, alert.target, alert.payload, alert.nextTryAt, alert.createdAt],
        );
      }
      return true;
    });
  }

  async dueAlerts(now: string, limit: number): Promise<WatchAlertRecord[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${ALERT_COLUMNS} FROM watch_alerts WHERE status = 'pending' AND next_try_at <= $1 ORDER BY next_try_at LIMIT $2`,
      [now, limit],
    );
    return rows.map(toAlert);
  }

  async nextAlertTryAt(): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ at: string | null }>("SELECT MIN(next_try_at) AS at FROM watch_alerts WHERE status = 'pending'");
    return rows[0]?.at ?? undefined;
  }

  async claimAlertTry(id: string, expectedTries: number, leaseUntil: string): Promise<boolean> {
    const result = await this.pool.query("UPDATE watch_alerts SET tries = tries + 1, next_try_at = $1 WHERE id = $2 AND tries = $3 AND status = 'pending'", [
      leaseUntil,
      id,
      expectedTries,
    ]);
    return result.rowCount === 1;
  }

  async recordAlertTry(id: string, attempt: AlertAttempt, next: { status: 'pending' | 'delivered' | 'failed'; nextTryAt: string | null }): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO watch_alert_tries (alert_id, try_number, tried_at, ok, http_status, error) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (alert_id, try_number) DO NOTHING`,
        [id, attempt.tryNumber, attempt.triedAt, attempt.ok, attempt.httpStatus, attempt.error],
      );
      await client.query('UPDATE watch_alerts SET status = $1, next_try_at = $2 WHERE id = $3', [next.status, next.nextTryAt, id]);
    });
  }

  async listAlerts(watchId: string): Promise<WatchAlertRecord[]> {
    const { rows } = await this.pool.query<Row>(`SELECT ${ALERT_COLUMNS} FROM watch_alerts WHERE watch_id = $1 ORDER BY created_at, channel`, [watchId]);
    return rows.map(toAlert);
  }

  async listAlertTries(watchId: string): Promise<WatchAlertTryRecord[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${ALERT_TRY_COLUMNS}
       FROM watch_alert_tries t JOIN watch_alerts a ON a.id = t.alert_id WHERE a.watch_id = $1 ORDER BY t.tried_at, a.channel, t.try_number`,
      [watchId],
    );
    return rows.map(toAlertTry);
  }
}

/** Inserts a run and returns it as stored (in the caller's transaction when given a client). */
async function insertRun(
  on: Queryable | PgPool,
  run: NewWatchRun,
  trigger: 'schedule' | 'manual',
  scheduledFor: string | null,
  chargedEmail: string | null,
): Promise<WatchRunRecord> {
  const { rows } = await on.query<Row>(
    `INSERT INTO watch_runs (id, watch_id, run_trigger, scheduled_for, status, mode, questions_json, providers_json, samples, reason,
       charged_email, created_at, completed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     RETURNING ${RUN_COLUMNS}`,
    watchRunValues(run, trigger, scheduledFor, chargedEmail),
  );
  return toRun(rows[0] as Row);
}
