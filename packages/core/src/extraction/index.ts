// Public surface of brand extraction and matching.

export { explainExtraction, extractBrands } from './extract-brands.js';
export type { CandidateDecision, Extraction, ExtractBrandsOptions } from './extract-brands.js';
export { compactBrandKey, createBrandMatcher, normalizeBrandKey, positionInList } from './match-brand.js';
export type { BrandMatch, BrandMatcher, BrandMatcherOptions } from './match-brand.js';
