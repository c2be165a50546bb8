export {
  ConfigError,
  DEFAULT_MODELS,
  ensureSessionSecret,
  LOG_LEVELS,
  loadConfig,
  parseCrawlHostMap,
  parseTrustProxy,
} from './config/index.js';
export type { Config, LogLevelName, ProviderMode, ProviderSettings, TrustProxySetting } from './config/index.js';
export { createLogger } from './logging/logger.js';
export type { LogFields, Logger, LoggerOptions } from './logging/logger.js';
export { applyMigrations, currentSchemaVersion, MIGRATIONS, openStore, Repository, SchemaTooNewError } from './store/index.js';
export type { Migration, OpenStoreOptions, ProviderCallRecord, ProviderCallTotals, Store } from './store/index.js';
export { DEMO_MODEL_PREFIX, resolveLineupSettings } from './lineup.js';
export type { DemoBaseUrls } from './lineup.js';
export { withCallLog } from './usage/call-log.js';
export { isProviderId, PROVIDER_FAILURE_KINDS, PROVIDER_IDS, ProviderFailure } from './providers/types.js';
export type { Answer, AskRequest, Provider, ProviderFailureKind, ProviderId, TokenUsage } from './providers/types.js';
