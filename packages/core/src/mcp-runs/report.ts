// The result of a finished run, built from what was stored: the audit's measured findings for the verdict
// and the buyer-question map's cells for the questions won. Nothing here asks a model anything, and
// nothing comes from what a model says about itself: only from counted answers.

import type { BuyerQuestionMap } from '../map/types.js';
import type { StoredAudit } from '../operations/start-visibility-audit.js';
import type { ProviderId } from '../providers/types.js';
import type {
  VisibilityCompetitor,
  VisibilityProviderAnswered,
  VisibilityProviderFailed,
  VisibilityRunResult,
  VisibilityVerdict,
} from './types.js';

/** Competitors listed in a result, most named-instead first. */
export const RESULT_COMPETITORS = 8;

/** The run's result from its stored audit and, when the audit had buyer questions, its complete map. */
export function buildVisibilityRunResult(audit: StoredAudit, map: BuyerQuestionMap | undefined): VisibilityRunResult {
  const rows = map?.rows ?? [];
  const answeredRows = rows.filter((row) => row.cells.some((cell) => cell.ok));
  return {
    verdict: verdictOf(audit),
    buyerQuestionsWon: rows.filter((row) => row.won).length,
    buyerQuestionsTotal: answeredRows.length,
    buyerQuestionsAsked: rows.length,
    buyerQuestions: rows.map((row) => ({
      question: row.question,
      won: row.won,
      namedBy: row.namedBy,
      failedProviders: row.cells.filter((cell) => !cell.ok).map((cell) => cell.provider),
    })),
    competitorsNamedInstead: competitorsOf(audit, map),
    ...providersOf(audit, map),
    ...(map === undefined ? { mapMissingReason: audit.fanoutMissingReason ?? 'The audit produced no buyer questions.' } : {}),
    ...siteNotRead(audit),
  };
}

/** The stored audit records a crawl that could not read the homepage as its one next step, `site-unreachable`. */
function siteNotRead(audit: StoredAudit): Pick<VisibilityRunResult, 'siteNotReadReason'> {
  const step = audit.personalizedNextSteps.find((entry) => entry.id === 'site-unreachable');
  if (step === undefined) return {};
  // "We could not read https://…: reason. If our crawler …": the part before " If our crawler" is what happened.
  const whatHappened = step.why.split(' If our crawler')[0] ?? step.why;
  return { siteNotReadReason: whatHappened.replace(/^We could not read /u, '').replace(/\.$/u, '') };
}

function verdictOf(audit: StoredAudit): VisibilityVerdict {
  const summary = audit.audit;
  const measured = summary.measured;
  return {
    risk: summary.risk,
    score: measured ? summary.score : null,
    scoreInterval: measured ? summary.scoreInterval : null,
    measured,
    confidence: summary.confidence,
    degraded: summary.degraded,
    ...(summary.notMeasuredReason === undefined ? {} : { notMeasuredReason: summary.notMeasuredReason }),
  };
}

/** The map's competitors when there is a map (the buyer questions are what a buyer asks); the audit's otherwise. */
function competitorsOf(audit: StoredAudit, map: BuyerQuestionMap | undefined): VisibilityCompetitor[] {
  const source = map !== undefined ? map.summary.topCompetitors : audit.competitors;
  return source
    .filter((competitor) => competitor.namedInstead > 0)
    .sort((left, right) => right.namedInstead - left.namedInstead || right.mentions - left.mentions)
    .slice(0, RESULT_COMPETITORS)
    .map((competitor) => ({ name: competitor.name, namedInstead: competitor.namedInstead, mentions: competitor.mentions }));
}

/** Every provider asked, in the map's column order: answered something (audit or map) or failed with a reason. */
function providersOf(
  audit: StoredAudit,
  map: BuyerQuestionMap | undefined,
): { providersAnswered: VisibilityProviderAnswered[]; providersFailed: VisibilityProviderFailed[] } {
  const asked = new Set<ProviderId>([...(map?.providers.map((entry) => entry.provider) ?? []), ...audit.audit.providersAsked]);
  const providersAnswered: VisibilityProviderAnswered[] = [];
  const providersFailed: VisibilityProviderFailed[] = [];
  for (const provider of asked) {
    const cells = (map?.rows ?? []).flatMap((row) => row.cells.filter((cell) => cell.provider === provider));
    const answered = cells.filter((cell) => cell.ok);
    const finding = audit.providerFindings.find((entry) => entry.provider === provider);
    const model = answered.find((cell) => cell.model !== null)?.model ?? finding?.model;
    if (model !== undefined && model !== null) {
      providersAnswered.push({
        provider,
        model,
        questionsAnswered: answered.length,
        questionsWon: answered.filter((cell) => cell.named).length,
        questionsFailed: cells.length - answered.length,
      });
      continue;
    }
    const reason =
      audit.providerErrors.find((entry) => entry.provider === provider)?.reason ??
      cells.find((cell) => cell.failure !== undefined)?.failure?.message ??
      'it did not answer';
    providersFailed.push({ provider, reason });
  }
  return { providersAnswered, providersFailed };
}
