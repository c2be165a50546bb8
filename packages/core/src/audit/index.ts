// Public surface of the full audit (startVisibilityAudit's measurement engine).

export { computeCategoryBenchmark } from './benchmark.js';
export { generateBuyerQuestions, MAX_BUYER_QUESTIONS, MIN_BUYER_QUESTIONS } from './buyer-questions.js';
export type { BuyerQuestions, BuyerQuestionsInput } from './buyer-questions.js';
export {
  MAX_RANKED_COMPETITORS,
  MAX_WATCHED_COMPETITORS,
  parseCompetitors,
  rankCompetitors,
  tallyCompetitors,
  TOP_COMPETITORS_PER_PROVIDER,
} from './competitors.js';
export type { CompetitorTally } from './competitors.js';
export { buildProviderOutcome, computeOverall, summarizeFinding } from './findings.js';
export type { FindingSummaryInput, OverallResult, ProviderOutcome } from './findings.js';
export { buildNextSteps, OFTEN_MISSED_RATE, RARELY_NAMED_RATE } from './next-steps.js';
export type { NextStepsInput } from './next-steps.js';
export { runAudit } from './run-audit.js';
export { AUDIT_PURPOSE, brandMatcherFor, isDegraded, runAuditSampling } from './sampling.js';
export type { AuditSampling, AuditSamplingOptions, AuditSamplingRequest, ProviderSamples, SampledCall } from './sampling.js';
export {
  confidenceLevel,
  CONFIDENCE_RULES,
  MIN_POSITION_WEIGHT,
  POSITION_WEIGHT_STEP,
  positionWeight,
  RISK_THRESHOLDS,
  riskBand,
  scoreFromMentions,
  wilsonInterval,
  Z_95,
} from './statistics.js';
export { DEFAULT_SAMPLES_PER_QUESTION, MIN_SAMPLES_PER_QUESTION } from './types.js';
export type {
  AuditBudget,
  AuditDependencies,
  AuditInput,
  AuditMode,
  AuditOptions,
  AuditProgress,
  AuditReport,
  AuditStage,
  AuditSummary,
  CategoryBenchmark,
  CompetitorCount,
  Confidence,
  Interval,
  NextStep,
  NextStepPriority,
  ProductFanout,
  ProviderError,
  ProviderFinding,
  QuestionResult,
  RankedCompetitor,
  RiskBand,
  SampleAnswer,
} from './types.js';
export { websiteDomain } from './website-domain.js';
