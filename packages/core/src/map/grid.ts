// Turns a job's stored cells into the map: rows of questions, one cell per provider, and the summaries.
// Competitors are grouped exactly as the audit groups them ("Zoho" and "Zoho CRM" are one competitor).

import { rankCompetitors, tallyCompetitors, TOP_COMPETITORS_PER_PROVIDER } from '../audit/competitors.js';
import type { ProviderSamples } from '../audit/sampling.js';
import type { AuditMode } from '../audit/types.js';
import type { BrandMatcher } from '../extraction/index.js';
import type { ProviderId } from '../providers/types.js';
import type { MapCellRecord, MapJobRecord } from '../store/map-repository.js';
import { jobBrandMatcher } from './cell.js';
import type { BuyerQuestionMap, BuyerQuestionMapCell, BuyerQuestionMapProviderSummary, BuyerQuestionMapRow, CellFailure } from './types.js';

/** How many competitors the map's overall summary lists. */
export const MAP_TOP_COMPETITORS = 10;

/** Builds the finished grid of a job from its cells (a cell missing from the store shows as a failure). */
export function buildBuyerQuestionMap(job: MapJobRecord, cells: readonly MapCellRecord[], measuredAt: string, category?: string): BuyerQuestionMap {
  const matcher = jobBrandMatcher(job);
  const byKey = new Map(cells.map((cell) => [cellKey(cell.questionIndex, cell.provider), cell]));
  const rows: BuyerQuestionMapRow[] = job.questions.map((question, questionIndex) => {
    const rowCells = job.providers.map(({ provider }) => toMapCell(byKey.get(cellKey(questionIndex, provider)), provider, matcher, measuredAt));
    const namedBy = rowCells.filter((cell) => cell.named).map((cell) => cell.provider);
    return { questionIndex, question, cells: rowCells, namedBy, won: namedBy.length > 0 };
  });

  const samples: ProviderSamples[] = job.providers.map(({ provider, model }, column) => ({
    provider,
    model,
    calls: rows.map((row) => {
      const cell = row.cells[column] as BuyerQuestionMapCell;
      return { questionIndex: row.questionIndex, sampleIndex: 0, ...cell };
    }),
  }));
  // The audit's category, when known, leaves out platforms and stores as the audit itself does.
  const tally = tallyCompetitors(samples, matcher, job.competitors, category);

  const providerSummaries = job.providers.map(({ provider, model }, column): BuyerQuestionMapProviderSummary => {
    const columnCells = rows.map((row) => row.cells[column] as BuyerQuestionMapCell);
    const answered = columnCells.filter((cell) => cell.ok);
    const won = answered.filter((cell) => cell.named);
    const positions = won.flatMap((cell) => (cell.position === null ? [] : [cell.position]));
    return {
      provider,
      model,
      questions: columnCells.length,
      answered: answered.length,
      failed: columnCells.length - answered.length,
      questionsWon: won.length,
      winRate: answered.length === 0 ? null : won.length / answered.length,
      averagePosition: positions.length === 0 ? null : positions.reduce((sum, position) => sum + position, 0) / positions.length,
      topCompetitors: tally.forProvider(provider).slice(0, TOP_COMPETITORS_PER_PROVIDER),
    };
  });

  const allCells = rows.flatMap((row) => row.cells);
  return {
    auditId: job.auditId,
    generation: job.generation,
    mode: job.mode as AuditMode,
    brand: job.brand,
    website: job.website,
    startedAt: job.createdAt,
    measuredAt,
    providers: job.providers.map(({ provider, model }) => ({ provider, model })),
    questions: [...job.questions],
    rows,
    providerSummaries,
    summary: {
      questions: rows.length,
      providers: job.providers.length,
      cells: allCells.length,
      answeredCells: allCells.filter((cell) => cell.ok).length,
      failedCells: allCells.filter((cell) => !cell.ok).length,
      questionsWon: rows.filter((row) => row.won).length,
      cellsWon: allCells.filter((cell) => cell.named).length,
      providersAnswered: providerSummaries.filter((summary) => summary.answered > 0).map((summary) => summary.provider),
      topCompetitors: rankCompetitors(tally)
        .filter((competitor) => competitor.mentions > 0)
        .slice(0, MAP_TOP_COMPETITORS)
        .map(({ name, namedInstead, mentions }) => ({ name, namedInstead, mentions })),
    },
  };
}

/** The key of one cell within a job. */
export function cellKey(questionIndex: number, provider: ProviderId): string {
  return `${questionIndex}\u241f${provider}`;
}

function toMapCell(cell: MapCellRecord | undefined, provider: ProviderId, matcher: BrandMatcher, measuredAt: string): BuyerQuestionMapCell {
  if (cell === undefined) {
    return {
      provider,
      ok: false,
      model: null,
      answer: null,
      brands: [],
      named: false,
      position: null,
      competitors: [],
      namedInstead: [],
      failure: { kind: 'unexpected', message: 'this cell was not measured' },
      answeredAt: measuredAt,
    };
  }
  const competitors = cell.brands.filter((brand) => !matcher.isSameBrand(brand));
  return {
    provider,
    ok: cell.ok,
    model: cell.model,
    answer: cell.answer,
    brands: cell.brands,
    named: cell.named,
    position: cell.position,
    competitors,
    namedInstead: cell.named ? [] : competitors,
    ...(cell.ok ? {} : { failure: { kind: (cell.failureKind ?? 'unexpected') as CellFailure['kind'], message: cell.failureMessage ?? 'the call failed' } }),
    answeredAt: cell.answeredAt,
  };
}
