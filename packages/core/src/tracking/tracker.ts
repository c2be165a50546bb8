// Runs watches: the scheduler (due watches claimed with a compare-and-set on next_run_at), each run as a
// leased job of the process's job runner (kind 'watch-run'; its answers are stored the moment they arrive,
// so a run whose process died is taken over and asks only the missing answers), the change detection at the
// end of a run, and the alerts (mail and webhook, each try logged, retried with backoff).

import { randomUUID } from 'node:crypto';
import type { Budget } from '../budget/budget.js';
import type { CrawlHostMap } from '../crawl/host-map.js';
import type { HostLookup } from '../crawl/public-host.js';
import type { JobContext, JobOutcome, JobRunner } from '../jobs/runner.js';
import { brandMatcherFor } from '../audit/sampling.js';
import { positionInList } from '../extraction/index.js';
import { rulesBrandExtractor, type BrandExtractor } from '../extraction/second-opinion.js';
import type { Logger } from '../logging/logger.js';
import type { Mailer } from '../mail/mailer.js';
import { ProviderFailure, type Provider, type ProviderId } from '../providers/types.js';
import type { WatchStore } from '../store/ports.js';
import type { NewWatchRun, WatchAlertRecord, WatchAnswerRecord, WatchRecord, WatchRunRecord } from '../store/watch-repository.js';
import { buildAlertMail, buildWebhookPayload } from './alert-content.js';
import { buildPoint } from './point.js';
import { nextRunAfter } from './schedule.js';
import { BASELINE_MAX_RUNS, detectChanges } from './statistics.js';
import type { StoredPoint, WatchChange } from './types.js';
import { postWebhook, WEBHOOK_EVENT, webhookSignature } from './webhook.js';

/** What the call log records watch calls as. */
export const WATCH_PURPOSE = 'watch.buyer_question';
/** The job kind of a watch run in the job runner (keyed by the run id). */
export const WATCH_RUN_JOB_KIND = 'watch-run';
/** How often the service looks for due watches and alerts. */
export const DEFAULT_TICK_MS = 60_000;
/** At most this many tries per alert... */
export const MAX_ALERT_TRIES = 5;
/** ...waiting this long after each failed one: 0.5, 1, 3 and 6 minutes, about 10.5 minutes from the first try to the last. */
export const ALERT_RETRY_DELAYS_MS: readonly number[] = [30_000, 60_000, 180_000, 360_000];
/** While a process holds an alert try, no other process tries it. */
const ALERT_TRY_LEASE_MS = 60_000;
const DEFAULT_CONCURRENCY = 4;

export interface TrackingDependencies {
  /** The watches port (SQLite: WatchRepository; PostgreSQL: PgWatchStore). */
  watchRepository: WatchStore;
  /** The process's job runner: each run is a leased job of it, taken over when its process dies. */
  jobs: JobRunner;
  lineup: ReadonlyMap<ProviderId, Provider>;
  brandExtractor?: BrandExtractor | undefined;
  /** The lineup's mode ("demo" or "live"): recorded on each run; runs of another mode are never compared. */
  mode: string;
  /** The monthly budget: a run that cannot be paid for is recorded as skipped; answers are priced with its table. */
  budget?: Pick<Budget, 'hasBudgetLeft' | 'status' | 'prices'> | undefined;
  mailer?: Mailer | undefined;
  baseUrl: string;
  /** CRAWL_HOST_MAP: operator-trusted hosts (tests, staging) the webhook guard lets through to their origin. */
  hostMap?: CrawlHostMap | undefined;
  /** The resolver behind the webhook's connect-time guard (tests inject one). */
  lookup?: HostLookup | undefined;
  logger: Logger;
  now?: (() => Date) | undefined;
  /** Calls in flight per provider within one run (the lineup's PROVIDER_CONCURRENCY). */
  concurrencyPerProvider?: number | undefined;
}

/** The scheduler and runner of one process; the composition root starts and stops it. */
export class WatchTracker {
  private readonly active = new Map<string, Promise<unknown>>();
  private readonly alertsInFlight = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private interval: NodeJS.Timeout | undefined;
  private stopping = false;
  private stopped: Promise<void> | undefined;
  private ticking: Promise<unknown> | undefined;

