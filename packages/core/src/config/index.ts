export {
  ConfigError,
  DEFAULT_MODELS,
  LOG_LEVELS,
  loadConfig,
  parseCrawlHostMap,
  parseModelPrices,
  parseTrustProxy,
} from './config.js';
export { ensureSessionSecret } from './session-secret.js';
export type { Config, LogLevelName, ProviderMode, ProviderSettings, TrustProxySetting } from './config.js';
