// startVisibilityRun and getVisibilityRun: the two MCP tools' core. Which run holds a domain's quota is
// decided in SQLite (one IMMEDIATE transaction), never in memory, so concurrent starts create one run.

import { OPERATION_WORDS, rateLimitText, retryAfterSeconds } from '../limits/refusal-text.js';
import { randomUUID } from 'node:crypto';
import { getBuyerQuestionMap, startBuyerQuestionMap } from '../map/operations.js';
import type { ValidAuditRequest } from '../operations/audit-request.js';
import type { McpRunClaim, McpRunRecord } from '../store/mcp-run-repository.js';
import type { RunStore } from '../store/ports.js';
import { domainQuotaUsed, runNotFound, VisibilityRunError } from './errors.js';
import { UNFINISHED_MCP_RUN_STATUSES } from '../store/mcp-run-repository.js';
import { executeVisibilityRun, INTERRUPTED_REASON, MAP_POLL_MS, resumeVisibilityRun } from './execute-run.js';
import { MCP_RUN_JOB_KIND } from './tracker.js';
import { quotaDomain, quotaRenewsAt, quotaWindowStart } from './quota.js';
import { isFinished, readVisibilityRun } from './view.js';
import type {
  GetVisibilityRunOptions,
  StartedVisibilityRun,
  StartVisibilityRunOptions,
  VisibilityRunDependencies,
  VisibilityRunProgress,
  VisibilityRunView,
} from './types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

/**
 * startVisibilityRun: the domain's run of the last 30 days when there is one (nothing new is measured
 * or counted), else a new run that takes one startVisibilityAudit slot of the caller and measures in the
 * background. Answers at once; the run's state is then read with getVisibilityRun.
 */
export async function startVisibilityRun(
  dependencies: VisibilityRunDependencies,
  request: ValidAuditRequest,
  options: StartVisibilityRunOptions,
): Promise<StartedVisibilityRun> {
  const { runRepository, rateLimiter, tracker } = dependencies;
  const now = (dependencies.now ?? (() => new Date()))();
  const domain = quotaDomain(request.website);
  const windowStart = quotaWindowStart(now).toISOString();
  const holder = await runRepository.findQuotaRun(domain, dependencies.mode, windowStart);
  if (holder !== undefined) return reuse(dependencies, holder, request);
  if (tracker.isStopping) {
    throw new VisibilityRunError('service_stopping', 'The service is restarting and takes no new checks right now.', 'Start the check again in 30 seconds.', 30);
  }
  const decision = await rateLimiter.consume('startVisibilityAudit', options.callerKey);
  if (!decision.allowed) {
    // The same counter and the same words as REST and the site: one limit per caller, whatever the door.
    const { error, hint } = rateLimitText(decision, OPERATION_WORDS['startVisibilityAudit'] ?? 'audits');
    throw new VisibilityRunError('rate_limited', error, hint, retryAfterSeconds(decision));
  }
  const { email: _email, ...requestWithoutEmail } = request;
  const runId = randomUUID();
  // The run's lease is held before its row exists: no other process can take over a run being created.
  if (!(await tracker.reserve(runId))) {
    throw new VisibilityRunError('service_stopping', 'The service is restarting and takes no new checks right now.', 'Start the check again in 30 seconds.', 30);
  }
  let claim: McpRunClaim;
  try {
    claim = await runRepository.claimRun(
    {
      id: runId,
      domain,
      mode: dependencies.mode,
      brand: request.brand,
      website: request.website,
      category: request.category,
      request: requestWithoutEmail as unknown as Record<string, unknown>,
      createdAt: now.toISOString(),
    },
    windowStart,
    );
  } catch (error) {
    await tracker.settle(runId).catch(() => undefined);
    throw error;
  }
  // Another start for the domain won the race between the lookup and the claim: that run is the answer.
  if (claim.outcome === 'existing') {
    await tracker.settle(runId);
    return reuse(dependencies, claim.run, request);
  }
  const rateLimit = { remaining: decision.remaining, resetAt: decision.resetAt.toISOString() };
  // The run is auditing before its caller hears of it, whichever store answers: read back before the
  // job's own first write had landed, a run on PostgreSQL could still say queued.
  try {
    await runRepository.markAuditing(claim.run.id, now.toISOString());
  } catch (error) {
    // left queued without a lease: the takeover scan fails it as interrupted
    await tracker.settle(claim.run.id).catch(() => undefined);
    throw error;
  }
  if (!(await tracker.run(claim.run.id, (signal) => executeVisibilityRun(dependencies, claim.run, request, signal)))) {
    await runRepository.markFailed(claim.run.id, 'interrupted', INTERRUPTED_REASON, now.toISOString());
    await tracker.settle(claim.run.id).catch(() => undefined);
  }
  return { run: await readVisibilityRun(dependencies, (await runRepository.getRun(claim.run.id)) ?? claim.run), reusedExistingRun: false, rateLimit };
}

/**
 * The domain's earlier run answers a start for the same brand and category (spelled alike, case and
 * spaces aside); for another brand or category the start is refused, never silently swapped.
 */
async function reuse(dependencies: VisibilityRunDependencies, holder: McpRunRecord, request: ValidAuditRequest): Promise<StartedVisibilityRun> {
  if (!sameWords(holder.brand, request.brand) || !sameWords(holder.category, request.category)) {
    throw domainQuotaUsed({
      runId: holder.id,
      domain: holder.domain,
      brand: holder.brand,
      category: holder.category,
      measuredAt: holder.finishedAt ?? holder.createdAt,
      quotaRenewsAt: quotaRenewsAt(holder.createdAt),
    });
  }
  return { run: await readVisibilityRun(dependencies, holder), reusedExistingRun: true };
}