  constructor(readonly dependencies: TrackingDependencies) {
    // Registered before the runner starts: its scans take over runs whose process died.
    dependencies.jobs.register(WATCH_RUN_JOB_KIND, {
      run: (runId, context) => this.runJob(runId, context),
      orphans: () => dependencies.watchRepository.runningRunIds(),
    });
  }

  private now(): Date {
    return (this.dependencies.now ?? (() => new Date()))();
  }

  /** Ticks now and then every `intervalMs`: due watches run and due alerts are tried (the job runner resumes runs). */
  start(intervalMs: number = DEFAULT_TICK_MS): void {
    if (this.interval !== undefined || this.stopping) return;
    const tick = (): void => {
      this.ticking ??= this.tick()
        .catch((error: unknown) => this.dependencies.logger.error('watch scheduler tick failed', { error }))
        .finally(() => (this.ticking = undefined));
    };
    this.interval = setInterval(tick, intervalMs);
    this.interval.unref();
    tick();
  }

  /** One pass: take over runs whose process died, start due watches, try due alerts. Returns the runs started here. */
  async tick(now: Date = this.now()): Promise<WatchRunRecord[]> {
    if (this.stopping) return [];
    const before = new Set(this.active.keys());
    await this.dependencies.jobs.scan([WATCH_RUN_JOB_KIND]);
    const started: WatchRunRecord[] = [];
    for (const runId of this.active.keys()) {
      if (before.has(runId)) continue;
      const run = await this.dependencies.watchRepository.getRun(runId);
      if (run !== undefined) started.push(run);
    }
    started.push(...(await this.runDue(now)));
    await this.dispatchAlerts(now);
    return started;
  }

  /** Claims each watch due at `now` (once across processes) and starts its run; a run that cannot be paid is recorded as skipped. */
  async runDue(now: Date = this.now()): Promise<WatchRunRecord[]> {
    const { watchRepository, logger } = this.dependencies;
    const runs: WatchRunRecord[] = [];
    for (const watch of await watchRepository.dueWatches(now.toISOString(), 100)) {
      if (this.stopping) break;
      const run = this.newRun(watch, now);
      const claimed = await watchRepository.claimScheduledRun({
        watchId: watch.id,
        expectedNextRunAt: watch.nextRunAt,
        nextRunAt: nextRunAfter(watch.schedule, new Date(watch.nextRunAt), now).toISOString(),
        run,
        skipReason: await this.skipReason(watch),
        now: now.toISOString(),
      });
      if (claimed === undefined) continue;
      runs.push(claimed);
      if (claimed.status === 'running') await this.work(claimed);
      else logger.warn('scheduled watch run skipped', { watchId: watch.id, runId: claimed.id, reason: claimed.reason });
    }
    return runs;
  }

  /** Why a run of the watch cannot happen now (the budget), or undefined. */
  async skipReason(watch: WatchRecord): Promise<string | undefined> {
    const { budget, lineup } = this.dependencies;
    const missing = watch.providers.filter((provider) => !lineup.has(provider));
    if (missing.length === watch.providers.length) return `none of the watch's providers (${watch.providers.join(', ')}) is configured`;
    if (budget === undefined) return undefined;
    const unpaid: string[] = [];
    for (const provider of watch.providers) {
      const model = lineup.get(provider)?.model;
      // Awaited: the budget port answers synchronously on SQLite and asynchronously on PostgreSQL.
      if (model !== undefined && !(await budget.hasBudgetLeft(model))) unpaid.push(provider);
    }
    if (unpaid.length === 0) return undefined;
    const { resetAt } = await budget.status();
    return `budget: the monthly provider budget is used up (it resets at ${resetAt.toISOString()}); ${unpaid.join(', ')} could not be paid for`;
  }

  /** A run record for the watch as the lineup stands now (its providers and models frozen for a resume). */
  newRun(watch: WatchRecord, now: Date): NewWatchRun {
    const providers = watch.providers.flatMap((provider) => {
      const adapter = this.dependencies.lineup.get(provider);
      return adapter === undefined ? [] : [{ provider, model: adapter.model }];
    });
    return {
      id: randomUUID(),
      watchId: watch.id,
      status: 'running',
      mode: this.dependencies.mode,
      questions: watch.questions,
      providers,
      samples: watch.samples,
      reason: null,
      createdAt: now.toISOString(),
    };
  }

