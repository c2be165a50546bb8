// The report as an HTML fragment (<section class="report">): the page layout (h1, <head>, stylesheet)
// is someone else's. No scripts, no inline styles, no event handlers: a strict CSP applies. Every
// value from the stored response is escaped by the `html` template (brands, competitors, model ids,
// answers and reasons come from users, models and crawled sites); only the service's own markup (the
// SVG charts it draws) is inserted as trustedHtml.

import { renderScoreChart, renderShareOfVoiceChart, reportIdPrefix } from './charts.js';
import {
  competitorDefinitions,
  competitorSections,
  formatShare,
  nobodyInsteadText,
  confidenceLabel,
  DEGRADED_HREF,
  degradedText,
  DEMO_BANNER_TEXT,
  formatDateTime,
  formatPercent,
  formatPosition,
  formatRateWithInterval,
  formatScore,
  formatScoreWithInterval,
  mapCellText,
  mapProviderSummaryText,
  measurementSentence,
  modelLabel,
  NOT_MEASURED_HREF,
  notMeasuredText,
  priorityClass,
  priorityLabel,
  questionsWonText,
  riskClass,
  riskLabel,
} from './format.js';
import { html, joinHtml, trustedHtml, type TrustedHtml } from '../html-text.js';
import type { ReportCompetitor, ReportMap, ReportMapCell, ReportView } from './report-model.js';

export interface ReportHtmlOptions {
  /** When given and no map exists yet, a plain POST form starts the buyer-question map. */
  mapAction?: { formAction: string } | undefined;
  /** When given and a map exists (the signed-in owner is viewing), a form re-measures it for one credit. */
  rerunAction?: { formAction: string; credits: number } | undefined;
  /** Earlier finished measurements of the map, newest first (the latest is the grid shown). */
  mapHistory?: readonly { generation: number; completedAt: string; questions: number; questionsWon: number }[] | undefined;
}

/** The re-run button's label. */
export const RERUN_ACTION_LABEL = 'Measure the buyer questions again (1 credit)';

/** The button's label on the map form. */
export const MAP_ACTION_LABEL = 'Ask the buyer questions to every provider';

const NONE = html``;

function time(iso: string): TrustedHtml {
  return html`<time datetime="${iso}">${formatDateTime(iso)}</time>`;
}

/** A table inside a horizontally scrolling, keyboard-focusable region labelled by its caption. */
function tableWrap(captionId: string, table: TrustedHtml): TrustedHtml {
  return html`<div class="report-table-wrap" role="region" aria-labelledby="${captionId}" tabindex="0">\n${table}\n</div>`;
}

function part(id: string, heading: string, body: TrustedHtml, extraClass = ''): TrustedHtml {
  return html`<section class="report-part${extraClass === '' ? '' : ` ${extraClass}`}" aria-labelledby="${id}">
<h2 id="${id}">${heading}</h2>
${body}
</section>`;
}