function sameWords(left: string, right: string): boolean {
  const words = (text: string): string => text.normalize('NFKC').toLocaleLowerCase('en').replace(/\s+/gu, ' ').trim();
  return words(left) === words(right);
}

/**
 * getVisibilityRun: the run's state; with `waitMs`, waits up to that long for it to finish, reporting
 * its progress as it moves. Never calls a provider.
 */
export async function getVisibilityRun(
  dependencies: VisibilityRunDependencies,
  runId: string,
  options: GetVisibilityRunOptions = {},
): Promise<VisibilityRunView> {
  const read = async (): Promise<VisibilityRunView> => {
    const stored = UUID.test(runId) ? await dependencies.runRepository.getRun(runId.toLowerCase()) : undefined;
    if (stored === undefined) throw runNotFound();
    return readVisibilityRun(dependencies, stored);
  };
  let view = await read();
  const waitMs = options.waitMs ?? 0;
  if (waitMs <= 0 || isFinished(view)) return view;

  const deadline = Date.now() + waitMs;
  const stopWaiting = new AbortController();
  const relay = (): void => stopWaiting.abort();
  options.signal?.addEventListener('abort', relay, { once: true });
  // Progress published by this process wakes the wait at once; the store is read again at least every
  // MAP_POLL_MS, which covers a run another process works on (that process stores its progress, at most
  // about once a second and on every stage change) and a map resumed by the service's map jobs.
  let lastPercent = -1;
  const report = (progress: VisibilityRunProgress | undefined): void => {
    if (progress === undefined || progress.percent <= lastPercent) return;
    lastPercent = progress.percent;
    options.onProgress?.(progress);
  };
  let wake: (() => void) | undefined;
  const unsubscribe = dependencies.tracker.subscribe(view.runId, (progress) => {
    report(progress);
    wake?.();
  });
  try {
    report(view.progress);
    while (!isFinished(view) && !stopWaiting.signal.aborted) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const finish = (): void => {
          clearTimeout(timer);
          stopWaiting.signal.removeEventListener('abort', finish);
          wake = undefined;
          resolve();
        };
        const timer = setTimeout(finish, Math.min(MAP_POLL_MS, left));
        stopWaiting.signal.addEventListener('abort', finish, { once: true });
        wake = finish;
      });
      view = await read();
      report(view.progress);
    }
    return view;
  } finally {
    unsubscribe();
    options.signal?.removeEventListener('abort', relay);
  }
}

/**
 * Registers the MCP runs with the job runner, so runs other processes left (their owner died, or gave
 * the run back on a stop) are taken over: see resumeVisibilityRun. Every unfinished run without a lease
 * (written by an older version) is an orphan the next scan gives one.
 */
export function registerVisibilityRunJobs(dependencies: VisibilityRunDependencies): void {
  const { tracker, runRepository } = dependencies;
  dependencies.runner.register(dependencies);
  tracker.jobs.register(MCP_RUN_JOB_KIND, {
    run: (runId, context) => resumeVisibilityRun(dependencies, runId, context.signal),
    orphans: async () => (await unfinishedRuns(runRepository)).map((run) => run.id),
  });
}

/**
 * Takes over every unfinished run whose lease is free (its process stopped or died; never a run another
 * live process works on): runs left queued or auditing are failed ("interrupted by a restart"; their audit
 * cannot resume and a failed run does not hold the quota); runs left mapping follow their map, which is
 * started when it never was. The job runner's scans do the same in the background once it is started.
 */
export async function recoverVisibilityRuns(dependencies: VisibilityRunDependencies): Promise<{ failed: number; mapsStarted: number }> {
  const { runRepository, logger, tracker } = dependencies;
  registerVisibilityRunJobs(dependencies);
  const now = (dependencies.now ?? (() => new Date()))().toISOString();
  let failed = 0;
  let mapsStarted = 0;
  for (const run of await unfinishedRuns(runRepository)) {
    if (tracker.jobs.isActive(MCP_RUN_JOB_KIND, run.id) || !(await tracker.reserve(run.id))) continue;
    if (run.status !== 'mapping' || run.auditId === undefined) {
      if (await runRepository.markFailed(run.id, 'interrupted', INTERRUPTED_REASON, now)) failed += 1;
      await tracker.settle(run.id);
      continue;
    }
    const auditId = run.auditId;
    try {
      const state = await getBuyerQuestionMap(dependencies, auditId);
      if ('status' in state && state.status === 'not_started') {
        await startBuyerQuestionMap(dependencies, { auditId }, { waitMs: 0 });
        mapsStarted += 1;
      }
    } catch (error) {
      logger.error('visibility run: could not recover the buyer-question map', { runId: run.id, error });
      await runRepository.markFailed(run.id, 'interrupted', INTERRUPTED_REASON, now);
      await tracker.settle(run.id);
      continue;
    }
    await tracker.run(run.id, (signal) => resumeVisibilityRun(dependencies, run.id, signal));
  }
  if (failed > 0 || mapsStarted > 0) logger.info('visibility runs recovered', { failed, mapsStarted });
  return { failed, mapsStarted };
}

/** Every run still queued, auditing or mapping. */
async function unfinishedRuns(runRepository: RunStore): Promise<McpRunRecord[]> {
  return (await Promise.all(UNFINISHED_MCP_RUN_STATUSES.map((status) => runRepository.runsWithStatus(status)))).flat();
}
