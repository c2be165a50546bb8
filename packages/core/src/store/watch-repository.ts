import type { ProviderId } from '../providers/types.js';
import type { WatchStore } from './ports.js';
import { SqlRepository } from './sql-repository.js';

// All SQLite SQL of tracking (docs/tracking.md): the SQLite adapter of the WatchStore port (ports.ts); the
// PostgreSQL one is postgres/pg-watch-store.ts, and watch-store.contract.test.ts runs one suite on both.
// Every method is async; here each runs synchronously on SQLite. Claims are compare-and-set statements, never read-then-write
// in application code.

export interface WatchRecord {
  id: string;
  ownerEmail: string;
  brand: string;
  category: string;
  website: string | null;
  questions: string[];
  providers: ProviderId[];
  samples: number;
  schedule: 'daily' | 'weekly';
  paused: boolean;
  alertEmail: boolean;
  webhookUrl: string | null;
  webhookSecret: string;
  nextRunAt: string;
  createdAt: string;
  updatedAt: string;
}

export interface WatchPatch {
  schedule?: 'daily' | 'weekly';
  paused?: boolean;
  alertEmail?: boolean;
  webhookUrl?: string | null;
  nextRunAt?: string;
}

export interface RunProviderRecord {
  provider: ProviderId;
  model: string;
}

export interface WatchRunRecord {
  id: string;
  watchId: string;
  trigger: 'schedule' | 'manual';
  scheduledFor: string | null;
  status: 'running' | 'complete' | 'skipped' | 'failed';
  mode: string;
  questions: string[];
  providers: RunProviderRecord[];
  samples: number;
  reason: string | null;
  chargedEmail: string | null;
  createdAt: string;
  completedAt: string | null;
  pointJson: string | null;
  changesJson: string | null;
}

export type NewWatchRun = Omit<WatchRunRecord, 'completedAt' | 'pointJson' | 'changesJson' | 'chargedEmail' | 'scheduledFor' | 'trigger'>;

export interface WatchAnswerRecord {
  runId: string;
  questionIndex: number;
  provider: ProviderId;
  sampleIndex: number;
  ok: boolean;
  model: string | null;
  answer: string | null;
  brands: string[];
  named: boolean;
  position: number | null;
  failureKind: string | null;
  costMicroUsd: number;
  answeredAt: string;
}

export interface WatchAlertRecord {
  id: string;
  watchId: string;
  runId: string;
  channel: 'email' | 'webhook';
  target: string;
  status: 'pending' | 'delivered' | 'failed';
  payload: string;
  tries: number;
  nextTryAt: string | null;
  createdAt: string;
}

export interface WatchAlertTryRecord {
  alertId: string;
  channel: 'email' | 'webhook';
  runId: string;
  tryNumber: number;
  triedAt: string;
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
}

/** A scheduled run's claim of a due watch (see WatchStore.claimScheduledRun). */
export interface ScheduledRunClaim {
  watchId: string;
  expectedNextRunAt: string;
  nextRunAt: string;
  run: NewWatchRun;
  skipReason?: string | undefined;
  now: string;
}

/** How a running run ended. */
export interface RunOutcome {
  status: 'complete' | 'skipped' | 'failed';
  reason: string | null;
  pointJson: string | null;
  changesJson: string | null;
  completedAt: string;
}

/** An alert queued when its run finishes. */
export type NewWatchAlert = Omit<WatchAlertRecord, 'tries' | 'status'>;

/** One try of an alert, as logged. */
export interface AlertAttempt {
  tryNumber: number;
  triedAt: string;
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
}

export type ManualRunStart =
  | { outcome: 'started'; run: WatchRunRecord }
  | { outcome: 'joined'; run: WatchRunRecord }
  | { outcome: 'no_credits' };

