// The shapes the full audit (startVisibilityAudit) produces, in the spec's words. The REST layer adds
// `id`, `createdAt`, `rateLimit` and fills `categoryBenchmark`; everything else comes from runAudit.

import type { Budget } from '../budget/budget.js';
import type { CrawlReport } from '../crawl/crawl-report.js';
import type { MeasurementDependencies } from '../measurements/types.js';
import type { PromptLanguage } from '../measurements/prompts.js';
import type { ProviderFailureKind, ProviderId } from '../providers/types.js';

/** Which lineup measured the audit: the real providers, or the simulator with `demo-` model ids. */
export type AuditMode = 'live' | 'demo';

/** What the audit asks of the monthly budget: whether money is left for a full audit, and a degraded audit's allowance. */
export type AuditBudget = Pick<Budget, 'hasBudgetLeft' | 'status' | 'reserveAllowance' | 'settle' | 'prices'>;

/** What the audit runs against: the quick measurements' providers and budget, plus which lineup they are. */
export interface AuditDependencies extends MeasurementDependencies {
  mode: AuditMode;
  /** Without one (tests, a budget-less composition) nothing is reserved ahead and nothing degrades the audit but the caller. */
  budget?: AuditBudget | undefined;
}

/** A closed interval [low, high]. */
export type Interval = [low: number, high: number];

/** The audit's stages, in order, as a progress display shows them. */
export type AuditStage = 'questions' | 'answers' | 'findings';

/** One step of an audit done, for the CLI's and the MCP tool's live progress. */
export interface AuditProgress {
  stage: AuditStage;
  completed: number;
  total: number;
  /** What just finished, e.g. "openai: question 3, sample 2: ok". */
  label: string;
  /** The provider that answered, during the `answers` stage. */
  provider?: ProviderId | undefined;
}

export interface AuditOptions {
  /** Cancels every call still in flight; the audit then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  onProgress?: ((event: AuditProgress) => void) | undefined;
  /** Forces degraded mode (one sample per question) even when the budget has money left. */
  degraded?: boolean | undefined;
  /** Samples per question when not degraded: at least 3, default {@link DEFAULT_SAMPLES_PER_QUESTION}. */
  samplesPerQuestion?: number | undefined;
  /**
   * Called once right before the first provider call (after the questions are generated); if it throws,
   * the audit rejects with that error and no provider is called. Not called when nothing will be asked.
   */
  beforeSpend?: (() => unknown) | undefined;
}

/** How many times each question is asked to each provider when the budget allows. */
export const DEFAULT_SAMPLES_PER_QUESTION = 3;
/** Fewer samples cannot show how an answer varies from one run to the next. */
export const MIN_SAMPLES_PER_QUESTION = 3;

/** The audit's input once the REST layer has validated it; the crawl is the crawler's report, if it ran. */
export interface AuditInput {
  brand: string;
  website: string;
  category: string;
  /** The comma-separated watch list, as the request gives it. */
  competitors?: string | undefined;
  location?: string | undefined;
  promptLanguage?: PromptLanguage | undefined;
  crawl: CrawlReport | undefined;
}

/** One sampled answer, reduced to what the findings need. */
export interface SampleAnswer {
  ok: boolean;
  /** Whether the answer named the brand (false for a failed sample). */
  named: boolean;
  /** 1-based rank of the brand among the brands the answer names; null when not named or failed. */
  position: number | null;
  /** Brands named, in order of first mention (empty for a failed sample). */
  brands: string[];
}

/** How one buyer question went with one provider. */
export interface QuestionResult {
  question: string;
  /** Samples asked / answered. */
  samples: number;
  successfulSamples: number;
  /** Answers that named the brand. */
  namedIn: number;
  /** True when at least one answer named the brand. */
  named: boolean;
  /** Mean position over the answers that named the brand; null when none did. */
  averagePosition: number | null;
  answers: SampleAnswer[];
}

/** A brand named in the answers other than the audited one. */
export interface CompetitorCount {
  name: string;
  /** Answers that named it while not naming the brand. */
  namedInstead: number;
  /** Answers that named it at all. */
  mentions: number;
}

