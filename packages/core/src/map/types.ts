// The buyer-question map's shapes, in the spec's words (docs/buyer-question-map.md describes each field).

import type { AuditMode, CompetitorCount } from '../audit/types.js';
import type { BrandExtractor } from '../extraction/second-opinion.js';
import type { Logger } from '../logging/logger.js';
import type { Provider, ProviderFailureKind, ProviderId } from '../providers/types.js';
import type { AuditRepository } from '../store/audit-repository.js';
import type { AccountStore, AuditStore, MapStore } from '../store/ports.js';
import type { MapRepository } from '../store/map-repository.js';
import type { BuyerQuestionMapRunner } from './runner.js';

/** Why a cell has no answer. `interrupted` never appears: an interrupted cell is asked again on resume. */
export interface CellFailure {
  kind: ProviderFailureKind | 'unexpected' | 'provider_removed';
  /** A short human reason (vendor messages stay in the logs). */
  message: string;
}

/** One question asked once to one provider. */
export interface BuyerQuestionMapCell {
  provider: ProviderId;
  ok: boolean;
  /** The exact model id that answered; null when the call failed. */
  model: string | null;
  /** The answer text as measured; null when the call failed. */
  answer: string | null;
  /** Brands the answer named, in order of first mention, deduplicated. */
  brands: string[];
  /** Whether the answer named the audited brand. */
  named: boolean;
  /** 1-based place of the brand among `brands`; null when not named (or named only in passing). */
  position: number | null;
  /** The other brands the answer named, in order. */
  competitors: string[];
  /** `competitors` when the brand was not named (they were named instead of it); empty when it was. */
  namedInstead: string[];
  /** Present only when the call failed. */
  failure?: CellFailure;
  answeredAt: string;
}

/** One buyer question and its answer from every provider, in the map's provider order. */
export interface BuyerQuestionMapRow {
  questionIndex: number;
  question: string;
  cells: BuyerQuestionMapCell[];
  /** Providers whose answer named the brand. */
  namedBy: ProviderId[];
  /** True when at least one provider named the brand. */
  won: boolean;
}

/** How one provider did across all questions. */
export interface BuyerQuestionMapProviderSummary {
  provider: ProviderId;
  /** The model requested when the map started; the cells carry the exact model that answered. */
  model: string;
  questions: number;
  answered: number;
  failed: number;
  /** Questions whose answer named the brand. */
  questionsWon: number;
  /** questionsWon / answered; null when nothing was answered. */
  winRate: number | null;
  /** Mean position over the answers that placed the brand in their list; null when none did. */
  averagePosition: number | null;
  /** Competitors by answers that named them instead of the brand, at most 5. */
  topCompetitors: CompetitorCount[];
}

/** The map as a whole. */
export interface BuyerQuestionMapSummary {
  questions: number;
  providers: number;
  cells: number;
  answeredCells: number;
  failedCells: number;
  /** Questions at least one provider answered by naming the brand. */
  questionsWon: number;
  /** Cells (question × provider) whose answer named the brand. */
  cellsWon: number;
  /** Providers that answered at least one question. */
  providersAnswered: ProviderId[];
  /** Competitors by answers that named them instead of the brand, at most 10. */
  topCompetitors: CompetitorCount[];
}

/** The stored grid (`map` of FanoutMapResponse): buyer questions × providers, with the answers as measured. */
export interface BuyerQuestionMap {
  auditId: string;
  /** 1 for the free first map, +1 for each re-run. */
  generation: number;
  /** Which lineup answered: the real providers, or the simulator (`demo-` model ids). */
  mode: AuditMode;
  brand: string;
  website: string;
  startedAt: string;
  /** When the last cell was stored and the map completed. */
  measuredAt: string;
  providers: Array<{ provider: ProviderId; model: string }>;
  questions: string[];
  rows: BuyerQuestionMapRow[];
  providerSummaries: BuyerQuestionMapProviderSummary[];
  summary: BuyerQuestionMapSummary;
}

/** Cells stored out of the cells the job asks. */
export interface BuyerQuestionMapProgress {
  completed: number;
  total: number;
}

/**
 * The `status` of a FanoutMapResponse without a map: `not_started` (no job yet; POST starts it),
 * `running` (a job is measuring; poll), `no_fanout` (the audit has no buyer questions; a POST answers 409).
 */
export type BuyerQuestionMapStatus = 'not_started' | 'running' | 'no_fanout';

/** A re-measurement in progress while the previous map is still the stored one. */
export interface Remeasuring {
  status: 'running';
  generation: number;
  progress: BuyerQuestionMapProgress;
}

/** FanoutMapResponse as the map operations build it. */
export type BuyerQuestionMapResponse =
  | { ok: true; cached: boolean; map: BuyerQuestionMap; remeasuring?: Remeasuring }
  | { ok: true; cached: false; status: BuyerQuestionMapStatus; generation?: number; progress?: BuyerQuestionMapProgress };

/** The audits the map code reads: the port, plus the SQLite repository's synchronous read (below). */
/** The audits port; the SQLite repository adds getAuditNow, the synchronous read of the map read's fast path. */
export type MapAudits = AuditStore & Partial<Pick<AuditRepository, 'getAuditNow'>>;

/** What the map operations run against. */
export interface BuyerQuestionMapDependencies {
  /** The enabled providers, wrapped as the service composes them (call log, budget, retries, concurrency cap). */
  lineup: ReadonlyMap<ProviderId, Provider>;
  mode: AuditMode;
  /**
   * The audits port, plus the SQLite repository's synchronous read for the map read's fast path before
   * Express (createBuyerQuestionMapReader; docs/architecture.md, "The store: ports and adapters").
   */
  auditRepository: MapAudits;
  /** The accounts port: a re-run checks the balance first (the spend itself is MapStore.createRerunJob's). */
  accountRepository: AccountStore;
  /** The maps port (jobs and cells): every operation and the runner go through it. */
  mapStore: MapStore;
  /**
   * The SQLite repository under mapStore, for the map read's fast path only (createBuyerQuestionMapReader
   * answers without a promise, and keeps lookups while its `jobWrites` has not moved). Absent in
   * PostgreSQL mode: reads then go through the port (createAsyncBuyerQuestionMapReader).
   */
  mapRepository?: MapRepository | undefined;
  /** The jobs this process is running; one per service. */
  runner: BuyerQuestionMapRunner;
  logger: Logger;
  /** Reads the brands out of each answer: EXTRACTION's choice, the rules when absent. */
  brandExtractor?: BrandExtractor | undefined;
  now?: (() => Date) | undefined;
}

export interface StartBuyerQuestionMapRequest {
  auditId: string;
  /** Re-measure an existing map (one credit, signed-in owner only); ignored when no map exists yet. */
  rerun?: boolean | undefined;
  /** The email of the signed-in session, if any. */
  signedInEmail?: string | undefined;
}

export interface StartBuyerQuestionMapOptions {
  /**
   * Called once after every refusal that costs nothing (404, 409, 401, 402 on an empty balance) and
   * before the answer or any spending; the REST layer takes its rate-limit slot here. If it throws,
   * nothing is started or spent.
   */
  beforeSpend?: (() => unknown) | undefined;
  /** How long to wait for the job to finish before answering the running state (default 60 s). */
  waitMs?: number | undefined;
  /** Stops waiting (the client left); the job itself goes on. */
  signal?: AbortSignal | undefined;
}
