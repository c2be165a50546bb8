export {
  ConfigError,
  DEFAULT_EXTRACTION_MODELS,
  DEFAULT_MODELS,
  DEFAULT_PROVIDER_CONCURRENCY,
  EXTRACTION_PROVIDER_PREFERENCE,
  LOG_LEVELS,
  loadConfig,
  parseCrawlHostMap,
  parseModelPrices,
  parseTrustProxy,
} from './config.js';
export { ensureSessionSecret } from './session-secret.js';
export type { Config, ExtractionSettings, LogLevelName, ProviderMode, ProviderSettings, TrustProxySetting } from './config.js';
