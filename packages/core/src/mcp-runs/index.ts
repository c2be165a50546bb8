// Public surface of the visibility runs behind the MCP tools (startVisibilityRun, getVisibilityRun).

export { VISIBILITY_RUN_ERROR_CODES, VisibilityRunError } from './errors.js';
export type { VisibilityRunErrorCode } from './errors.js';
export { INTERRUPTED_REASON } from './execute-run.js';
export { getVisibilityRun, recoverVisibilityRuns, registerVisibilityRunJobs, startVisibilityRun } from './operations.js';
export { QUOTA_DAYS, quotaDomain, quotaRenewsAt, quotaWindowStart } from './quota.js';
export { buildVisibilityRunResult } from './report.js';
export { createVisibilityRunTracker, MCP_RUN_JOB_KIND, VisibilityRunTracker } from './tracker.js';
export type { VisibilityRunTrackerOptions } from './tracker.js';
export type {
  GetVisibilityRunOptions,
  StartedVisibilityRun,
  StartVisibilityRunOptions,
  VisibilityBuyerQuestion,
  VisibilityCompetitor,
  VisibilityProviderAnswered,
  VisibilityProviderFailed,
  VisibilityRunDependencies,
  VisibilityRunProgress,
  VisibilityRunResult,
  VisibilityRunStage,
  VisibilityRunStatus,
  VisibilityRunView,
  VisibilityVerdict,
} from './types.js';
