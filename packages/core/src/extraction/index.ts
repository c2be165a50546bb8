// Public surface of brand extraction and matching.

export { explainExtraction, extractBrands } from './extract-brands.js';
export type { CandidateDecision, Extraction, ExtractBrandsOptions } from './extract-brands.js';
export { compactBrandKey, createBrandMatcher, normalizeBrandKey, positionInList } from './match-brand.js';
export type { BrandMatch, BrandMatcher, BrandMatcherOptions } from './match-brand.js';
export {
  BrandListSchema,
  EXTRACTION_MODES,
  LruCache,
  SECOND_OPINION_CACHE_SIZE,
  SECOND_OPINION_MAX_OUTPUT_TOKENS,
  SECOND_OPINION_PURPOSE,
  SECOND_OPINION_TIMEOUT_MS,
  brandListResponseFormat,
  createHybridBrandExtractor,
  findVerbatim,
  keepVerbatim,
  mergeOpinions,
  parseBrandList,
  rulesBrandExtractor,
  secondOpinionPrompt,
} from './second-opinion.js';
export type {
  BrandExtractionRequest,
  BrandExtractor,
  ExtractionMode,
  FallbackReason,
  HybridBrandExtractor,
  HybridExtractorOptions,
  SecondOpinionStats,
  VerbatimMatch,
  VerifiedOpinion,
} from './second-opinion.js';
