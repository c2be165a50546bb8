// The background work of one run: the audit, then its buyer-question map, each on the same core function
// REST calls (startVisibilityAudit, startBuyerQuestionMap). Every state change is written to the store
// first and published second, so a poll never sees progress the store does not back.

import { MapError } from '../map/errors.js';
import { getBuyerQuestionMap, startBuyerQuestionMap } from '../map/operations.js';
import type { ValidAuditRequest } from '../operations/audit-request.js';
import { SiteUnreachableError, startVisibilityAudit, StoreUnavailableError, type StoredAudit } from '../operations/start-visibility-audit.js';
import type { JobOutcome } from '../jobs/runner.js';
import type { McpRunRecord } from '../store/mcp-run-repository.js';
import { auditStageProgress, mapStageProgress, stageProgress } from './progress.js';
import type { VisibilityRunDependencies } from './types.js';

/** How often the map's stored cells are counted while it is measured. */
export const MAP_POLL_MS = 500;

/** The reason a run cut by a stop or a kill carries (the spec of this feature names it). */
export const INTERRUPTED_REASON = 'interrupted by a restart';

/**
 * Runs the audit and the map of a queued run; never throws (a failure is stored on the run). `done` when
 * the run is finished, `paused` when it is left mapping (a stop): any process may then follow its map.
 */
export async function executeVisibilityRun(
  dependencies: VisibilityRunDependencies,
  run: McpRunRecord,
  request: ValidAuditRequest,
  signal: AbortSignal,
): Promise<JobOutcome> {
  try {
    await measureRun(dependencies, run, request, signal);
  } catch (error) {
    // Only the store itself can fail here (the steps catch their own errors); the run stays as stored.
    dependencies.logger.error('visibility run: could not record its state', { runId: run.id, error });
  }
  return outcomeOf(dependencies, run.id);
}

/**
 * A takeover of a run whose process stopped or died: a run still queued or auditing fails as interrupted
 * (an audit cannot resume; a failed run does not hold the domain's quota); a run left mapping follows its
 * map (started here when it never was) to the end.
 */
export async function resumeVisibilityRun(dependencies: VisibilityRunDependencies, runId: string, signal: AbortSignal): Promise<JobOutcome> {
  const { runRepository, logger, tracker } = dependencies;
  const now = (): string => (dependencies.now ?? (() => new Date()))().toISOString();
  const run = await runRepository.getRun(runId);
  if (run === undefined || run.status === 'done' || run.status === 'failed') return 'done';
  const interrupt = async (): Promise<JobOutcome> => {
    if (await runRepository.markFailed(run.id, 'interrupted', INTERRUPTED_REASON, now())) tracker.publish(run.id, stageProgress('failed', 1, 1, INTERRUPTED_REASON));
    return 'done';
  };
  if (run.status !== 'mapping' || run.auditId === undefined) return interrupt();
  try {
    const state = await getBuyerQuestionMap(dependencies, run.auditId);
    if ('status' in state && state.status === 'not_started') await startBuyerQuestionMap(dependencies, { auditId: run.auditId }, { waitMs: 0 });
    await followMap(dependencies, run, run.auditId, signal);
  } catch (error) {
    logger.error('visibility run: could not recover the buyer-question map', { runId: run.id, error });
    return interrupt();
  }
  return outcomeOf(dependencies, run.id);
}

/** `done` once the stored run is finished, else `paused`. */
async function outcomeOf(dependencies: VisibilityRunDependencies, runId: string): Promise<JobOutcome> {
  try {
    const status = (await dependencies.runRepository.getRun(runId))?.status;
    return status === undefined || status === 'done' || status === 'failed' ? 'done' : 'paused';
  } catch {
    return 'paused';
  }
}

