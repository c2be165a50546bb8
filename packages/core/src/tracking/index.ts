export { buildAlertMail, buildWebhookPayload, describeChange, watchPageUrl } from './alert-content.js';
export { invalidField, runNotFound, TrackingError, watchNotFound } from './errors.js';
export {
  createWatch,
  deleteWatch,
  findOwnedWatch,
  getWatchHistory,
  getWatchRun,
  HISTORY_CSV_COLUMNS,
  historyCsv,
  historyOf,
  listWatches,
  parseHistoryBound,
  publicPoint,
  runView,
  runWatchNow,
  startRunNow,
  updateWatch,
  watchView,
} from './operations.js';
export type { CreateWatchOptions, WatchHistory } from './operations.js';
export { buildPoint } from './point.js';
export { nextRunAfter, schedulePeriodMs } from './schedule.js';
export { BASELINE_MAX_RUNS, CHANGE_LEVEL, DETECTION_WINDOW_RUNS, detectChanges, MIN_EFFECT, MIN_RUNS_AFTER_CHANGE, normalCdf, twoProportionTest } from './statistics.js';
export type { EarlierRun } from './statistics.js';
export {
  ALERT_RETRY_DELAYS_MS,
  DEFAULT_TICK_MS,
  MAX_ALERT_TRIES,
  WATCH_PURPOSE,
  WATCH_RUN_JOB_KIND,
  WatchTracker,
} from './tracker.js';
export type { TrackingDependencies } from './tracker.js';
export {
  DEFAULT_WATCH_SAMPLES,
  MAX_WATCH_QUESTIONS,
  MAX_WATCH_SAMPLES,
  MAX_WATCHES_PER_OWNER,
  MIN_WATCH_SAMPLES,
  WATCH_SCHEDULES,
} from './types.js';
export type {
  ChangeKind,
  CompetitorMentions,
  HistoryPoint,
  ProviderPoint,
  StoredPoint,
  Watch,
  WatchAlert,
  WatchChange,
  WatchRun,
  WatchRunStatus,
  WatchRunTrigger,
  WatchSchedule,
} from './types.js';
export { checkWebhookUrl, postWebhook, WEBHOOK_EVENT, webhookSignature } from './webhook.js';
export { parseWatchPatch, parseWatchRequest } from './watch-request.js';
export type { ValidWatchPatch, ValidWatchRequest } from './watch-request.js';