function websiteHtml(website: string): TrustedHtml {
  if (website === '') return html`<span class="report-muted">not given</span>`;
  let url: URL | null = null;
  try {
    url = new URL(website);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return html`${website}`;
  return html`<a href="${url.href}" rel="nofollow noopener noreferrer ugc">${website}</a>`;
}

// ---------------------------------------------------------------------------------------------------

function headline(view: ReportView, id: string): TrustedHtml {
  const { summary } = view;
  const lines: TrustedHtml[] = [];
  lines.push(html`<h2 id="${id}">${view.brand === '' ? 'Brand' : view.brand}: AI visibility snapshot</h2>`);

  const category =
    view.categoryLocalized !== null && view.categoryLocalized !== view.category
      ? html`${view.category} <span class="report-muted">(asked as “${view.categoryLocalized}”${view.measurementLocale === null ? '' : html`, ${view.measurementLocale}`})</span>`
      : html`${view.category === '' ? 'not given' : view.category}`;
  lines.push(html`<dl class="report-facts">
<dt>Website</dt><dd>${websiteHtml(view.website)}</dd>
<dt>Category</dt><dd>${category}</dd>
<dt>Measured</dt><dd>${time(view.createdAt)}</dd>
</dl>`);

  if (view.isDemo) {
    lines.push(
      html`<p class="report-banner report-banner-demo" role="note"><strong>${DEMO_BANNER_TEXT}.</strong> The answers below come from the built-in simulator (model ids starting with <code>demo-</code>), not from any real assistant.</p>`,
    );
  }

  if (!summary.measured) {
    lines.push(html`<div class="report-not-measured" role="status">
<p class="report-score-value"><span class="report-score-number">Not measured</span></p>
<p>${notMeasuredText(summary)}</p>
<p class="report-muted">This is not a score of 0: no provider answered, so nothing is known about whether assistants name ${view.brand === '' ? 'the brand' : view.brand}. <a href="${NOT_MEASURED_HREF}">Why “not measured” is not “not mentioned”</a>.</p>
</div>`);
  } else {
    const score = summary.score;
    const interval =
      score !== null && summary.scoreInterval !== null
        ? html` <span class="report-score-interval">(95% CI ${formatScore(summary.scoreInterval[0])}–${formatScore(summary.scoreInterval[1])})</span>`
        : NONE;
    const confidence = confidenceLabel(summary.confidence);
    lines.push(html`<div class="report-score">
<p class="report-score-value"><span class="report-score-label">Visibility score</span> <span class="report-score-number">${score === null ? 'n/a' : formatScore(score)}</span><span class="report-score-max"> / 100</span>${interval}</p>
<p class="report-badges"><span class="report-risk report-risk-${riskClass(summary.risk)}">${riskLabel(summary.risk)}</span>${confidence === null ? '' : html` <span class="report-confidence report-confidence-${priorityClass(summary.confidence ?? '')}">${confidence}</span>`}</p>
<p class="report-muted">${measurementSentence(view)}</p>
</div>`);
  }

  if (summary.degraded) {
    lines.push(html`<p class="report-banner report-banner-degraded" role="note">${degradedText(summary)} <a href="${DEGRADED_HREF}">How degraded snapshots work</a>.</p>`);
  }
  return html`<header class="report-header" aria-labelledby="${id}">\n${joinHtml(lines, '\n')}\n</header>`;
}

// ---------------------------------------------------------------------------------------------------

function findingsPart(view: ReportView, prefix: string): TrustedHtml {
  const id = `${prefix}-findings`;
  if (view.findings.length === 0) {
    return part(id, 'Findings by provider', html`<p>No provider answered, so there are no findings.</p>`);
  }
  const captionId = `${id}-caption`;
  const rows = view.findings.map((finding) => {
    const answers =
      finding.successfulSamples === null
        ? 'n/a'
        : `${finding.successfulSamples}${finding.samples === null ? '' : ` of ${finding.samples}`}${finding.failedSamples ? ` (${finding.failedSamples} failed)` : ''}`;
    return html`<tr>
<th scope="row">${finding.provider}</th>
<td data-label="Model"><code>${modelLabel(finding.model, finding.demo || view.isDemo)}</code></td>
<td class="report-number" data-label="Score (95% CI)">${formatScoreWithInterval(finding.score, finding.scoreInterval)}</td>
<td class="report-number" data-label="Mention rate (95% CI)">${formatRateWithInterval(finding.mentionRate, finding.mentionRateInterval)}</td>
<td class="report-number" data-label="Average position">${formatPosition(finding.averagePosition)}</td>
<td class="report-number" data-label="Share of voice">${finding.shareOfVoice === null ? 'n/a' : formatPercent(finding.shareOfVoice)}</td>
<td class="report-number" data-label="Answers">${answers}</td>
<td data-label="Summary">${finding.summary}</td>
</tr>`;
  });
  const table = html`<table class="report-table report-findings">
<caption id="${captionId}">What each provider that answered said about ${view.brand === '' ? 'the brand' : view.brand}</caption>
<thead><tr><th scope="col">Provider</th><th scope="col">Model</th><th scope="col">Score (95% CI)</th><th scope="col">Mention rate (95% CI)</th><th scope="col">Average position</th><th scope="col">Share of voice</th><th scope="col">Answers</th><th scope="col">Summary</th></tr></thead>
<tbody>
${joinHtml(rows, '\n')}
</tbody>
</table>`;
  return part(id, 'Findings by provider', tableWrap(captionId, table));
}

function failedPart(view: ReportView, prefix: string): TrustedHtml {
  if (view.failedProviders.length === 0) return NONE;
  const id = `${prefix}-failed`;
  const captionId = `${id}-caption`;
  const rows = view.failedProviders.map(
    (failure) => html`<tr class="report-row-not-measured">
<th scope="row">${failure.provider}</th>
<td><code>${modelLabel(failure.model, failure.demo || view.isDemo)}</code></td>
<td><span class="report-status-not-measured">not measured</span></td>
<td>${failure.reason}</td>
<td class="report-number">${failure.failedSamples === null ? 'n/a' : String(failure.failedSamples)}</td>
</tr>`,
  );
  const table = html`<table class="report-table report-failed">
<caption id="${captionId}">Providers asked whose every call failed</caption>
<thead><tr><th scope="col">Provider</th><th scope="col">Model</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Failed calls</th></tr></thead>
<tbody>
${joinHtml(rows, '\n')}
</tbody>
</table>`;
  return part(
    id,
    'Providers not measured',
    html`<p>These providers were asked but never answered. They are <strong>not measured</strong>, which is not the same as “not mentioned”: they have no score and do not count in the overall score.</p>\n${tableWrap(captionId, table)}`,
  );
}

function competitorsPart(view: ReportView, prefix: string): TrustedHtml {
  const id = `${prefix}-competitors`;
  // The chart is the service's own SVG (charts.ts escapes the names it draws).
  const chart = renderShareOfVoiceChart(view);
  const sections = competitorSections(view);
  const brand = view.brand === '' ? 'the brand' : view.brand;
  const blocks: TrustedHtml[] = [html`<p class="report-definitions">${competitorDefinitions(view.brand)}</p>`];
  if (view.summary.shareOfVoice !== null) {
    blocks.push(html`<p><strong>${brand}’s share of voice: ${formatShare(view.summary.shareOfVoice)}</strong> of all brand mentions.</p>`);
  }
  if (chart !== '') blocks.push(trustedHtml(chart));
  if (!view.summary.measured) {
    blocks.push(html`<p>Not measured: no answers to count competitors in.</p>`);
    return part(id, 'Competitors and share of voice', joinHtml(blocks, '\n'));
  }
  const source = (competitor: ReportCompetitor): string => (competitor.watched ? 'watched' : 'found in the answers');
  if (sections.namedInstead.length === 0) {
    blocks.push(html`<p>${nobodyInsteadText(view)}</p>`);
  } else {
    const captionId = `${id}-caption`;
    const rows = sections.namedInstead.map(
      (competitor) => html`<tr>
<td class="report-number" data-label="Rank">${String(competitor.rank)}</td>
<th scope="row">${competitor.name}</th>
<td class="report-number" data-label="Named instead">${competitor.namedInstead}</td>
<td class="report-number" data-label="Answers naming it">${competitor.mentions}</td>
<td class="report-number" data-label="Share of voice">${formatShare(competitor.shareOfVoice)}</td>
<td data-label="Source">${source(competitor)}</td>
</tr>`,
    );
    blocks.push(
      tableWrap(
        captionId,
        html`<table class="report-table report-competitors">
<caption id="${captionId}">Competitors named instead of ${brand}, across providers</caption>
<thead><tr><th scope="col">Rank</th><th scope="col">Competitor</th><th scope="col">Named instead (answers without ${brand})</th><th scope="col">Answers naming it</th><th scope="col">Share of voice</th><th scope="col">Source</th></tr></thead>
<tbody>
${joinHtml(rows, '\n')}
</tbody>
</table>`,
      ),
    );
  }
  if (sections.alongside.length > 0) {
    const captionId = `${id}-alongside-caption`;
    const rows = sections.alongside.map(
      (competitor) => html`<tr>
<th scope="row">${competitor.name}</th>
<td class="report-number" data-label="Answers naming it">${competitor.mentions}</td>
<td class="report-number" data-label="Share of voice">${formatShare(competitor.shareOfVoice)}</td>
<td data-label="Source">${source(competitor)}</td>
</tr>`,
    );
    blocks.push(
      tableWrap(
        captionId,
        html`<table class="report-table report-competitors-alongside">
<caption id="${captionId}">Competitors only named alongside ${brand}</caption>
<thead><tr><th scope="col">Competitor</th><th scope="col">Answers naming it</th><th scope="col">Share of voice</th><th scope="col">Source</th></tr></thead>
<tbody>
${joinHtml(rows, '\n')}
</tbody>
</table>`,
      ),
    );
  }
  if (sections.watchedNeverNamed.length > 0) {
    blocks.push(html`<p>Watched, never named: ${sections.watchedNeverNamed.join(', ')}.</p>`);
  }
  return part(id, 'Competitors and share of voice', joinHtml(blocks, '\n'));
}

// ---------------------------------------------------------------------------------------------------

function cellClass(cell: ReportMapCell | null): string {
  if (cell === null) return 'report-cell report-cell-missing';
  if (!cell.ok) return 'report-cell report-cell-failed';
  return cell.named ? 'report-cell report-cell-named' : 'report-cell report-cell-not-named';
}

function cellHtml(cell: ReportMapCell | null, requestedModel: string, provider: string): TrustedHtml {
  const text = html`<span class="report-cell-text">${mapCellText(cell)}</span>`;
  // On a phone the grid stacks: each cell then says which provider it is (data-label, shown by the CSS).
  const label = html` data-label="${provider}"`;
  if (cell === null || cell.answer === null) return html`<td class="${cellClass(cell)}"${label}>${text}</td>`;
  const model = cell.model !== null && cell.model !== requestedModel ? html`<p class="report-muted">Answered by <code>${cell.model}</code></p>` : NONE;
  return html`<td class="${cellClass(cell)}"${label}>${text}
<details class="report-answer"><summary>Answer</summary>${model}<p class="report-answer-text">${cell.answer}</p></details></td>`;
}

function gridHtml(view: ReportView, map: ReportMap, prefix: string): TrustedHtml {
  const captionId = `${prefix}-grid-caption`;
  // One label per model across the report: the id that answered (a dated snapshot, as in the findings),
  // not the id requested; the requested one only when no cell of the column answered.
  const columnModels = map.providers.map(({ model }, column) => map.rows.map((row) => row.cells[column]).find((cell) => cell?.ok === true && cell.model !== null)?.model ?? model);
  const headers = map.providers.map(({ provider }, column) => {
    const model = columnModels[column] ?? '';
    return html`<th scope="col">${provider}<br><code class="report-model">${modelLabel(model, map.demo || model.startsWith('demo-'))}</code></th>`;
  });
  const rows = map.rows.map((row) => {
    const cells = row.cells.map((cell, column) => cellHtml(cell, columnModels[column] ?? '', map.providers[column]?.provider ?? ''));
    return html`<tr class="${row.won ? 'report-row-won' : 'report-row-lost'}">
<th scope="row">${row.question}</th>
${joinHtml(cells, '\n')}
</tr>`;
  });
  const footCells = map.providers.map(
    ({ provider }) => html`<td data-label="${provider}">${mapProviderSummaryText(map.providerSummaries.find((item) => item.provider === provider))}</td>`,
  );
  const table = html`<table class="report-table report-grid">
<caption id="${captionId}">Buyer questions (rows) by provider (columns): was ${view.brand === '' ? 'the brand' : view.brand} named?</caption>
<thead><tr><th scope="col">Buyer question</th>${headers}</tr></thead>
<tbody>
${joinHtml(rows, '\n')}
</tbody>
<tfoot><tr><th scope="row">Per provider</th>${footCells}</tr></tfoot>
</table>`;

  const blocks: TrustedHtml[] = [];
  if (map.demo && !view.isDemo) blocks.push(html`<p class="report-banner report-banner-demo" role="note"><strong>${DEMO_BANNER_TEXT}.</strong></p>`);
  blocks.push(
    html`<p class="report-map-summary"><strong>${view.brand === '' ? 'The brand' : view.brand} ${questionsWonText(map.questionsWon, map.questions)}</strong>: named by at least one provider. ${map.answeredCells} answers${
      map.failedCells > 0 ? `, ${map.failedCells} failed calls` : ''
    }; each question asked once to each provider${map.measuredAt === null ? '' : html`, measured ${time(map.measuredAt)}`}.</p>`,
  );
  if (view.remeasuring !== null) {
    blocks.push(html`<p class="report-muted" role="status">${progressText('Re-measuring', view.remeasuring.completed, view.remeasuring.total)} The grid below is the previous measurement.</p>`);
  }
  blocks.push(tableWrap(captionId, table));
  return joinHtml(blocks, '\n');
}

function progressText(what: string, completed: number | null, total: number | null): string {
  if (completed !== null && total !== null && total > 0) return `${what}: ${completed} of ${total} answers stored.`;
  return `${what}…`;
}

function questionList(questions: string[]): TrustedHtml {
  if (questions.length === 0) return NONE;
  return html`<ol class="report-questions">\n${joinHtml(
    questions.map((question) => html`<li>${question}</li>`),
    '\n',
  )}\n</ol>`;
}

/** The map's earlier generations: each measurement stays visible, newest first, after the current grid. */
function historyHtml(view: ReportView, options: ReportHtmlOptions): TrustedHtml {
  const earlier = (options.mapHistory ?? []).filter((entry) => entry.generation !== view.map?.generation);
  if (earlier.length === 0) return NONE;
  const items = earlier.map((entry) => html`<li>Measurement ${entry.generation}, ${time(entry.completedAt)}: ${questionsWonText(entry.questionsWon, entry.questions)}</li>`);
  return html`\n<h3>Earlier measurements</h3>\n<ul class="report-map-history">${items}</ul>`;
}

/** The owner's button to measure the map again (one credit), or why it is not offered. */
function rerunHtml(view: ReportView, options: ReportHtmlOptions): TrustedHtml {
  if (view.remeasuring !== null) return NONE;
  const action = options.rerunAction;
  if (action === undefined) return NONE;
  if (action.credits < 1) return html`\n<p class="report-muted">Measuring again costs one credit; this account has none left.</p>`;
  return html`\n<form class="report-map-form" method="post" action="${action.formAction}"><input type="hidden" name="rerun" value="true"><button type="submit">${RERUN_ACTION_LABEL}</button> <span class="report-muted">${`${action.credits} credit${action.credits === 1 ? '' : 's'} left`}</span></form>`;
}

function mapPart(view: ReportView, prefix: string, options: ReportHtmlOptions): TrustedHtml {
  const id = `${prefix}-map`;
  const heading = 'Buyer questions by provider';
  if (view.map !== null) return part(id, heading, html`${gridHtml(view, view.map, prefix)}${historyHtml(view, options)}${rerunHtml(view, options)}`);
  const state = view.mapState;
  if (state.kind === 'running') {
    const progress =
      state.completed !== null && state.total !== null && state.total > 0
        ? html`\n<progress class="report-progress" max="${state.total}" value="${Math.min(state.completed, state.total)}">${`${state.completed} of ${state.total}`}</progress>`
        : NONE;
    return part(
      id,
      heading,
      html`<p role="status">${progressText('The buyer questions are being asked to every provider', state.completed, state.total)} Reload this page in a minute to see the grid.</p>${progress}\n${questionList(view.buyerQuestions)}`,
    );
  }
  if (state.kind === 'no_fanout') {
    return part(id, heading, html`<p>No buyer questions were generated for this audit${state.reason === null ? '.' : html`: ${state.reason}`}</p>`);
  }
  const form =
    options.mapAction === undefined
      ? NONE
      : html`\n<form class="report-map-form" method="post" action="${options.mapAction.formAction}"><button type="submit">${MAP_ACTION_LABEL}</button></form>`;
  return part(
    id,
    heading,
    html`<p>These buyer questions were generated for ${view.brand === '' ? 'the brand' : view.brand}. The grid of what every provider answers to each of them has not been measured yet.</p>\n${questionList(view.buyerQuestions)}${form}`,
  );
}

// ---------------------------------------------------------------------------------------------------

function nextStepsPart(view: ReportView, prefix: string): TrustedHtml {
  const id = `${prefix}-steps`;
  if (view.nextSteps.length === 0) return part(id, 'Next steps', html`<p>No next steps were derived for this snapshot.</p>`);
  const items = view.nextSteps.map(
    (step) => html`<li class="report-step report-step-${priorityClass(step.priority)}">
<h3>${step.title}</h3>
<p class="report-priority">${priorityLabel(step.priority)}</p>
${step.why === '' ? '' : html`<p><strong>Why:</strong> ${step.why}</p>`}
${step.how === '' ? '' : html`<p><strong>How:</strong> ${step.how}</p>`}
</li>`,
  );
  return part(id, 'Next steps', html`<ol class="report-steps">\n${joinHtml(items, '\n')}\n</ol>`);
}

function benchmarkPart(view: ReportView, prefix: string): TrustedHtml {
  const id = `${prefix}-benchmark`;
  const category = view.category === '' ? html`this category` : html`“${view.category}”`;
  const benchmark = view.benchmark;
  if (benchmark === null) return part(id, 'Category benchmark', html`<p>No other audits in ${category} to compare with yet.</p>`);
  const own =
    view.summary.measured && view.summary.score !== null ? html` ${view.brand === '' ? 'This brand' : view.brand} scores ${formatScore(view.summary.score)}.` : NONE;
  return part(
    id,
    'Category benchmark',
    html`<p>Across ${benchmark.audits} other audit${benchmark.audits === 1 ? '' : 's'} in ${category}, the average score is ${String(benchmark.averageScore)} and the median ${String(benchmark.medianScore)} (this brand excluded).${own}</p>`,
  );
}

/** Renders the report as an HTML fragment: one <section class="report">; every value escaped by the `html` template. */
export function renderReportHtml(view: ReportView, options: ReportHtmlOptions = {}): string {
  const prefix = reportIdPrefix(view);
  const headingId = `${prefix}-heading`;
  // The score chart is the service's own SVG (charts.ts escapes the names it draws).
  const scoreChart = renderScoreChart(view);
  const parts = [
    headline(view, headingId),
    scoreChart === '' ? NONE : part(`${prefix}-scores`, 'Score by provider', trustedHtml(scoreChart)),
    findingsPart(view, prefix),
    failedPart(view, prefix),
    competitorsPart(view, prefix),
    mapPart(view, prefix, options),
    nextStepsPart(view, prefix),
    benchmarkPart(view, prefix),
    html`<footer class="report-footer"><p>Measured ${time(view.createdAt)}${view.mode === null ? '' : ` with the ${view.mode} lineup`}. Audit <code>${view.auditId}</code>. <a href="/methodology">How this is measured</a>.</p></footer>`,
  ].filter((piece) => piece.html !== '');
  return html`<section class="report${view.isDemo ? ' report-demo' : ''}" aria-labelledby="${headingId}">\n${joinHtml(parts, '\n')}\n</section>\n`.html;
}
