export { applyMigrations, currentSchemaVersion, MIGRATIONS, SchemaTooNewError } from './migrations.js';
export type { Migration } from './migrations.js';
export { AccountRepository } from './account-repository.js';
export type { AccountRecord } from './account-repository.js';
export { AuditRepository } from './audit-repository.js';
export type { AuditRecord } from './audit-repository.js';
export { BudgetRepository } from './budget-repository.js';
export { MapRepository } from './map-repository.js';
export { SqliteMapStore } from './sqlite-map-store.js';
export type { MapCellRecord, MapJobProvider, MapJobRecord, NewMapJob, RerunStart } from './map-repository.js';
export type { BudgetReservationRecord, BudgetTotals } from './budget-repository.js';
export { RateLimitRepository } from './rate-limit-repository.js';
export type { CounterWindow } from './rate-limit-repository.js';
export { Repository } from './repository.js';
export { SignInRepository } from './sign-in-repository.js';
export type { SignInLinkRecord } from './sign-in-repository.js';
export type { ProviderCallRecord, ProviderCallTotals } from './repository.js';
export { TokenRepository } from './token-repository.js';
export type { AuditTokenKind, AuditTokenRecord, BadgeSubjectRecord } from './token-repository.js';
export { JobRepository } from './job-repository.js';
export { McpRunRepository, UNFINISHED_MCP_RUN_STATUSES } from './mcp-run-repository.js';
export type { McpRunClaim, McpRunProgress, McpRunRecord, McpRunStatus, NewMcpRun } from './mcp-run-repository.js';
export { McpSessionRepository } from './mcp-session-repository.js';
export type { McpSessionRecord, NewMcpSession } from './mcp-session-repository.js';
export { openStore } from './store.js';
export type { OpenStoreOptions, Store } from './store.js';
export { WatchRepository } from './watch-repository.js';
export type {
  ManualRunStart,
  NewWatchRun,
  RunProviderRecord,
  WatchAlertRecord,
  WatchAlertTryRecord,
  WatchAnswerRecord,
  WatchPatch,
  WatchRecord,
  WatchRunRecord,
} from './watch-repository.js';
