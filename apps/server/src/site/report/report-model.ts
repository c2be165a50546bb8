// Reads a stored AuditResponse (and its buyer-question map, if any) into the plain view the HTML, SVG and
// markdown renderers share. Stored responses come from older versions too, so every field is read
// defensively: a missing or malformed optional field becomes null/empty, never an exception.

import { DEMO_MODEL_PREFIX, type BuyerQuestionMap } from '@visibility/core';

/** A closed interval [low, high], low <= high. */
export type ReportInterval = readonly [low: number, high: number];

export interface ReportSummary {
  /** False when no provider answered: then `score` is null (a stored 0 is not a score). */
  measured: boolean;
  notMeasuredReason: string | null;
  /** 0..100; null when not measured or missing. */
  score: number | null;
  scoreInterval: ReportInterval | null;
  /** `low`, `medium`, `high`, `critical`, `unknown` (or whatever an older version stored). */
  risk: string;
  /** `high`, `medium`, `low`; null when an older response did not say. */
  confidence: string | null;
  degraded: boolean;
  /** 0..1 */
  mentionRate: number | null;
  mentionRateInterval: ReportInterval | null;
  /**
   * The brand's share of voice: its mentions ÷ all brand mentions (its own plus every competitor's), each
   * brand at most once per answer. Stored by newer audits; for older ones computed from the listed competitors.
   */
  shareOfVoice: number | null;
  samplesPerQuestion: number | null;
  questions: number | null;
  successfulSamples: number | null;
  providersAsked: string[];
  providersAnswered: string[];
}

export interface ReportCompetitorCount {
  name: string;
  namedInstead: number;
  mentions: number;
}

export interface ReportFinding {
  provider: string;
  model: string;
  /** True when the model id is a simulator's (`demo-` prefix). */
  demo: boolean;
  score: number | null;
  scoreInterval: ReportInterval | null;
  summary: string;
  mentionRate: number | null;
  mentionRateInterval: ReportInterval | null;
  samples: number | null;
  successfulSamples: number | null;
  failedSamples: number | null;
  averagePosition: number | null;
  shareOfVoice: number | null;
  /** Answers (successful samples) that named the brand; null when it cannot be told. */
  brandMentions: number | null;
  topCompetitors: ReportCompetitorCount[];
}

/** A provider that was asked but never answered: "not measured", never "not mentioned". */
export interface ReportProviderError {
  provider: string;
  model: string;
  demo: boolean;
  reason: string;
  kind: string | null;
  failedSamples: number | null;
}

export interface ReportCompetitor extends ReportCompetitorCount {
  rank: number;
  watched: boolean;
  /** Its mentions ÷ all brand mentions (see {@link ReportSummary.shareOfVoice}); null when unknown. */
  shareOfVoice: number | null;
}

export interface ReportNextStep {
  id: string;
  priority: string;
  title: string;
  why: string;
  how: string;
}

export interface ReportBenchmark {
  audits: number;
  averageScore: number;
  medianScore: number;
}

/** One entry of the mention-rate chart: how many successful answers named it (its mention rate's numerator). */
export interface ShareOfVoiceEntry {
  name: string;
  isBrand: boolean;
  mentions: number;
  /** Answers that named it and not the brand (competitors only; null for the brand). */
  namedInstead: number | null;
}

export interface ShareOfVoice {
  /** Successful answers across providers: the denominator of every bar. */
  totalAnswers: number;
  /** The brand first, then the top competitors by answers naming them instead. */
  entries: ShareOfVoiceEntry[];
}

export interface ReportMapCell {
  provider: string;
  ok: boolean;
  model: string | null;
  answer: string | null;
  named: boolean;
  position: number | null;
  namedInstead: string[];
  failureReason: string | null;
}

export interface ReportMapRow {
  question: string;
  /** One per map provider, in the map's provider order; null when the row has no cell for it. */
  cells: Array<ReportMapCell | null>;
  won: boolean;
}

export interface ReportMapProviderSummary {
  provider: string;
  model: string;
  questions: number;
  answered: number;
  failed: number;
  questionsWon: number;
  averagePosition: number | null;
}

