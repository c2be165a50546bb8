// Server-rendered inline SVG charts of a report: no scripts, no inline styles (colours come from CSS
// classes over the site's custom properties, with presentation-attribute fallbacks), text in
// currentColor. Each chart is a <figure> with an accessible SVG (role="img", <title>, <desc>) followed
// by a visually hidden <table> carrying the same numbers. Every piece of text is escaped by the `html`
// template (SVG is XML: the same five characters): brands, competitors, model ids and reasons come from
// users, models and crawled sites.

import { html, type TrustedHtml } from '../html-text.js';
import {
  DEMO_BANNER_TEXT,
  formatPercent,
  mentionChartTitle,
  formatScore,
  formatScoreWithInterval,
  modelLabel,
  oneLine,
  truncate,
} from './format.js';
import type { ReportView } from './report-model.js';

const WIDTH = 640;
const BAR_X = 200;
const BAR_WIDTH = 330;
const VALUE_X = BAR_X + BAR_WIDTH + 8;
const AXIS_HEIGHT = 28;
const DEMO_LINE_HEIGHT = 24;
const TICKS = [0, 25, 50, 75, 100];

/** A prefix for the ids of one report's elements (SVG titles, patterns, captions), safe in any id. */
export function reportIdPrefix(view: Pick<ReportView, 'auditId'>): string {
  const safe = view.auditId.replace(/[^A-Za-z0-9_-]/gu, '').slice(0, 36);
  return `report-${safe === '' ? 'x' : safe}`;
}

/** Single-line, optionally truncated text for SVG <text> content (escaped where it is inserted). */
function svgText(text: string, max?: number): string {
  const line = oneLine(text);
  return max === undefined ? line : truncate(line, max);
}

function round1(value: number): string {
  return String(Math.round(value * 10) / 10);
}

function clamp(value: number, low = 0, high = 100): number {
  return Math.min(high, Math.max(low, value));
}

/** x of a 0..100 value on the bar scale. */
function scaleX(value: number): number {
  return BAR_X + (clamp(value) / 100) * BAR_WIDTH;
}

function axis(top: number, bottom: number, tickSuffix: string): TrustedHtml {
  const lines = TICKS.map((tick) => {
    const x = round1(scaleX(tick));
    return html`<line class="report-chart-grid" x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" stroke="currentColor" stroke-opacity="0.25"/>`;
  });
  const labels = TICKS.map(
    (tick) =>
      html`<text class="report-chart-tick" x="${round1(scaleX(tick))}" y="${bottom + 18}" text-anchor="middle" font-size="12" fill="currentColor">${tick}${tickSuffix}</text>`,
  );
  return html`<g aria-hidden="true">${lines}${labels}</g>`;
}

function svgOpen(idPrefix: string, height: number, title: string, desc: string, extraClass: string): TrustedHtml {
  return html`<svg class="report-chart-svg ${extraClass}" xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="${idPrefix}-title ${idPrefix}-desc" viewBox="0 0 ${WIDTH} ${height}" width="100%" preserveAspectRatio="xMinYMin meet" focusable="false"><title id="${idPrefix}-title">${title}</title><desc id="${idPrefix}-desc">${desc}</desc>`;
}

function demoLine(y: number): TrustedHtml {
  return html`<text class="report-chart-demo" x="0" y="${y}" font-size="13" font-weight="600" fill="currentColor">${DEMO_BANNER_TEXT}</text>`;
}

const NONE = html``;

// ---------------------------------------------------------------------------------------------------
// (a) Score by provider

interface ScoreRow {
  kind: 'overall' | 'finding' | 'failed';
  label: string;
  sublabel: string;
  score: number | null;
  interval: readonly [number, number] | null;
  reason: string | null;
}

function scoreRows(view: ReportView): ScoreRow[] {
  const rows: ScoreRow[] = [];
  const { summary } = view;
  if (summary.measured && summary.score !== null && view.findings.length > 1) {
    const answers = summary.successfulSamples ?? view.findings.reduce((sum, finding) => sum + (finding.successfulSamples ?? 0), 0);
    rows.push({
      kind: 'overall',
      label: 'All providers',
      sublabel: `${answers} answers pooled`,
      score: summary.score,
      interval: summary.scoreInterval,
      reason: null,
    });
  }
  for (const finding of view.findings) {
    rows.push({
      kind: 'finding',
      label: finding.provider,
      sublabel: modelLabel(finding.model, finding.demo || view.isDemo),
      score: finding.score,
      interval: finding.scoreInterval,
      reason: finding.score === null ? 'no score stored' : null,
    });
  }
  for (const failure of view.failedProviders) {
    rows.push({
      kind: 'failed',
      label: failure.provider,
      sublabel: modelLabel(failure.model, failure.demo || view.isDemo),
      score: null,
      interval: null,
      reason: failure.reason,
    });
  }
  return rows;
}

