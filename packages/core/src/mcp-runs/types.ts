// A visibility run: one measurement started through the MCP tools. It is the audit (startVisibilityAudit)
// followed by the audit's buyer-question map (startBuyerQuestionMap), run in the background on the same
// core functions REST calls, with its state in SQLite (mcp_runs) so a poll finds it from any session.

import type { AuditMode, Confidence, Interval, RiskBand } from '../audit/types.js';
import type { RateLimiter } from '../limits/index.js';
import type { BuyerQuestionMapDependencies, MapAudits } from '../map/types.js';
import type { StartAuditDependencies } from '../operations/start-visibility-audit.js';
import type { ProviderId } from '../providers/types.js';
import type { McpRunStatus } from '../store/mcp-run-repository.js';
import type { RunStore } from '../store/ports.js';
import type { VisibilityRunTracker } from './tracker.js';

/** `queued` -> `auditing` -> `mapping` -> `done`; any unfinished state may end in `failed`. */
export type VisibilityRunStatus = McpRunStatus;

/** The step a running measurement is at, in the order they happen. */
export type VisibilityRunStage = 'queued' | 'crawl' | 'questions' | 'answers' | 'findings' | 'map' | 'done' | 'failed';

/** How far a run is: the current stage's own count and the whole run's share done. */
export interface VisibilityRunProgress {
  stage: VisibilityRunStage;
  /** Steps of this stage done (answers received, map cells stored, ...). */
  completed: number;
  total: number;
  /** The whole run, 0 to 100; never goes down while the run lives. */
  percent: number;
  /** One line a person can read: "answers 12/45", "buyer-question map 10/24". */
  message: string;
}

/** The headline of a finished run, from the audit's measured answers. */
export interface VisibilityVerdict {
  risk: RiskBand;
  /** 0 to 100; null when nothing was measured (that is not a score of 0). */
  score: number | null;
  /** 95% interval of the score; null when nothing was measured. */
  scoreInterval: Interval | null;
  measured: boolean;
  confidence: Confidence;
  /** True when the monthly budget forced one sample per question. */
  degraded: boolean;
  /** Present only when nothing was measured. */
  notMeasuredReason?: string;
}

/** One buyer question of the map and who named the brand in answer to it. */
export interface VisibilityBuyerQuestion {
  question: string;
  /** At least one provider that answered named the brand. */
  won: boolean;
  namedBy: ProviderId[];
  /** Providers whose call for this question failed (not measured, never "not named"). */
  failedProviders: ProviderId[];
}

/** A provider that answered at least one question of the run. */
export interface VisibilityProviderAnswered {
  provider: ProviderId;
  /** The exact model id that answered (a `demo-` id on the demo lineup). */
  model: string;
  /** Buyer questions of the map it answered / named the brand in / failed on. */
  questionsAnswered: number;
  questionsWon: number;
  questionsFailed: number;
}

/** A provider that was asked and answered nothing. */
export interface VisibilityProviderFailed {
  provider: ProviderId;
  /** A short human reason (vendor messages stay in the logs). */
  reason: string;
}

/** A competitor the answers named instead of the brand. */
export interface VisibilityCompetitor {
  name: string;
  /** Answers that named it and not the brand. */
  namedInstead: number;
  /** Answers that named it at all. */
  mentions: number;
}

/** What a finished run measured. Every number comes from answers as measured, never from what a model says about itself. */
export interface VisibilityRunResult {
  verdict: VisibilityVerdict;
  /** Buyer questions at least one answering provider named the brand in. */
  buyerQuestionsWon: number;
  /** Buyer questions at least one provider answered (a question nobody answered is not counted as lost). */
  buyerQuestionsTotal: number;
  /** Buyer questions asked, answered or not. */
  buyerQuestionsAsked: number;
  buyerQuestions: VisibilityBuyerQuestion[];
  competitorsNamedInstead: VisibilityCompetitor[];
  providersAnswered: VisibilityProviderAnswered[];
  providersFailed: VisibilityProviderFailed[];
  /** Present when the audit produced no buyer questions, so there is no map. */
  mapMissingReason?: string;
  /** Present when the crawler could not read the website (it answered, but not with a readable homepage). */
  siteNotReadReason?: string;
}

/** A run as a poll sees it. */
export interface VisibilityRunView {
  runId: string;
  status: VisibilityRunStatus;
  domain: string;
  brand: string;
  website: string;
  category: string;
  mode: AuditMode;
  createdAt: string;
  finishedAt?: string;
  /** When the domain can be measured for free again (30 days after the run was created). */
  quotaRenewsAt: string;
  /** The stored audit, once it exists. */
  auditId?: string;
  /** While unfinished: how far it is. */
  progress?: VisibilityRunProgress;
  /** When failed: why, with a stable code. */
  error?: { code: string; message: string };
  /** When done. */
  result?: VisibilityRunResult;
}

/** What the run operations work against: the audit's and the map's dependencies plus the run store. */
export interface VisibilityRunDependencies extends StartAuditDependencies, BuyerQuestionMapDependencies {
  /** The audits port, with the synchronous read the map's fast path needs (BuyerQuestionMapDependencies). */
  auditRepository: MapAudits;
  /** The runs port (SQLite or PostgreSQL). */
  runRepository: RunStore;
  /** A start that creates a run takes one startVisibilityAudit slot of the caller, as REST does. */
  rateLimiter: RateLimiter;
  /** The runs this process is working on and their live progress; one per service. */
  tracker: VisibilityRunTracker;
}

/** A started (or reused) run. */
export interface StartedVisibilityRun {
  run: VisibilityRunView;
  /** True when the domain's quota was already held by this run, so nothing new was measured. */
  reusedExistingRun: boolean;
  /** The caller's startVisibilityAudit allowance after this start; absent for a reused run (no slot taken). */
  rateLimit?: { remaining: number; resetAt: string };
}

export interface StartVisibilityRunOptions {
  /** Whose limits the start counts against: the caller's key, as REST computes it. */
  callerKey: string;
}

export interface GetVisibilityRunOptions {
  /** Wait up to this long for the run to finish before answering its current state (default 0). */
  waitMs?: number | undefined;
  /** Stops waiting (the caller left or cancelled); the run itself goes on. */
  signal?: AbortSignal | undefined;
  /** Called with the run's progress whenever it moves while waiting (and once at the start of the wait). */
  onProgress?: ((progress: VisibilityRunProgress) => void) | undefined;
}