export interface ReportMap {
  generation: number | null;
  demo: boolean;
  measuredAt: string | null;
  providers: Array<{ provider: string; model: string }>;
  rows: ReportMapRow[];
  providerSummaries: ReportMapProviderSummary[];
  questions: number;
  questionsWon: number;
  answeredCells: number;
  failedCells: number;
  topCompetitors: ReportCompetitorCount[];
}

/** Where the buyer-question map stands when the report is rendered. */
export type ReportMapState =
  | { kind: 'ready' }
  | { kind: 'running'; completed: number | null; total: number | null }
  | { kind: 'not_started' }
  | { kind: 'no_fanout'; reason: string | null };

export interface ReportView {
  auditId: string;
  /** ISO date-time the audit was measured (created). */
  createdAt: string;
  /** `live`, `demo`, or null when an older response did not say. */
  mode: string | null;
  /** The stored mode is demo, or (older responses without a mode) a model id is a simulator's. */
  isDemo: boolean;
  brand: string;
  website: string;
  category: string;
  categoryLocalized: string | null;
  measurementLocale: string | null;
  summary: ReportSummary;
  findings: ReportFinding[];
  failedProviders: ReportProviderError[];
  competitors: ReportCompetitor[];
  shareOfVoice: ShareOfVoice | null;
  nextSteps: ReportNextStep[];
  buyerQuestions: string[];
  fanoutMissingReason: string | null;
  benchmark: ReportBenchmark | null;
  map: ReportMap | null;
  /** Re-measurement in progress while an older map is shown (only with `map`). */
  remeasuring: { completed: number | null; total: number | null } | null;
  mapState: ReportMapState;
}

export interface ReportViewInput {
  auditId: string;
  createdAt: string;
  response: Record<string, unknown>;
  map?: BuyerQuestionMap | undefined;
  mapStatus?: { status: string; completed?: number; total?: number } | undefined;
}

/** How many competitors the share-of-voice chart shows next to the brand. */
export const SHARE_OF_VOICE_COMPETITORS = 5;

// ---------------------------------------------------------------------------------------------------
// Defensive readers

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown): Json {
  return isRecord(value) ? value : {};
}

function records(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function str(value: unknown, fallback = ''): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return fallback;
}

