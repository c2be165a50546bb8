export {
  ConfigError,
  DEFAULT_MODELS,
  DEFAULT_PROVIDER_CONCURRENCY,
  LOG_LEVELS,
  loadConfig,
  parseCrawlHostMap,
  parseModelPrices,
  parseTrustProxy,
} from './config.js';
export { ensureSessionSecret } from './session-secret.js';
export type { Config, LogLevelName, ProviderMode, ProviderSettings, TrustProxySetting } from './config.js';