export const WATCH_COLUMNS = `id, owner_email AS "ownerEmail", brand, category, website, questions_json AS "questionsJson",
  providers_json AS "providersJson", samples, schedule, paused, alert_email AS "alertEmail", webhook_url AS "webhookUrl",
  webhook_secret AS "webhookSecret", next_run_at AS "nextRunAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

export const RUN_COLUMNS = `id, watch_id AS "watchId", run_trigger AS "runTrigger", scheduled_for AS "scheduledFor", status, mode,
  questions_json AS "questionsJson", providers_json AS "providersJson", samples, reason, charged_email AS "chargedEmail",
  created_at AS "createdAt", completed_at AS "completedAt",
  point_json AS "pointJson", changes_json AS "changesJson"`;

/** A row as either driver returns it (SQLite: 0/1 for booleans; PostgreSQL: booleans, bigint as text). */
export type Row = Record<string, unknown>;

/** SQLite stores flags as 0/1, PostgreSQL as booleans. */
function flag(value: unknown): boolean {
  return value === 1 || value === true;
}

export function toAlertTry(row: Row): WatchAlertTryRecord {
  return {
    alertId: row.alertId as string,
    channel: row.channel as WatchAlertTryRecord['channel'],
    runId: row.runId as string,
    tryNumber: row.tryNumber as number,
    triedAt: row.triedAt as string,
    ok: flag(row.ok),
    httpStatus: (row.httpStatus as number | null) ?? null,
    error: (row.error as string | null) ?? null,
  };
}

/** A new run's column values, in the order both adapters' INSERT INTO watch_runs lists them. */
export function watchRunValues(run: NewWatchRun, trigger: 'schedule' | 'manual', scheduledFor: string | null, chargedEmail: string | null): unknown[] {
  return [
    run.id,
    run.watchId,
    trigger,
    scheduledFor,
    run.status,
    run.mode,
    JSON.stringify(run.questions),
    JSON.stringify(run.providers),
    run.samples,
    run.reason,
    chargedEmail,
    run.createdAt,
    run.status === 'running' ? null : run.createdAt,
  ];
}

export function toWatch(row: Row): WatchRecord {
  return {
    id: row.id as string,
    ownerEmail: row.ownerEmail as string,
    brand: row.brand as string,
    category: row.category as string,
    website: (row.website as string | null) ?? null,
    questions: JSON.parse(row.questionsJson as string) as string[],
    providers: JSON.parse(row.providersJson as string) as ProviderId[],
    samples: row.samples as number,
    schedule: row.schedule as WatchRecord['schedule'],
    paused: flag(row.paused),
    alertEmail: flag(row.alertEmail),
    webhookUrl: (row.webhookUrl as string | null) ?? null,
    webhookSecret: row.webhookSecret as string,
    nextRunAt: row.nextRunAt as string,
    createdAt: row.createdAt as string,
    updatedAt: row.updatedAt as string,
  };
}

export function toRun(row: Row): WatchRunRecord {
  return {
    id: row.id as string,
    watchId: row.watchId as string,
    trigger: row.runTrigger as WatchRunRecord['trigger'],
    scheduledFor: (row.scheduledFor as string | null) ?? null,
    status: row.status as WatchRunRecord['status'],
    mode: row.mode as string,
    questions: JSON.parse(row.questionsJson as string) as string[],
    providers: JSON.parse(row.providersJson as string) as RunProviderRecord[],
    samples: row.samples as number,
    reason: (row.reason as string | null) ?? null,
    chargedEmail: (row.chargedEmail as string | null) ?? null,
    createdAt: row.createdAt as string,
    completedAt: (row.completedAt as string | null) ?? null,
    pointJson: (row.pointJson as string | null) ?? null,
    changesJson: (row.changesJson as string | null) ?? null,
  };
}

export function toAnswer(row: Row): WatchAnswerRecord {
  return {
    runId: row.runId as string,
    questionIndex: row.questionIndex as number,
    provider: row.provider as ProviderId,
    sampleIndex: row.sampleIndex as number,
    ok: flag(row.ok),
    model: (row.model as string | null) ?? null,
    answer: (row.answer as string | null) ?? null,
    brands: JSON.parse(row.brandsJson as string) as string[],
    named: flag(row.named),
    position: (row.position as number | null) ?? null,
    failureKind: (row.failureKind as string | null) ?? null,
    costMicroUsd: Number(row.costMicroUsd),
    answeredAt: row.answeredAt as string,
  };
}

export function toAlert(row: Row): WatchAlertRecord {
  return {
    id: row.id as string,
    watchId: row.watchId as string,
    runId: row.runId as string,
    channel: row.channel as WatchAlertRecord['channel'],
    target: row.target as string,
    status: row.status as WatchAlertRecord['status'],
    payload: row.payload as string,
    tries: row.tries as number,
    nextTryAt: (row.nextTryAt as string | null) ?? null,
    createdAt: row.createdAt as string,
  };
}

export const ANSWER_COLUMNS = `run_id AS "runId", question_index AS "questionIndex", provider, sample_index AS "sampleIndex", ok, model, answer,
  brands_json AS "brandsJson", named, position, failure_kind AS "failureKind", cost_micro_usd AS "costMicroUsd", answered_at AS "answeredAt"`;

export const ALERT_TRY_COLUMNS = `t.alert_id AS "alertId", a.channel, a.run_id AS "runId", t.try_number AS "tryNumber", t.tried_at AS "triedAt", t.ok,
  t.http_status AS "httpStatus", t.error`;

export const ALERT_COLUMNS = `id, watch_id AS "watchId", run_id AS "runId", channel, target, status, payload, tries, next_try_at AS "nextTryAt", created_at AS "createdAt"`;

/** Watches, their runs and answers, and their alerts: the SQLite adapter of WatchStore (ports.ts). */
export class WatchRepository extends SqlRepository implements WatchStore {
  async createWatch(watch: WatchRecord): Promise<void> {
    this.statement(`
      INSERT INTO watches (id, owner_email, brand, category, website, questions_json, providers_json, samples, schedule, paused,
        alert_email, webhook_url, webhook_secret, next_run_at, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    `).run(
      watch.id,
      watch.ownerEmail.toLowerCase(),
      watch.brand,
      watch.category,
      watch.website,
      JSON.stringify(watch.questions),
      JSON.stringify(watch.providers),
      watch.samples,
      watch.schedule,
      watch.paused ? 1 : 0,
      watch.alertEmail ? 1 : 0,
      watch.webhookUrl,
      watch.webhookSecret,
      watch.nextRunAt,
      watch.createdAt,
      watch.updatedAt,
    );
  }

  async getWatch(id: string): Promise<WatchRecord | undefined> {
    const row = this.statement(`SELECT ${WATCH_COLUMNS} FROM watches WHERE id = ?`).get(id) as Row | undefined;
    return row === undefined ? undefined : toWatch(row);
  }

  /** The owner's watches, oldest first. */
  async listWatches(ownerEmail: string): Promise<WatchRecord[]> {
    const rows = this.statement(`SELECT ${WATCH_COLUMNS} FROM watches WHERE owner_email = ? ORDER BY created_at, id`).all(ownerEmail.toLowerCase()) as Row[];
    return rows.map(toWatch);
  }

  async countWatches(ownerEmail: string): Promise<number> {
    const row = this.statement('SELECT COUNT(*) AS count FROM watches WHERE owner_email = ?').get(ownerEmail.toLowerCase()) as { count: number };
    return row.count;
  }

  /** Changes the fields given; false when there is no such watch. */
  async updateWatch(id: string, patch: WatchPatch, now: string): Promise<boolean> {
    // One statement for every patch: a field left out keeps its value (COALESCE with a NULL parameter), except
    // webhook_url, which may be set to NULL and so has its own flag.
    return (
      this.statement(`
        UPDATE watches SET
          schedule = COALESCE(@schedule, schedule),
          paused = COALESCE(@paused, paused),
          alert_email = COALESCE(@alertEmail, alert_email),
          webhook_url = CASE WHEN @setWebhook = 1 THEN @webhookUrl ELSE webhook_url END,
          next_run_at = COALESCE(@nextRunAt, next_run_at),
          updated_at = @now
        WHERE id = @id
      `).run({
        id,
        now,
        schedule: patch.schedule ?? null,
        paused: patch.paused === undefined ? null : patch.paused ? 1 : 0,
        alertEmail: patch.alertEmail === undefined ? null : patch.alertEmail ? 1 : 0,
        setWebhook: patch.webhookUrl === undefined ? 0 : 1,
        webhookUrl: patch.webhookUrl ?? null,
        nextRunAt: patch.nextRunAt ?? null,
      }).changes === 1
    );
  }

  /** Deletes the watch with its runs, answers and alerts. */
  async deleteWatch(id: string): Promise<boolean> {
    return this.statement('DELETE FROM watches WHERE id = ?').run(id).changes === 1;
  }

  /** Watches due at `now` (not paused), most overdue first. */
  async dueWatches(now: string, limit: number): Promise<WatchRecord[]> {
    const rows = this.statement(`SELECT ${WATCH_COLUMNS} FROM watches WHERE paused = 0 AND next_run_at <= ? ORDER BY next_run_at, id LIMIT ?`).all(now, limit) as Row[];
    return rows.map(toWatch);
  }

  /**
   * Claims a due watch for one scheduled run: moves `next_run_at` from the value read to the next one
   * (compare-and-set, so of several processes exactly one wins) and records the run in the same
   * transaction. With `skipReason`, or when another run of the watch is still running, the run is recorded
   * as skipped with the reason. Undefined when another process claimed it first.
   */
  async claimScheduledRun(claim: ScheduledRunClaim): Promise<WatchRunRecord | undefined> {
    return this.transaction(() => {
      const moved = this.statement('UPDATE watches SET next_run_at = ?, updated_at = ? WHERE id = ? AND next_run_at = ? AND paused = 0').run(
        claim.nextRunAt,
        claim.now,
        claim.watchId,
        claim.expectedNextRunAt,
      );
      if (moved.changes !== 1) return undefined;
      const busy = this.statement("SELECT id FROM watch_runs WHERE watch_id = ? AND status = 'running'").get(claim.watchId) as { id: string } | undefined;
      const reason = claim.skipReason ?? (busy === undefined ? null : `run ${busy.id} of this watch was still running`);
      this.insertRun({ ...claim.run, status: reason === null ? 'running' : 'skipped', reason }, 'schedule', claim.expectedNextRunAt, null);
      return this.runSync(claim.run.id);
    });
  }

  /**
   * Starts a run asked for now by the owner, spending one credit in the same transaction: joins the running
   * one instead (no credit) when there is one.
   */
  async startManualRun(start: { run: NewWatchRun; chargedEmail: string | null; now: string }): Promise<ManualRunStart> {
    return this.transaction(() => {
      const busy = this.statement(`SELECT ${RUN_COLUMNS} FROM watch_runs WHERE watch_id = ? AND status = 'running'`).get(start.run.watchId) as Row | undefined;
      if (busy !== undefined) return { outcome: 'joined' as const, run: toRun(busy) };
      // No charged address: the operator's run from the CLI, which spends no credit.
      if (start.chargedEmail !== null) {
        const spent = this.statement('UPDATE accounts SET credits = credits - 1, updated_at = ? WHERE email = ? AND credits > 0').run(
          start.now,
          start.chargedEmail.toLowerCase(),
        );
        if (spent.changes !== 1) return { outcome: 'no_credits' as const };
      }
      this.insertRun(start.run, 'manual', null, start.chargedEmail?.toLowerCase() ?? null);
      return { outcome: 'started' as const, run: this.runSync(start.run.id) as WatchRunRecord };
    });
  }

  /** Records a manual run that never started (the budget was used up): skipped, with the reason, no credit spent. */
  async recordSkippedRun(run: NewWatchRun, trigger: 'schedule' | 'manual'): Promise<WatchRunRecord> {
    this.insertRun({ ...run, status: 'skipped' }, trigger, null, null);
    return this.runSync(run.id) as WatchRunRecord;
  }

  private insertRun(run: NewWatchRun, trigger: 'schedule' | 'manual', scheduledFor: string | null, chargedEmail: string | null): void {
    this.statement(`
      INSERT INTO watch_runs (id, watch_id, run_trigger, scheduled_for, status, mode, questions_json, providers_json, samples, reason,
        charged_email, created_at, completed_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    `).run(...watchRunValues(run, trigger, scheduledFor, chargedEmail));
  }

  private runSync(id: string): WatchRunRecord | undefined {
    const row = this.statement(`SELECT ${RUN_COLUMNS} FROM watch_runs WHERE id = ?`).get(id) as Row | undefined;
    return row === undefined ? undefined : toRun(row);
  }

  async getRun(id: string): Promise<WatchRunRecord | undefined> {
    return this.runSync(id);
  }

  /** A watch's runs, oldest first, optionally from/to (ISO times, inclusive). */
  async listRuns(watchId: string, range: { from?: string | undefined; to?: string | undefined } = {}): Promise<WatchRunRecord[]> {
    const rows = this.statement(
      `SELECT ${RUN_COLUMNS} FROM watch_runs WHERE watch_id = ? AND created_at >= ? AND created_at <= ? ORDER BY created_at, id`,
    ).all(watchId, range.from ?? '', range.to ?? '\uffff') as Row[];
    return rows.map(toRun);
  }

  /** Completed runs of the watch created before a moment, newest first. */
  async earlierCompleteRuns(watchId: string, before: string, limit: number): Promise<WatchRunRecord[]> {
    const rows = this.statement(
      `SELECT ${RUN_COLUMNS} FROM watch_runs WHERE watch_id = ? AND status = 'complete' AND created_at < ? ORDER BY created_at DESC, id DESC LIMIT ?`,
    ).all(watchId, before, limit) as Row[];
    return rows.map(toRun);
  }

  /** Ids of the runs still running (their jobs resume them; a run without a job row gets one). */
  async runningRunIds(): Promise<string[]> {
    return (this.statement("SELECT id FROM watch_runs WHERE status = 'running' ORDER BY created_at").all() as Array<{ id: string }>).map((row) => row.id);
  }

  /** Stores one answer; false when it was stored already (an answer is stored once). */
  async insertAnswer(answer: WatchAnswerRecord): Promise<boolean> {
    return (
      this.statement(`
        INSERT INTO watch_answers (run_id, question_index, provider, sample_index, ok, model, answer, brands_json, named, position,
          failure_kind, cost_micro_usd, answered_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (run_id, question_index, provider, sample_index) DO NOTHING
      `).run(
        answer.runId,
        answer.questionIndex,
        answer.provider,
        answer.sampleIndex,
        answer.ok ? 1 : 0,
        answer.model,
        answer.answer,
        JSON.stringify(answer.brands),
        answer.named ? 1 : 0,
        answer.position,
        answer.failureKind,
        answer.costMicroUsd,
        answer.answeredAt,
      ).changes === 1
    );
  }

  async listAnswers(runId: string): Promise<WatchAnswerRecord[]> {
    const rows = this.statement(`
      SELECT ${ANSWER_COLUMNS}
      FROM watch_answers WHERE run_id = ? ORDER BY provider, question_index, sample_index
    `).all(runId) as Row[];
    return rows.map(toAnswer);
  }

  async countAnswers(runId: string): Promise<number> {
    return (this.statement('SELECT COUNT(*) AS count FROM watch_answers WHERE run_id = ?').get(runId) as { count: number }).count;
  }

  /**
   * Finishes a running run and queues its alerts, in one transaction; false when it was finished already
   * (so alerts are queued once).
   */
  async finishRun(
    id: string,
    outcome: RunOutcome,
    alerts: readonly NewWatchAlert[],
  ): Promise<boolean> {
    return this.transaction(() => {
      const done = this.statement(
        "UPDATE watch_runs SET status = ?, reason = ?, point_json = ?, changes_json = ?, completed_at = ? WHERE id = ? AND status = 'running'",
      ).run(outcome.status, outcome.reason, outcome.pointJson, outcome.changesJson, outcome.completedAt, id);
      if (done.changes !== 1) return false;
      for (const alert of alerts) {
        this.statement(
          "INSERT INTO watch_alerts (id, watch_id, run_id, channel, target, status, payload, tries, next_try_at, created_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, 0, ?, ?)",
        ).run(alert.id, alert.watchId, alert.runId, alert.channel, alert.target, alert.payload, alert.nextTryAt, alert.createdAt);
      }
      return true;
    });
  }

  /** Alerts waiting for a try at `now`. */
  async dueAlerts(now: string, limit: number): Promise<WatchAlertRecord[]> {
    const rows = this.statement(`SELECT ${ALERT_COLUMNS} FROM watch_alerts WHERE status = 'pending' AND next_try_at <= ? ORDER BY next_try_at LIMIT ?`).all(now, limit) as Row[];
    return rows.map(toAlert);
  }

  /** The earliest time a pending alert wants its next try, if any. */
  async nextAlertTryAt(): Promise<string | undefined> {
    const row = this.statement("SELECT MIN(next_try_at) AS at FROM watch_alerts WHERE status = 'pending'").get() as { at: string | null };
    return row.at ?? undefined;
  }

  /**
   * Claims the next try of an alert (compare-and-set on its try count), pushing its next try time out by the
   * claim's lease so no other process tries it meanwhile; false when another process claimed it.
   */
  async claimAlertTry(id: string, expectedTries: number, leaseUntil: string): Promise<boolean> {
    return (
      this.statement("UPDATE watch_alerts SET tries = tries + 1, next_try_at = ? WHERE id = ? AND tries = ? AND status = 'pending'").run(leaseUntil, id, expectedTries)
        .changes === 1
    );
  }

  /** Logs one try and sets what happens next: delivered, failed for good, or another try at `nextTryAt`. */
  async recordAlertTry(
    id: string,
    attempt: AlertAttempt,
    next: { status: 'pending' | 'delivered' | 'failed'; nextTryAt: string | null },
  ): Promise<void> {
    this.transaction(() => {
      this.statement('INSERT INTO watch_alert_tries (alert_id, try_number, tried_at, ok, http_status, error) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (alert_id, try_number) DO NOTHING').run(
        id,
        attempt.tryNumber,
        attempt.triedAt,
        attempt.ok ? 1 : 0,
        attempt.httpStatus,
        attempt.error,
      );
      this.statement('UPDATE watch_alerts SET status = ?, next_try_at = ? WHERE id = ?').run(next.status, next.nextTryAt, id);
    });
  }

  async listAlerts(watchId: string): Promise<WatchAlertRecord[]> {
    const rows = this.statement(`SELECT ${ALERT_COLUMNS} FROM watch_alerts WHERE watch_id = ? ORDER BY created_at, channel`).all(watchId) as Row[];
    return rows.map(toAlert);
  }

  /** Every try of the watch's alerts, oldest first: the log shown on the watch. */
  async listAlertTries(watchId: string): Promise<WatchAlertTryRecord[]> {
    const rows = this.statement(`
      SELECT ${ALERT_TRY_COLUMNS}
      FROM watch_alert_tries t JOIN watch_alerts a ON a.id = t.alert_id WHERE a.watch_id = ? ORDER BY t.tried_at, a.channel, t.try_number
    `).all(watchId) as Row[];
    return rows.map(toAlertTry);
  }
}