function scoreChartDescription(view: ReportView, rows: ScoreRow[]): string {
  const parts = rows.map((row) => {
    const who = row.kind === 'overall' ? 'All providers pooled' : `${row.label} (${row.sublabel})`;
    if (row.score === null) return `${who}: not measured, ${oneLine(row.reason ?? 'no answer')}.`;
    return `${who}: score ${formatScoreWithInterval(row.score, row.interval)}.`;
  });
  const demo = view.isDemo ? `${DEMO_BANNER_TEXT}. ` : '';
  return `${demo}Visibility score from 0 to 100 per provider, with the 95% interval as a whisker. ${parts.join(' ')}`;
}

/** Per-provider score bars (0..100) with the 95% interval as a whisker; failed providers as hatched "not measured" rows. */
export function renderScoreChart(view: ReportView): string {
  const rows = scoreRows(view);
  if (rows.length === 0) return '';
  const idPrefix = `${reportIdPrefix(view)}-score`;
  const rowHeight = 48;
  const top = view.isDemo ? DEMO_LINE_HEIGHT + 4 : 4;
  const bottom = top + rows.length * rowHeight;
  const height = bottom + AXIS_HEIGHT;
  const title = `Visibility score by provider, 0 to 100${view.isDemo ? ' (demo lineup)' : ''}`;
  const hatchId = `${idPrefix}-hatch`;

  const body = rows.map((row, index) => {
    const y = top + index * rowHeight;
    const labelClass = row.kind === 'overall' ? 'report-chart-label report-chart-label-overall' : 'report-chart-label';
    const labels = html`<text class="${labelClass}" x="0" y="${y + 19}" font-size="14" font-weight="600" fill="currentColor">${svgText(row.label, 26)}</text><text class="report-chart-sublabel" x="0" y="${y + 37}" font-size="12" fill="currentColor">${svgText(row.sublabel, 30)}</text>`;
    if (row.score === null) {
      return html`<g class="report-chart-row report-chart-row-missing">${labels}<rect class="report-bar-missing" x="${BAR_X}" y="${y + 8}" width="${BAR_WIDTH}" height="14" fill="url(#${hatchId})" stroke="currentColor" stroke-opacity="0.6" stroke-dasharray="4 3"/><text class="report-chart-reason" x="${BAR_X}" y="${y + 40}" font-size="12" fill="currentColor">${svgText(`Not measured: ${row.reason ?? 'no answer'}`, 64)}</text><text class="report-chart-value" x="${VALUE_X}" y="${y + 26}" font-size="13" fill="currentColor">n/a</text></g>`;
    }
    const barClass = row.kind === 'overall' ? 'report-bar report-bar-overall' : 'report-bar';
    const width = round1(scaleX(row.score) - BAR_X);
    let whisker = NONE;
    let value = formatScore(row.score);
    if (row.interval !== null) {
      const [low, high] = row.interval;
      const x1 = round1(scaleX(low));
      const x2 = round1(scaleX(high));
      const mid = y + 21;
      whisker = html`<g class="report-whisker" stroke="currentColor" stroke-width="2"><line x1="${x1}" y1="${mid}" x2="${x2}" y2="${mid}"/><line x1="${x1}" y1="${mid - 7}" x2="${x1}" y2="${mid + 7}"/><line x1="${x2}" y1="${mid - 7}" x2="${x2}" y2="${mid + 7}"/></g>`;
      value = `${formatScore(row.score)} (${formatScore(low)}–${formatScore(high)})`;
    }
    return html`<g class="report-chart-row">${labels}<rect class="${barClass}" x="${BAR_X}" y="${y + 10}" width="${width}" height="22" fill="currentColor" fill-opacity="0.35"/>${whisker}<text class="report-chart-value" x="${VALUE_X}" y="${y + 26}" font-size="13" fill="currentColor">${value}</text></g>`;
  });

  const defs = html`<defs><pattern id="${hatchId}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line class="report-hatch-line" x1="0" y1="0" x2="0" y2="6" stroke="currentColor" stroke-opacity="0.45" stroke-width="2"/></pattern></defs>`;

  const svg = html`${svgOpen(idPrefix, height, title, scoreChartDescription(view, rows), 'report-chart-score')}${defs}${view.isDemo ? demoLine(16) : NONE}${axis(top, bottom, '')}${body}</svg>`;

  const tableRows = rows
    .map((row) => {
      const who = row.kind === 'overall' ? 'All providers' : row.label;
      const score = row.score === null ? 'not measured' : formatScore(row.score);
      const ci = row.interval === null ? '' : `${formatScore(row.interval[0])}–${formatScore(row.interval[1])}`;
      const status = row.score === null ? `not measured: ${row.reason ?? 'no answer'}` : 'measured';
      return html`<tr><th scope="row">${who}</th><td>${row.sublabel}</td><td>${score}</td><td>${ci}</td><td>${status}</td></tr>`;
    });
  const table = html`<table class="report-sr-only"><caption>${title}: data</caption><thead><tr><th scope="col">Provider</th><th scope="col">Model</th><th scope="col">Score</th><th scope="col">95% interval</th><th scope="col">Status</th></tr></thead><tbody>${tableRows}</tbody></table>`;

  return chartFigure(idPrefix, svg, table).html;
}