async function measureRun(dependencies: VisibilityRunDependencies, run: McpRunRecord, request: ValidAuditRequest, signal: AbortSignal): Promise<void> {
  const { runRepository, tracker } = dependencies;
  const now = (): string => (dependencies.now ?? (() => new Date()))().toISOString();
  const log = dependencies.logger.child({ runId: run.id, domain: run.domain });
  const fail = async (code: string, message: string): Promise<void> => {
    if (await runRepository.markFailed(run.id, code, message, now())) tracker.publish(run.id, stageProgress('failed', 1, 1, message));
  };

  // startVisibilityRun marked the run auditing before this job started; a run failed since is left as it is
  if ((await runRepository.getRun(run.id))?.status !== 'auditing') return;
  let audit: StoredAudit;
  try {
    audit = await startVisibilityAudit({ ...dependencies, logger: log }, request, {
      signal,
      onProgress: (event) => tracker.publish(run.id, auditStageProgress(event)),
      // Spend guard: a site nobody can reach is reported before a single provider call is paid for.
      refuseUnreachableSite: true,
    });
  } catch (error) {
    if (signal.aborted) {
      await fail('interrupted', INTERRUPTED_REASON);
    } else if (error instanceof SiteUnreachableError) {
      await fail(
        error.code,
        `${error.message} No AI provider was asked and nothing was spent. Check the website address and that the site is online, then start the check again; a failed check does not use the domain's free measurement.`,
      );
    } else if (error instanceof StoreUnavailableError) {
      await fail(error.code, `${error.message} Start the check again in a minute; a failed check does not use the domain's free measurement.`);
    } else {
      log.error('visibility run: the audit failed', { error });
      await fail('server_error', "The audit could not be completed. Start the check again; a failed check does not use the domain's free measurement.");
    }
    return;
  }
  if (!audit.audit.measured) {
    // Nothing was measured (no provider answered): the domain keeps its free measurement for a retry.
    await fail('not_measured', `No AI provider answered, so nothing was measured: ${audit.audit.notMeasuredReason ?? 'every call failed'}.`);
    return;
  }
  if (!(await runRepository.markMapping(run.id, audit.id, now()))) return;
  tracker.publish(run.id, stageProgress('map', 0, 1, 'starting the buyer-question map'));
  try {
    await startBuyerQuestionMap({ ...dependencies, logger: log }, { auditId: audit.id }, { waitMs: 0 });
    await followMap(dependencies, run, audit.id, signal);
  } catch (error) {
    if (error instanceof MapError && error.code === 'no_fanout') {
      // No buyer questions: the run is done with the audit's verdict alone (the result says why).
      if (await runRepository.markDone(run.id, audit.id, now())) tracker.publish(run.id, stageProgress('done', 1, 1, 'done'));
      return;
    }
    log.error('visibility run: the buyer-question map failed', { error });
    await fail('server_error', "The buyer-question map could not be measured. Start the check again; a failed check does not use the domain's free measurement.");
  }
}

/**
 * Publishes the map's progress until it is stored, then marks the run done. When the service stops
 * first, the run stays `mapping`: the map job resumes on the next start and a poll then finds it done.
 */
export async function followMap(dependencies: VisibilityRunDependencies, run: McpRunRecord, auditId: string, signal: AbortSignal): Promise<void> {
  const now = (): string => (dependencies.now ?? (() => new Date()))().toISOString();
  // A stopping runner pauses the job; following it further would only hold the shutdown.
  while (!signal.aborted && !dependencies.runner.isStopping) {
    const state = await getBuyerQuestionMap(dependencies, auditId);
    if ('map' in state) {
      if (await dependencies.runRepository.markDone(run.id, auditId, state.map.measuredAt)) {
        dependencies.tracker.publish(run.id, stageProgress('done', 1, 1, 'done'));
      }
      return;
    }
    if (state.status === 'no_fanout') {
      if (await dependencies.runRepository.markDone(run.id, auditId, now())) dependencies.tracker.publish(run.id, stageProgress('done', 1, 1, 'done'));
      return;
    }
    if (state.generation !== undefined && dependencies.runner.hasStalled(auditId, state.generation) && !dependencies.runner.isActive(auditId, state.generation)) {
      // The job ended here without its map: the store kept refusing its writes (the runner already retried
      // them). Read once more, in case it completed between the two reads; otherwise the run fails clearly.
      // (A job another process works on, or one waiting for a takeover, is simply followed.)
      const again = await getBuyerQuestionMap(dependencies, auditId);
      if ('map' in again) continue;
      if (await dependencies.runRepository.markFailed(run.id, 'store_unavailable', MAP_NOT_SAVED, now())) {
        dependencies.tracker.publish(run.id, stageProgress('failed', 1, 1, MAP_NOT_SAVED));
      }
      return;
    }
    if (state.progress !== undefined) dependencies.tracker.publish(run.id, mapStageProgress(state.progress));
    await pause(MAP_POLL_MS, signal);
  }
}

const MAP_NOT_SAVED =
  "The buyer-question map could not be saved: the store refused its answers. Start the check again in a minute; a failed check does not use the domain's free measurement.";

/** Waits, or stops waiting at once when the signal aborts. */
function pause(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, milliseconds);
    signal?.addEventListener('abort', done, { once: true });
  });
}