/** What one provider that answered said about the brand. Extends the spec's ProviderFinding. */
export interface ProviderFinding {
  provider: ProviderId;
  /** The exact model id that answered (the first successful answer's). */
  model: string;
  /** 0..100, see docs/methodology.md ("Provider score"). */
  score: number;
  scoreInterval: Interval;
  summary: string;
  /** Share of successful samples naming the brand, 0..1. */
  mentionRate: number;
  /** 95% Wilson score interval of the mention rate. */
  mentionRateInterval: Interval;
  samples: number;
  successfulSamples: number;
  failedSamples: number;
  /** Mean 1-based position over the answers naming the brand; null when never named. */
  averagePosition: number | null;
  /** Brand mentions / (brand + competitor mentions); null when no answer named any brand. */
  shareOfVoice: number | null;
  topCompetitors: CompetitorCount[];
  questions: QuestionResult[];
}

/** A provider that was asked but never answered: "not measured", never "not mentioned". */
export interface ProviderError {
  provider: ProviderId;
  model: string;
  /** A short human reason (vendor messages stay in the logs). */
  reason: string;
  kind: ProviderFailureKind | 'unexpected';
  failedSamples: number;
}

/** A competitor in the audit's ranking: the watch list plus the brands discovered in the answers. */
export interface RankedCompetitor extends CompetitorCount {
  /** 1-based rank by how often it was named instead of the brand. */
  rank: number;
  /** True when it came from the request's `competitors` list. */
  watched: boolean;
  /** Its mentions ÷ all brand mentions (brand + every competitor), across providers; null when no brand was named. Absent in audits stored before it existed. */
  shareOfVoice?: number | null;
  byProvider: Partial<Record<ProviderId, { namedInstead: number; mentions: number }>>;
}

export type RiskBand = 'low' | 'medium' | 'high' | 'critical' | 'unknown';
export type Confidence = 'high' | 'medium' | 'low';

/** The headline of the snapshot. Extends the spec's AuditSummary (score, risk, brand, website, category). */
export interface AuditSummary {
  /** 0..100; 0 with `measured: false` when nothing was measured (then `risk` is "unknown"). */
  score: number;
  risk: RiskBand;
  brand: string;
  website: string;
  category: string;
  /** False when no provider answered any question (or none could be asked): not a score of 0. */
  measured: boolean;
  /** Why nothing was measured; present only when `measured` is false. */
  notMeasuredReason?: string;
  /** 95% interval of the score; null when not measured. */
  scoreInterval: Interval | null;
  /** Share of all successful samples naming the brand; null when not measured. */
  mentionRate: number | null;
  mentionRateInterval: Interval | null;
  /** The brand's mentions ÷ all brand mentions (brand + every competitor) across providers; null when not measured or no brand was named. Absent in audits stored before it existed. */
  shareOfVoice?: number | null;
  confidence: Confidence;
  degraded: boolean;
  /** Samples per question actually used (1 when degraded). */
  samplesPerQuestion: number;
  questions: number;
  successfulSamples: number;
  providersAsked: ProviderId[];
  providersAnswered: ProviderId[];
}

export type NextStepPriority = 'high' | 'medium' | 'low';

/** One concrete action, from the crawl and the answers. */
export interface NextStep {
  /** Stable identifier of the kind of action ("unblock-assistant-search-crawlers"). */
  id: string;
  priority: NextStepPriority;
  title: string;
  why: string;
  how: string;
}

export interface ProductFanout {
  questions: string[];
  language: PromptLanguage;
}

export interface CategoryBenchmark {
  /** How many other audits in the category were counted. */
  audits: number;
  averageScore: number;
  medianScore: number;
}

/** Everything of the spec's AuditResponse except `id`, `createdAt` and `rateLimit`, which the REST layer adds. */
export interface AuditReport {
  mode: AuditMode;
  measurementLocale: PromptLanguage;
  categoryLocalized: string;
  audit: AuditSummary;
  providerFindings: ProviderFinding[];
  providerErrors: ProviderError[];
  personalizedNextSteps: NextStep[];
  productFanout: ProductFanout | null;
  /** Present only when there are no buyer questions. */
  fanoutMissingReason?: string;
  /** Filled by the REST layer with {@link CategoryBenchmark} from the stored audits; null here. */
  categoryBenchmark: CategoryBenchmark | null;
  competitors: RankedCompetitor[];
  degraded: boolean;
}
