export { startSimulator } from './server.js';
export { classifyPrompt } from './classify.js';
export type { PromptClassification } from './classify.js';
export { composeAnswer } from './compose.js';
export type { ComposeInput, ComposedAnswer } from './compose.js';
export { WORLD_CATEGORIES } from './world.js';
export type { WorldBrand, WorldCategory, Market } from './world.js';
export { inventCategory } from './invented.js';
export type { InventedCategory, InventedKind } from './invented.js';
export { findBrand, findBrandsMentioned, matchCategory } from './lookup.js';
export type { BrandEntry } from './lookup.js';
export { openaiSnapshot } from './wire/openai.js';
export type {
  WireProvider,
  WireApi,
  PromptKind,
  PromptLanguage,
  SimulatorOptions,
  FaultSpec,
  RecordedRequest,
  RunningSimulator,
} from './types.js';
