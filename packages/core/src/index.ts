export {
  ConfigError,
  DEFAULT_EXTRACTION_MODELS,
  DEFAULT_MODELS,
  DEFAULT_PROVIDER_CONCURRENCY,
  ensureSessionSecret,
  loadConfig,
} from './config/index.js';
export type { Config, LogLevelName, ProviderMode, TrustProxySetting } from './config/index.js';
export { createBatchedWrite, createLogger } from './logging/logger.js';
export type { Logger } from './logging/logger.js';
export {
  applyMigrations,
  BudgetRepository,
  currentSchemaVersion,
  MIGRATIONS,
  openStore,
  RateLimitRepository,
  Repository,
  SchemaTooNewError,
} from './store/index.js';
export type {
  BudgetReservationRecord,
  BudgetTotals,
  CounterWindow,
  Migration,
  OpenStoreOptions,
  ProviderCallRecord,
  ProviderCallTotals,
  Store,
} from './store/index.js';
export {
  buildLimitPolicies,
  createRateLimiter,
  IN_MEMORY_LIMITED_OPERATIONS,
  OPERATION_WORDS,
  rateLimitText,
} from './limits/index.js';
export type {
  LimitedOperation,
  LimitPolicies,
  RateLimitAllowed,
  RateLimiter,
  RateLimitRefused,
} from './limits/index.js';
export { createBudget, createPriceTable, estimateInputTokens, withBudget } from './budget/index.js';
export type { Budget, ModelPrice } from './budget/index.js';
export { DEMO_MODEL_PREFIX, resolveLineupSettings } from './lineup.js';
export type { Provider, ProviderId } from './providers/types.js';
export {
  ApiErrorSchema,
  AuditRequestSchema,
  AuditResponseSchema,
  CheckRequestSchema,
  CheckResponseSchema,
  FanoutMapRequestSchema,
  FanoutMapResponseSchema,
  PUBLIC_SCHEMAS,
  RepeatRequestSchema,
  RepeatResponseSchema,
} from './api/schemas.js';
export type { CheckResponse, RepeatResponse } from './api/schemas.js';
export { createProvider, createProviderLineup } from './providers/index.js';
export { compactBrandKey, createBrandMatcher, extractBrands, normalizeBrandKey, positionInList } from './extraction/index.js';
export type { BrandMatch, BrandMatcher, BrandMatcherOptions, ExtractBrandsOptions } from './extraction/index.js';
export {
  EXTRACTION_MODES,
  SECOND_OPINION_MAX_OUTPUT_TOKENS,
  SECOND_OPINION_TIMEOUT_MS,
  createHybridBrandExtractor,
  rulesBrandExtractor,
} from './extraction/index.js';
export type { BrandExtractionRequest, BrandExtractor, ExtractionMode, HybridBrandExtractor } from './extraction/index.js';
export {
  budgetError,
  checkBrandRecognition,
  checkQuestions,
  chooseCheckProvider,
  MeasurementError,
  REPEAT_RUNS,
  runRepeatedBuyerQuestion,
} from './measurements/index.js';
export type { MeasurementProgress } from './measurements/index.js';
export { crawlSite } from './crawl/index.js';
export type { HostLookup } from './crawl/index.js';
export { createMailer, defaultFromAddress } from './mail/index.js';
export type { Mailer, MailMessage } from './mail/index.js';
export { escapeHtml } from './text/escape.js';
export { AccountRepository, AuditRepository } from './store/index.js';
export type { AccountRecord, AuditRecord } from './store/index.js';
export { runAudit } from './audit/index.js';
export type { AuditProgress, AuditReport } from './audit/index.js';
export { parseAuditRequest } from './operations/audit-request.js';
export { parseCheckRequest, parseRepeatRequest } from './operations/measurement-requests.js';
export { buildAuditMail } from './operations/audit-mail.js';
export { CoreError } from './errors.js';
export { RequestValidationError } from './operations/request-error.js';
export { auditMailFacts, startVisibilityAudit, StoreUnavailableError } from './operations/start-visibility-audit.js';
export type { StartAuditDependencies, StartAuditProgress, StoredAudit } from './operations/start-visibility-audit.js';
export { SignInRepository } from './store/index.js';
export type { SignInLinkRecord } from './store/index.js';
export { TokenRepository } from './store/index.js';
export type { AuditTokenKind, AuditTokenRecord, BadgeSubjectRecord } from './store/index.js';
export type { BadgeSubjectReader, TokenBadge } from './audit-tokens/index.js';
export {
  badgeForSubject,
  badgeForToken,
  badgeForTokenAsync,
  badgeStateAt,
  cleanBadgeText,
  formatMeasuredMonth,
  hashAuditToken,
  isAuditTokenKind,
  lastRunOf,
  mintAuditToken,
  RECHECK_AFTER_DAYS,
  listAuditTokens,
  resolveAuditToken,
  revokeAuditToken,
  revokeAuditTokenById,
} from './audit-tokens/index.js';
export { MapRepository } from './store/index.js';
export type { MapCellRecord, MapJobProvider, MapJobRecord, NewMapJob, RerunStart } from './store/index.js';
export {
  auditNotFound,
  buildBuyerQuestionMap,
  BuyerQuestionMapRunner,
  createAsyncBuyerQuestionMapReader,
  createBuyerQuestionMapReader,
  createBuyerQuestionMapRunner,
  DEFAULT_CACHED_MAPS,
  DEFAULT_MAP_CONCURRENCY_PER_PROVIDER,
  DEFAULT_MAP_STOP_GRACE_MS,
  DEFAULT_MAP_WAIT_MS,
  getBuyerQuestionMap,
  MAP_ERROR_CODES,
  MAP_JOB_KIND,
  MAP_PURPOSE,
  MapError,
  resumeBuyerQuestionMaps,
  startBuyerQuestionMap,
  stopBuyerQuestionMaps,
} from './map/index.js';
export type {
  BuyerQuestionMap,
  BuyerQuestionMapCell,
  BuyerQuestionMapDependencies,
  MapAudits,
  BuyerQuestionMapProgress,
  BuyerQuestionMapLookup,
  BuyerQuestionMapProviderSummary,
  BuyerQuestionMapRead,
  BuyerQuestionMapReader,
  AsyncBuyerQuestionMapReader,
  BuyerQuestionMapResponse,
  BuyerQuestionMapRow,
  BuyerQuestionMapRunnerOptions,
  BuyerQuestionMapStatus,
  BuyerQuestionMapSummary,
  CellFailure,
  MapErrorCode,
  Remeasuring,
  StartBuyerQuestionMapOptions,
  StartBuyerQuestionMapRequest,
} from './map/index.js';
export { McpRunRepository, McpSessionRepository, UNFINISHED_MCP_RUN_STATUSES } from './store/index.js';
export type { McpSessionRecord, NewMcpSession } from './store/index.js';
export type { McpRunClaim, McpRunProgress, McpRunRecord, McpRunStatus, NewMcpRun } from './store/index.js';
export {
  buildVisibilityRunResult,
  createVisibilityRunTracker,
  getVisibilityRun,
  INTERRUPTED_REASON,
  QUOTA_DAYS,
  quotaDomain,
  quotaRenewsAt,
  quotaWindowStart,
  MCP_RUN_JOB_KIND,
  recoverVisibilityRuns,
  registerVisibilityRunJobs,
  startVisibilityRun,
  VISIBILITY_RUN_ERROR_CODES,
  VisibilityRunError,
  VisibilityRunTracker,
} from './mcp-runs/index.js';
export type {
  GetVisibilityRunOptions,
  StartedVisibilityRun,
  StartVisibilityRunOptions,
  VisibilityBuyerQuestion,
  VisibilityCompetitor,
  VisibilityProviderAnswered,
  VisibilityProviderFailed,
  VisibilityRunDependencies,
  VisibilityRunErrorCode,
  VisibilityRunProgress,
  VisibilityRunResult,
  VisibilityRunStage,
  VisibilityRunStatus,
  VisibilityRunTrackerOptions,
  VisibilityRunView,
  VisibilityVerdict,
} from './mcp-runs/index.js';
export {
  ALERT_RETRY_DELAYS_MS,
  BASELINE_MAX_RUNS,
  buildPoint,
  CHANGE_LEVEL,
  checkWebhookUrl,
  createWatch,
  DEFAULT_TICK_MS,
  DEFAULT_WATCH_SAMPLES,
  deleteWatch,
  describeChange,
  detectChanges,
  findOwnedWatch,
  getWatchHistory,
  getWatchRun,
  HISTORY_CSV_COLUMNS,
  historyCsv,
  historyOf,
  listWatches,
  MAX_ALERT_TRIES,
  MAX_WATCH_QUESTIONS,
  MAX_WATCH_SAMPLES,
  MAX_WATCHES_PER_OWNER,
  MIN_EFFECT,
  MIN_WATCH_SAMPLES,
  nextRunAfter,
  parseHistoryBound,
  parseWatchPatch,
  parseWatchRequest,
  postWebhook,
  publicPoint,
  runView,
  runWatchNow,
  startRunNow,
  TrackingError,
  twoProportionTest,
  updateWatch,
  WATCH_PURPOSE,
  WATCH_RUN_JOB_KIND,
  WATCH_SCHEDULES,
  watchPageUrl,
  watchView,
  WatchTracker,
  WEBHOOK_EVENT,
  webhookSignature,
} from './tracking/index.js';
export type {
  ChangeKind,
  CreateWatchOptions,
  HistoryPoint,
  ProviderPoint,
  StoredPoint,
  TrackingDependencies,
  Watch,
  WatchChange,
  WatchHistory,
  WatchRun,
  WatchSchedule,
} from './tracking/index.js';
export { WatchRepository } from './store/index.js';
export type { WatchAlertTryRecord, WatchRecord, WatchRunRecord } from './store/index.js';
export { JobRepository } from './store/index.js';
export {
  createJobRunner,
  createMemoryJobStore,
  DEFAULT_JOB_HEARTBEAT_MS,
  DEFAULT_JOB_LEASE_MS,
  DEFAULT_JOB_SCAN_BATCH,
  DEFAULT_JOB_SCAN_MS,
  JobRunner,
  processOwner,
} from './jobs/index.js';
export type { JobContext, JobKindHandler, JobLease, JobOutcome, JobOwner, JobRecord, JobRunnerOptions, JobStatus, JobStore, JobWork } from './jobs/index.js';
export { applyPgMigrations, createPgPool, isStoreUnreachable, PgAccountStore, PgAuditStore, PgBudgetStore, PgJobStore, PgMapStore, PgMcpSessionStore, PgMigrationHistoryError, PgRateLimitStore, PgRunStore, PgSignInStore, PgTokenStore, PgWatchStore, readPgMigrations } from './store/postgres/index.js';
export type { AccountStore, AuditStore, BudgetSettlement, BudgetStore, CompletedMapGeneration, MapReadState, MapStore, RateLimitStore, RunStore } from './store/ports.js';
export type { McpSessionStore, SignInStore, TokenStore, WatchStore } from './store/ports.js';
export type { PgMigration, PgPool } from './store/postgres/index.js';