/**
 * The chart in a figure: the SVG in a keyboard-focusable region that scrolls sideways when the screen
 * is too narrow for its text (the CSS gives the SVG a minimum width), then the data table.
 */
function chartFigure(idPrefix: string, svg: TrustedHtml, table: TrustedHtml): TrustedHtml {
  return html`<figure class="report-chart"><div class="report-chart-scroll" role="region" aria-labelledby="${idPrefix}-title" tabindex="0">${svg}</div>${table}</figure>`;
}

// ---------------------------------------------------------------------------------------------------
// (b) Share of voice

/**
 * Horizontal bars: the mention rate of the brand and its top competitors (answers naming each ÷ successful
 * answers). Its title says so: share of voice (mentions ÷ all brand mentions) is a different figure, in the tables.
 */
export function renderShareOfVoiceChart(view: ReportView): string {
  const share = view.shareOfVoice;
  if (share === null || share.totalAnswers <= 0) return '';
  const idPrefix = `${reportIdPrefix(view)}-sov`;
  const rowHeight = 36;
  const top = view.isDemo ? DEMO_LINE_HEIGHT + 4 : 4;
  const bottom = top + share.entries.length * rowHeight;
  const height = bottom + AXIS_HEIGHT;
  const title = `${mentionChartTitle(oneLine(view.brand), share.totalAnswers)}${view.isDemo ? ' (demo lineup)' : ''}`;

  const percentOf = (mentions: number): number => (mentions / share.totalAnswers) * 100;
  const body = share.entries.map((entry, index) => {
    const y = top + index * rowHeight;
    const pct = percentOf(entry.mentions);
    const barClass = entry.isBrand ? 'report-bar report-bar-brand' : 'report-bar report-bar-competitor';
    const labelClass = entry.isBrand ? 'report-chart-label report-chart-label-brand' : 'report-chart-label';
    const value = `${entry.mentions} of ${share.totalAnswers} (${formatPercent(entry.mentions / share.totalAnswers)})`;
    const weight = entry.isBrand ? html` font-weight="700"` : NONE;
    return html`<g class="report-chart-row"><text class="${labelClass}" x="0" y="${y + 22}" font-size="14"${weight} fill="currentColor">${svgText(entry.name, 26)}</text><rect class="${barClass}" x="${BAR_X}" y="${y + 7}" width="${round1(scaleX(pct) - BAR_X)}" height="20" fill="currentColor" fill-opacity="${entry.isBrand ? '0.6' : '0.3'}"/><text class="report-chart-value" x="${VALUE_X}" y="${y + 22}" font-size="12" fill="currentColor">${value}</text></g>`;
  });

  const [brandEntry, ...competitorEntries] = share.entries;
  const brandText = brandEntry === undefined ? '' : `${oneLine(brandEntry.name)} was named in ${brandEntry.mentions} (${formatPercent(brandEntry.mentions / share.totalAnswers)}).`;
  const competitorText =
    competitorEntries.length === 0
      ? 'No competitor was named.'
      : `Competitors: ${competitorEntries
          .map((entry) => `${oneLine(entry.name)} named in ${entry.mentions} (${formatPercent(entry.mentions / share.totalAnswers)}), instead of the brand in ${entry.namedInstead ?? 0}`)
          .join('; ')}.`;
  const desc = `${view.isDemo ? `${DEMO_BANNER_TEXT}. ` : ''}Out of ${share.totalAnswers} successful answers across providers, ${brandText} ${competitorText}`;

  const svg = html`${svgOpen(idPrefix, height, title, desc, 'report-chart-sov')}${view.isDemo ? demoLine(16) : NONE}${axis(top, bottom, '%')}${body}</svg>`;

  const tableRows = share.entries
    .map((entry) => {
      const who = entry.isBrand ? `${entry.name} (audited brand)` : entry.name;
      return html`<tr><th scope="row">${who}</th><td>${entry.mentions} of ${share.totalAnswers}</td><td>${formatPercent(entry.mentions / share.totalAnswers)}</td><td>${entry.namedInstead === null ? '–' : entry.namedInstead}</td></tr>`;
    });
  const table = html`<table class="report-sr-only"><caption>${title}: data</caption><thead><tr><th scope="col">Brand</th><th scope="col">Answers naming it</th><th scope="col">Mention rate</th><th scope="col">Named instead of the brand</th></tr></thead><tbody>${tableRows}</tbody></table>`;

  return chartFigure(idPrefix, svg, table).html;
}