function optionalStr(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function count(value: unknown): number {
  const n = num(value);
  return n === null || n < 0 ? 0 : Math.round(n);
}

function bool(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

function interval(value: unknown): ReportInterval | null {
  if (!Array.isArray(value) || value.length !== 2) return null;
  const low = num(value[0]);
  const high = num(value[1]);
  if (low === null || high === null) return null;
  return low <= high ? [low, high] : [high, low];
}

function isDemoModel(model: string | null | undefined): boolean {
  return typeof model === 'string' && model.startsWith(DEMO_MODEL_PREFIX);
}

// ---------------------------------------------------------------------------------------------------

function readCompetitorCounts(value: unknown): ReportCompetitorCount[] {
  return records(value)
    .map((item) => ({ name: str(item['name']).trim(), namedInstead: count(item['namedInstead']), mentions: count(item['mentions']) }))
    .filter((item) => item.name !== '');
}

function readFinding(item: Json): ReportFinding {
  const model = str(item['model']);
  const successfulSamples = num(item['successfulSamples']);
  const mentionRate = num(item['mentionRate']);
  const questions = records(item['questions']);
  let brandMentions: number | null = null;
  if (questions.length > 0 && questions.every((question) => num(question['namedIn']) !== null)) {
    brandMentions = questions.reduce((sum, question) => sum + count(question['namedIn']), 0);
  } else if (successfulSamples !== null && mentionRate !== null) {
    brandMentions = Math.round(successfulSamples * mentionRate);
  }
  return {
    provider: str(item['provider'], 'unknown'),
    model,
    demo: isDemoModel(model),
    score: num(item['score']),
    scoreInterval: interval(item['scoreInterval']),
    summary: str(item['summary']),
    mentionRate,
    mentionRateInterval: interval(item['mentionRateInterval']),
    samples: num(item['samples']),
    successfulSamples,
    failedSamples: num(item['failedSamples']),
    averagePosition: num(item['averagePosition']),
    shareOfVoice: num(item['shareOfVoice']),
    brandMentions,
    topCompetitors: readCompetitorCounts(item['topCompetitors']),
  };
}

function readProviderError(item: Json): ReportProviderError {
  const model = str(item['model']);
  return {
    provider: str(item['provider'], 'unknown'),
    model,
    demo: isDemoModel(model),
    reason: str(item['reason']) || str(item['error']) || str(item['message']) || 'no answer',
    kind: optionalStr(item['kind']),
    failedSamples: num(item['failedSamples']),
  };
}

function readCompetitors(response: Json, findings: ReportFinding[]): ReportCompetitor[] {
  const ranked = records(response['competitors']);
  if (ranked.length > 0) {
    return ranked
      .map((item, index) => ({
        name: str(item['name']).trim(),
        namedInstead: count(item['namedInstead']),
        mentions: count(item['mentions']),
        rank: num(item['rank']) ?? index + 1,
        watched: bool(item['watched']) ?? false,
        shareOfVoice: share(item['shareOfVoice']),
      }))
      .filter((item) => item.name !== '')
      .sort((a, b) => a.rank - b.rank);
  }
  // Older responses: aggregate the findings' top competitors (each provider's top list only).
  const totals = new Map<string, ReportCompetitorCount>();
  for (const finding of findings) {
    for (const competitor of finding.topCompetitors) {
      const key = competitor.name.toLowerCase();
      const total = totals.get(key) ?? { name: competitor.name, namedInstead: 0, mentions: 0 };
      total.namedInstead += competitor.namedInstead;
      total.mentions += competitor.mentions;
      totals.set(key, total);
    }
  }
  return [...totals.values()]
    .sort((a, b) => b.namedInstead - a.namedInstead || b.mentions - a.mentions)
    .map((competitor, index) => ({ ...competitor, rank: index + 1, watched: false, shareOfVoice: null }));
}

function share(value: unknown): number | null {
  const value01 = num(value);
  return value01 === null || value01 < 0 || value01 > 1 ? null : value01;
}

/**
 * Older responses stored no share of voice: compute it from what they list (the brand's answers and the
 * listed competitors' mentions), by the same definition. Stored values are kept as they are.
 */
function withShareOfVoice(
  summary: ReportSummary,
  storedBrandShare: number | null,
  findings: ReportFinding[],
  competitors: ReportCompetitor[],
): { summary: ReportSummary; competitors: ReportCompetitor[] } {
  const known = findings.every((finding) => finding.brandMentions !== null);
  const brandMentions = findings.reduce((sum, finding) => sum + (finding.brandMentions ?? 0), 0);
  const all = brandMentions + competitors.reduce((sum, competitor) => sum + competitor.mentions, 0);
  const computed = (mentions: number): number | null => (!known || all === 0 ? null : Math.round((mentions / all) * 1000) / 1000);
  return {
    summary: { ...summary, shareOfVoice: summary.measured ? (storedBrandShare ?? computed(brandMentions)) : null },
    competitors: competitors.map((competitor) => ({ ...competitor, shareOfVoice: competitor.shareOfVoice ?? computed(competitor.mentions) })),
  };
}

function readShareOfVoice(brand: string, findings: ReportFinding[], competitors: ReportCompetitor[]): ShareOfVoice | null {
  const totalAnswers = findings.reduce((sum, finding) => sum + (finding.successfulSamples ?? 0), 0);
  if (totalAnswers <= 0) return null;
  if (findings.some((finding) => finding.brandMentions === null)) return null;
  const brandMentions = findings.reduce((sum, finding) => sum + (finding.brandMentions ?? 0), 0);
  const top = competitors.filter((competitor) => competitor.mentions > 0).slice(0, SHARE_OF_VOICE_COMPETITORS);
  return {
    totalAnswers,
    entries: [
      { name: brand, isBrand: true, mentions: brandMentions, namedInstead: null },
      ...top.map((competitor) => ({ name: competitor.name, isBrand: false, mentions: competitor.mentions, namedInstead: competitor.namedInstead })),
    ],
  };
}

function readNextSteps(value: unknown): ReportNextStep[] {
  return records(value)
    .map((item) => ({
      id: str(item['id']),
      priority: str(item['priority'], 'medium'),
      title: str(item['title']),
      why: str(item['why']),
      how: str(item['how']),
    }))
    .filter((step) => step.title !== '' || step.why !== '' || step.how !== '');
}

function readBenchmark(value: unknown): ReportBenchmark | null {
  if (!isRecord(value)) return null;
  const audits = num(value['audits']);
  const averageScore = num(value['averageScore']);
  const medianScore = num(value['medianScore']);
  if (audits === null || audits <= 0 || averageScore === null || medianScore === null) return null;
  return { audits, averageScore, medianScore };
}

function readMapCell(item: Json): ReportMapCell {
  const ok = bool(item['ok']) ?? false;
  const failure = record(item['failure']);
  const named = ok && (bool(item['named']) ?? false);
  return {
    provider: str(item['provider'], 'unknown'),
    ok,
    model: optionalStr(item['model']),
    answer: typeof item['answer'] === 'string' ? item['answer'] : null,
    named,
    position: named ? num(item['position']) : null,
    namedInstead: named ? [] : strings(item['namedInstead']),
    failureReason: ok ? null : str(failure['message']) || str(failure['kind']) || 'no answer',
  };
}

function readMap(value: unknown): ReportMap | null {
  if (!isRecord(value)) return null;
  const rowsJson = records(value['rows']);
  let providers = records(value['providers']).map((item) => ({ provider: str(item['provider'], 'unknown'), model: str(item['model']) }));
  if (providers.length === 0) {
    // Older or partial maps: the providers of the first row's cells.
    providers = records(rowsJson[0]?.['cells']).map((cell) => ({ provider: str(cell['provider'], 'unknown'), model: str(cell['model']) }));
  }
  const rows: ReportMapRow[] = rowsJson.map((row) => {
    const cells = records(row['cells']).map(readMapCell);
    const ordered = providers.map(({ provider }) => cells.find((cell) => cell.provider === provider) ?? null);
    return { question: str(row['question']), cells: ordered, won: bool(row['won']) ?? ordered.some((cell) => cell?.named === true) };
  });
  const allCells = rows.flatMap((row) => row.cells).filter((cell): cell is ReportMapCell => cell !== null);
  const summary = record(value['summary']);
  const providerSummaries = records(value['providerSummaries']).map((item) => ({
    provider: str(item['provider'], 'unknown'),
    model: str(item['model']),
    questions: count(item['questions']),
    answered: count(item['answered']),
    failed: count(item['failed']),
    questionsWon: count(item['questionsWon']),
    averagePosition: num(item['averagePosition']),
  }));
  const mode = str(value['mode']);
  return {
    generation: num(value['generation']),
    demo: mode === 'demo' || providers.some(({ model }) => isDemoModel(model)) || allCells.some((cell) => isDemoModel(cell.model)),
    measuredAt: optionalStr(value['measuredAt']),
    // One label per model across the report: the id that answered (a dated snapshot, as in the findings).
    providers: providers.map(({ provider, model }, column) => ({
      provider,
      model: rows.map((row) => row.cells[column]).find((cell) => cell?.ok === true && cell.model !== null)?.model ?? model,
    })),
    rows,
    providerSummaries,
    questions: num(summary['questions']) ?? rows.length,
    questionsWon: num(summary['questionsWon']) ?? rows.filter((row) => row.won).length,
    answeredCells: num(summary['answeredCells']) ?? allCells.filter((cell) => cell.ok).length,
    failedCells: num(summary['failedCells']) ?? allCells.filter((cell) => !cell.ok).length,
    topCompetitors: readCompetitorCounts(summary['topCompetitors']),
  };
}

function readMapState(
  map: ReportMap | null,
  mapStatus: ReportViewInput['mapStatus'],
  buyerQuestions: string[],
  fanoutMissingReason: string | null,
): { state: ReportMapState; remeasuring: ReportView['remeasuring'] } {
  const progress = { completed: num(mapStatus?.completed), total: num(mapStatus?.total) };
  if (map !== null) return { state: { kind: 'ready' }, remeasuring: mapStatus?.status === 'running' ? progress : null };
  if (mapStatus?.status === 'running') return { state: { kind: 'running', ...progress }, remeasuring: null };
  if (mapStatus?.status === 'no_fanout' || buyerQuestions.length === 0) {
    return { state: { kind: 'no_fanout', reason: fanoutMissingReason }, remeasuring: null };
  }
  return { state: { kind: 'not_started' }, remeasuring: null };
}

/** Reads a stored AuditResponse (any version) and its map into the report's view. Never throws on shape. */
export function toReportView(input: ReportViewInput): ReportView {
  const response = isRecord(input.response) ? input.response : {};
  const audit = record(response['audit']);
  const findings = records(response['providerFindings']).map(readFinding);
  const failedProviders = records(response['providerErrors']).map(readProviderError);

  const storedMeasured = bool(audit['measured']);
  // Older responses had no `measured`: without a single finding nothing was measured (a stored 0 is no score).
  const measured = storedMeasured ?? findings.length > 0;
  const score = measured ? num(audit['score']) : null;
  const risk = measured ? str(audit['risk'], 'unknown') || 'unknown' : 'unknown';
  const summary: ReportSummary = {
    measured,
    notMeasuredReason: measured ? null : optionalStr(audit['notMeasuredReason']),
    score: score === null ? null : Math.min(100, Math.max(0, score)),
    scoreInterval: measured ? interval(audit['scoreInterval']) : null,
    risk,
    confidence: optionalStr(audit['confidence']),
    degraded: bool(audit['degraded']) ?? bool(response['degraded']) ?? false,
    mentionRate: measured ? num(audit['mentionRate']) : null,
    mentionRateInterval: measured ? interval(audit['mentionRateInterval']) : null,
    shareOfVoice: null,
    samplesPerQuestion: num(audit['samplesPerQuestion']),
    questions: num(audit['questions']),
    successfulSamples: num(audit['successfulSamples']),
    providersAsked: strings(audit['providersAsked']),
    providersAnswered: strings(audit['providersAnswered']),
  };

  const brand = str(audit['brand']) || str(response['brand']);
  const shared = withShareOfVoice(summary, measured ? share(audit['shareOfVoice']) : null, findings, readCompetitors(response, findings));
  const competitors = shared.competitors;
  const fanout = record(response['productFanout']);
  const buyerQuestions = strings(fanout['questions']).filter((question) => question.trim() !== '');
  const fanoutMissingReason = optionalStr(response['fanoutMissingReason']);
  const map = readMap(input.map);
  const { state, remeasuring } = readMapState(map, input.mapStatus, map === null ? buyerQuestions : map.rows.map((row) => row.question), fanoutMissingReason);

  const mode = optionalStr(response['mode']);
  const isDemo =
    mode === 'demo' ||
    (mode === null && (findings.some((finding) => finding.demo) || failedProviders.some((failure) => failure.demo)));

  return {
    auditId: input.auditId,
    createdAt: input.createdAt,
    mode,
    isDemo,
    brand,
    website: str(audit['website']) || str(response['website']),
    category: str(audit['category']) || str(response['category']),
    categoryLocalized: optionalStr(response['categoryLocalized']),
    measurementLocale: optionalStr(response['measurementLocale']),
    summary: shared.summary,
    findings,
    failedProviders,
    competitors,
    shareOfVoice: measured ? readShareOfVoice(brand, findings, competitors) : null,
    nextSteps: readNextSteps(response['personalizedNextSteps']),
    buyerQuestions,
    fanoutMissingReason,
    benchmark: readBenchmark(response['categoryBenchmark']),
    map,
    remeasuring,
    mapState: state,
  };
}
