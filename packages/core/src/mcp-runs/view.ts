// How a stored run reads to a poll. A run in `mapping` is settled here when its map has been stored
// meanwhile (by this process, or by the map's resume after a restart), so no watcher has to survive.
// Progress: this process's own when it works on the run, else the stored one (written, throttled, by
// the process that does), so every instance shows the same progress.

import type { AuditMode } from '../audit/types.js';
import { getBuyerQuestionMap } from '../map/operations.js';
import type { BuyerQuestionMap } from '../map/types.js';
import type { StoredAudit } from '../operations/start-visibility-audit.js';
import type { McpRunRecord } from '../store/mcp-run-repository.js';
import { mapStageProgress, stageProgress } from './progress.js';
import { quotaRenewsAt } from './quota.js';
import { buildVisibilityRunResult } from './report.js';
import type { VisibilityRunDependencies, VisibilityRunProgress, VisibilityRunStage, VisibilityRunView } from './types.js';

/** The run as it stands now, settling a `mapping` run whose map is stored. */
export async function readVisibilityRun(dependencies: VisibilityRunDependencies, stored: McpRunRecord): Promise<VisibilityRunView> {
  let run = stored;
  let map: BuyerQuestionMap | undefined;
  let progress: VisibilityRunProgress | undefined;
  if ((run.status === 'mapping' || run.status === 'done') && run.auditId !== undefined) {
    const state = await getBuyerQuestionMap(dependencies, run.auditId);
    if ('map' in state) map = state.map;
    if (run.status === 'mapping') {
      const finishedAt = map?.measuredAt ?? ('status' in state && state.status === 'no_fanout' ? now(dependencies) : undefined);
      if (finishedAt !== undefined) {
        await dependencies.runRepository.markDone(run.id, run.auditId, finishedAt);
        run = (await dependencies.runRepository.getRun(run.id)) ?? run;
      } else if ('progress' in state && state.progress !== undefined) {
        // The map's stored cells are as fresh as the store gets; the run's stored progress may trail them.
        progress = dependencies.tracker.latest(run.id) ?? furthest(mapStageProgress(state.progress), storedProgress(run));
      }
    }
  }
  if (run.status === 'queued' || run.status === 'auditing' || (run.status === 'mapping' && progress === undefined)) {
    const stored = storedProgress(run);
    // (a mapping run whose stored progress is still the audit's, its map-stage write not landed, shows the map's start)
    progress = dependencies.tracker.latest(run.id) ?? (stored === undefined ? defaultProgress(run) : furthest(stored, defaultProgress(run)));
  }
  return {
    runId: run.id,
    status: run.status,
    domain: run.domain,
    brand: run.brand,
    website: run.website,
    category: run.category,
    mode: run.mode as AuditMode,
    createdAt: run.createdAt,
    ...(run.finishedAt === undefined ? {} : { finishedAt: run.finishedAt }),
    quotaRenewsAt: quotaRenewsAt(run.createdAt),
    ...(run.auditId === undefined ? {} : { auditId: run.auditId }),
    ...(progress === undefined ? {} : { progress }),
    ...(run.status === 'failed' ? { error: { code: run.errorCode ?? 'server_error', message: run.error ?? 'The check failed.' } } : {}),
    ...(run.status === 'done' ? await resultOf(dependencies, run, map) : {}),
  };
}

/** Whether a run can still change. */
export function isFinished(view: Pick<VisibilityRunView, 'status'>): boolean {
  return view.status === 'done' || view.status === 'failed';
}

async function resultOf(dependencies: VisibilityRunDependencies, run: McpRunRecord, map: BuyerQuestionMap | undefined): Promise<Pick<VisibilityRunView, 'result'>> {
  const audit = run.auditId === undefined ? undefined : await dependencies.auditRepository.getAudit(run.auditId);
  if (audit === undefined) return {};
  return { result: buildVisibilityRunResult(audit.response as unknown as StoredAudit, map) };
}

const STAGES: ReadonlySet<string> = new Set<VisibilityRunStage>(['queued', 'crawl', 'questions', 'answers', 'findings', 'map', 'done', 'failed']);

/** The progress the run's process stored, when it is one this build knows how to show. */
function storedProgress(run: McpRunRecord): VisibilityRunProgress | undefined {
  const stored = run.progress;
  if (stored === undefined || !STAGES.has(stored.stage)) return undefined;
  return { ...stored, stage: stored.stage as VisibilityRunStage };
}

/** The candidate furthest along (the first of equals). */
function furthest(first: VisibilityRunProgress, other: VisibilityRunProgress | undefined): VisibilityRunProgress {
  return other !== undefined && other.percent > first.percent ? other : first;
}

/** What a run shows before its process stored any progress. */
function defaultProgress(run: McpRunRecord): VisibilityRunProgress {
  if (run.status === 'queued') return stageProgress('queued', 0, 1, 'waiting to start');
  if (run.status === 'mapping') return stageProgress('map', 0, 1, 'measuring the buyer-question map');
  return stageProgress('crawl', 0, 1, 'crawling the site and asking the buyer questions');
}

function now(dependencies: VisibilityRunDependencies): string {
  return (dependencies.now ?? (() => new Date()))().toISOString();
}
