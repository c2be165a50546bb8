// Public surface of the buyer-question map (startBuyerQuestionMap, getBuyerQuestionMap and their jobs).

export { MAP_PURPOSE } from './cell.js';
export { auditNotFound, MAP_ERROR_CODES, MapError } from './errors.js';
export type { MapErrorCode } from './errors.js';
export { buildBuyerQuestionMap, MAP_TOP_COMPETITORS } from './grid.js';
export {
  createAsyncBuyerQuestionMapReader,
  createBuyerQuestionMapReader,
  DEFAULT_CACHED_MAPS,
  DEFAULT_MAP_WAIT_MS,
  getBuyerQuestionMap,
  resumeBuyerQuestionMaps,
  startBuyerQuestionMap,
  stopBuyerQuestionMaps,
} from './operations.js';
export {
  BuyerQuestionMapRunner,
  createBuyerQuestionMapRunner,
  DEFAULT_MAP_CONCURRENCY_PER_PROVIDER,
  DEFAULT_MAP_STOP_GRACE_MS,
  MAP_JOB_KIND,
} from './runner.js';
export type { BuyerQuestionMapRunnerOptions } from './runner.js';
export type { BuyerQuestionMapLookup, BuyerQuestionMapRead, BuyerQuestionMapReader, AsyncBuyerQuestionMapReader } from './operations.js';
export type {
  BuyerQuestionMap,
  BuyerQuestionMapCell,
  BuyerQuestionMapDependencies,
  BuyerQuestionMapProgress,
  BuyerQuestionMapProviderSummary,
  BuyerQuestionMapResponse,
  BuyerQuestionMapRow,
  BuyerQuestionMapStatus,
  BuyerQuestionMapSummary,
  CellFailure,
  MapAudits,
  Remeasuring,
  StartBuyerQuestionMapOptions,
  StartBuyerQuestionMapRequest,
} from './types.js';