  /** Runs a run here as a leased job (false when another live process holds it, or this one stops). */
  async work(run: WatchRunRecord): Promise<boolean> {
    if (this.stopping) return false;
    return this.dependencies.jobs.submit(WATCH_RUN_JOB_KIND, run.id);
  }

  isActive(runId: string): boolean {
    return this.active.has(runId);
  }

  private runJob(runId: string, context: JobContext): Promise<JobOutcome> {
    const working = this.execute(runId, context);
    this.active.set(runId, working);
    return working.finally(() => this.active.delete(runId));
  }

  /** Resolves when every run and alert try this process started has ended. */
  async idle(): Promise<void> {
    while (this.active.size > 0 || this.alertsInFlight.size > 0) await Promise.all([...this.active.values(), ...this.alertsInFlight]);
  }

  /**
   * Stops ticking and retrying alerts; alert tries in flight get `graceMs`. Runs are the job runner's: its
   * stop halts them (their answers so far are stored) and gives their leases back for the next start.
   */
  stop(graceMs = 10_000): Promise<void> {
    this.stopped ??= this.halt(graceMs);
    return this.stopped;
  }

  private async halt(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.interval !== undefined) clearInterval(this.interval);
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.alertsInFlight), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
  }

  /** Works one run from what the store holds: asks only the answers it lacks, then finishes it. */
  private async execute(runId: string, context: JobContext): Promise<JobOutcome> {
    const { watchRepository, logger } = this.dependencies;
    const run = await watchRepository.getRun(runId);
    if (run === undefined || run.status !== 'running') return 'done';
    const log = logger.child({ watchId: run.watchId, runId: run.id });
    const { signal: cut, halt } = context;
    const watch = await watchRepository.getWatch(run.watchId);
    if (watch === undefined) return 'done'; // deleted meanwhile: its runs went with it
    const stored = new Set((await watchRepository.listAnswers(run.id)).map((answer) => answerKey(answer.questionIndex, answer.provider, answer.sampleIndex)));
    const total = run.questions.length * run.providers.length * run.samples;
    log.info('watch run working', { answers: total, alreadyStored: stored.size });
    const matcher = brandMatcherFor(watch.brand, watch.website ?? undefined);
    const extractor = this.dependencies.brandExtractor ?? rulesBrandExtractor;
    await Promise.all(
      run.providers.map(async ({ provider: providerId }) => {
        const pending: Array<[number, number]> = [];
        for (let question = 0; question < run.questions.length; question++) {
          for (let sample = 0; sample < run.samples; sample++) if (!stored.has(answerKey(question, providerId, sample))) pending.push([question, sample]);
        }
        const provider = this.dependencies.lineup.get(providerId);
        if (provider === undefined || run.mode !== this.dependencies.mode) {
          // Asking another lineup would mix demo and live answers (or another vendor) into one run.
          for (const [questionIndex, sampleIndex] of pending) {
            await watchRepository.insertAnswer(failedAnswer(run.id, questionIndex, providerId, sampleIndex, 'provider_removed', this.now()));
          }
          return;
        }
        let next = 0;
        const worker = async (): Promise<void> => {
          // A stop (or a lost lease) halts: no new question is asked; the ones in flight finish or are cut.
          while (!halt.aborted && next < pending.length) {
            const [questionIndex, sampleIndex] = pending[next] as [number, number];
            next += 1;
            const question = run.questions[questionIndex] ?? '';
            let answer: WatchAnswerRecord;
            try {
              const reply = await provider.ask({ prompt: question, purpose: WATCH_PURPOSE, signal: cut });
              const brands = await extractor.extract(reply.text, { brand: watch.brand, competitors: [], signal: cut });
              const position = positionInList(brands, matcher);
              answer = {
                runId: run.id,
                questionIndex,
                provider: providerId,
                sampleIndex,
                ok: true,
                model: reply.model,
                answer: reply.text,
                brands,
                named: position !== null || matcher.mentions(reply.text),
                position,
                failureKind: null,
                costMicroUsd: this.dependencies.budget?.prices.costMicroUsd(reply.model, reply.usage) ?? 0,
                answeredAt: this.now().toISOString(),
              };
            } catch (failure) {
              // Cut by a stop (or a lost lease): not stored, so the resume asks it again.
              if (cut.aborted) return;
              answer = failedAnswer(run.id, questionIndex, providerId, sampleIndex, failure instanceof ProviderFailure ? failure.kind : 'unexpected', this.now());
            }
            await watchRepository.insertAnswer(answer);
          }
        };
        await Promise.all(Array.from({ length: Math.min(this.dependencies.concurrencyPerProvider ?? DEFAULT_CONCURRENCY, pending.length) }, worker));
      }),
    );
    if (halt.aborted || cut.aborted) {
      log.info('watch run paused; it resumes from its stored answers');
      return 'paused';
    }
    await this.finish(watch, run, log);
    return 'done';
  }

  private async finish(watch: WatchRecord, run: WatchRunRecord, log: Logger): Promise<void> {
    const { watchRepository } = this.dependencies;
    const answers = await watchRepository.listAnswers(run.id);
    const completedAt = this.now().toISOString();
    const answered = answers.filter((answer) => answer.ok).length;
    if (answered === 0) {
      const budgetOnly = answers.length > 0 && answers.every((answer) => answer.failureKind === 'budget');
      const reason = budgetOnly
        ? 'budget: the monthly provider budget refused every call of this run'
        : `no provider answered (${[...new Set(answers.map((answer) => answer.failureKind ?? 'unknown'))].join(', ')})`;
      await watchRepository.finishRun(run.id, { status: budgetOnly ? 'skipped' : 'failed', reason, pointJson: null, changesJson: '[]', completedAt }, []);
      log.warn('watch run measured nothing', { reason });
      return;
    }
    const point = buildPoint({
      runId: run.id,
      at: run.createdAt,
      mode: run.mode,
      brand: watch.brand,
      category: watch.category,
      website: watch.website,
      providers: run.providers.map((entry) => entry.provider),
      answers,
    });
    const earlier = (await watchRepository.earlierCompleteRuns(watch.id, run.createdAt, BASELINE_MAX_RUNS * 2))
      .filter((entry) => entry.mode === run.mode && entry.pointJson !== null)
      .map((entry) => ({ runId: entry.id, point: JSON.parse(entry.pointJson as string) as StoredPoint, changes: JSON.parse(entry.changesJson ?? '[]') as WatchChange[] }));
    const changes = detectChanges({ runId: run.id, at: run.createdAt, point }, earlier);
    const alerts = changes.length === 0 ? [] : this.alertsFor(watch, run, point, changes, completedAt);
    const finished = await watchRepository.finishRun(
      run.id,
      { status: 'complete', reason: null, pointJson: JSON.stringify(point), changesJson: JSON.stringify(changes), completedAt },
      alerts,
    );
    if (!finished) return;
    log.info('watch run complete', { answers: point.overall.answers, mentionRate: point.overall.mentionRate, changes: changes.length });
    if (alerts.length > 0) await this.dispatchAlerts(this.now());
  }

  private alertsFor(watch: WatchRecord, run: WatchRunRecord, point: StoredPoint, changes: WatchChange[], at: string): Array<Omit<WatchAlertRecord, 'tries' | 'status'>> {
    const alerts: Array<Omit<WatchAlertRecord, 'tries' | 'status'>> = [];
    const base = { watchId: watch.id, runId: run.id, nextTryAt: at, createdAt: at };
    if (watch.alertEmail) {
      const mail = buildAlertMail(this.dependencies.baseUrl, watch, point, changes);
      alerts.push({ ...base, id: randomUUID(), channel: 'email', target: watch.ownerEmail, payload: JSON.stringify(mail) });
    }
    if (watch.webhookUrl !== null) {
      alerts.push({ ...base, id: randomUUID(), channel: 'webhook', target: watch.webhookUrl, payload: JSON.stringify(buildWebhookPayload(this.dependencies.baseUrl, watch, point, changes)) });
    }
    return alerts;
  }

  /** Tries every alert due at `now` once (claimed per try, so two processes never send the same try). */
  async dispatchAlerts(now: Date = this.now()): Promise<void> {
    const { watchRepository } = this.dependencies;
    const due = await watchRepository.dueAlerts(now.toISOString(), 50);
    await Promise.all(
      due.map(async (alert) => {
        if (!(await watchRepository.claimAlertTry(alert.id, alert.tries, new Date(now.getTime() + ALERT_TRY_LEASE_MS).toISOString()))) return;
        const attempt = this.tryAlert(alert, alert.tries + 1);
        this.alertsInFlight.add(attempt);
        try {
          await attempt;
        } finally {
          this.alertsInFlight.delete(attempt);
        }
      }),
    );
  }

  private async tryAlert(alert: WatchAlertRecord, tryNumber: number): Promise<void> {
    const { watchRepository, logger } = this.dependencies;
    const log = logger.child({ watchId: alert.watchId, runId: alert.runId, channel: alert.channel, try: tryNumber });
    let result: { ok: boolean; httpStatus: number | null; error: string | null };
    try {
      if (alert.channel === 'email') {
        if (this.dependencies.mailer === undefined) throw new Error('no mailer is configured');
        await this.dependencies.mailer.send({ to: alert.target, ...(JSON.parse(alert.payload) as { subject: string; text: string; html: string }) });
        result = { ok: true, httpStatus: null, error: null };
      } else {
        const watch = await watchRepository.getWatch(alert.watchId);
        if (watch === undefined) return;
        const headers = {
          'X-Visibility-Event': WEBHOOK_EVENT,
          'X-Visibility-Signature': webhookSignature(watch.webhookSecret, alert.payload),
          'X-Visibility-Delivery': alert.id,
        };
        const posted = await postWebhook(alert.target, alert.payload, headers, { hostMap: this.dependencies.hostMap, lookup: this.dependencies.lookup });
        result = posted.ok ? { ok: true, httpStatus: posted.status, error: null } : { ok: false, httpStatus: posted.status, error: posted.error };
      }
    } catch (error) {
      result = { ok: false, httpStatus: null, error: error instanceof Error ? error.message : String(error) };
    }
    const triedAt = this.now();
    const delay = ALERT_RETRY_DELAYS_MS[tryNumber - 1];
    const next = result.ok
      ? { status: 'delivered' as const, nextTryAt: null }
      : tryNumber >= MAX_ALERT_TRIES || delay === undefined
        ? { status: 'failed' as const, nextTryAt: null }
        : { status: 'pending' as const, nextTryAt: new Date(triedAt.getTime() + delay).toISOString() };
    await watchRepository.recordAlertTry(alert.id, { tryNumber, triedAt: triedAt.toISOString(), ...result }, next);
    if (result.ok) log.info('watch alert delivered', { status: result.httpStatus });
    else log.warn('watch alert try failed', { error: result.error, status: result.httpStatus, next: next.status, nextTryAt: next.nextTryAt });
    if (next.status === 'pending' && delay !== undefined && !this.stopping) {
      // The retry waits in this process; another process (or the next start) picks it up from the store otherwise.
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        const pass = this.dispatchAlerts().catch((error: unknown) => log.error('watch alert retry failed', { error }));
        this.alertsInFlight.add(pass);
        void pass.finally(() => this.alertsInFlight.delete(pass));
      }, delay);
      timer.unref();
      this.timers.add(timer);
    }
  }
}

function answerKey(questionIndex: number, provider: string, sampleIndex: number): string {
  return `${questionIndex}|${provider}|${sampleIndex}`;
}

function failedAnswer(runId: string, questionIndex: number, provider: ProviderId, sampleIndex: number, kind: string, now: Date): WatchAnswerRecord {
  return {
    runId,
    questionIndex,
    provider,
    sampleIndex,
    ok: false,
    model: null,
    answer: null,
    brands: [],
    named: false,
    position: null,
    failureKind: kind,
    costMicroUsd: 0,
    answeredAt: now.toISOString(),
  };
}
