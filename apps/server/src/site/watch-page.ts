// The watch page (/watches/{id}): the trend per provider as server-rendered SVG (the 95% interval as a band,
// the rate as a line, real changes marked), the latest competitors, the runs and a CSV link; and its
// markdown view. Brand, category, competitors, questions, reasons and model ids are untrusted: every value
// goes through escapeHtml (HTML and SVG) or md`` (markdown), as on the report page.

import { describeChange, escapeHtml, type HistoryPoint, type WatchAlertTryRecord, type WatchChange, type WatchHistory } from '@visibility/core';
import { markdownLines, md, trustedMarkdown, type TrustedMarkdown } from './markdown-text.js';

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 44;
const RIGHT = 16;
const TOP = 14;
const BOTTOM = 30;

const pct = (rate: number | null | undefined): string => (rate === null || rate === undefined ? 'n/a' : `${Math.round(rate * 100)}%`);
const round1 = (value: number): string => String(Math.round(value * 10) / 10);

interface SeriesPoint {
  at: string;
  runId: string;
  rate: number | null;
  low: number;
  high: number;
}

function seriesOf(points: readonly HistoryPoint[], provider: string): SeriesPoint[] {
  return points.map((point) => {
    if (provider === 'overall') return { at: point.at, runId: point.runId, rate: point.overall.mentionRate, low: point.overall.low, high: point.overall.high };
    const entry = point.providers[provider as keyof HistoryPoint['providers']];
    return { at: point.at, runId: point.runId, rate: entry?.mentionRate ?? null, low: entry?.low ?? 0, high: entry?.high ?? 1 };
  });
}

/** One trend chart: x is the run (in time order), y the share of answers naming the brand, 0 to 100%. */
export function trendChartSvg(idPrefix: string, label: string, series: readonly SeriesPoint[], changes: readonly WatchChange[]): string {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (index: number): number => LEFT + (series.length <= 1 ? plotWidth / 2 : (index / (series.length - 1)) * plotWidth);
  const y = (rate: number): number => TOP + (1 - Math.min(1, Math.max(0, rate))) * plotHeight;
  const titleId = `${idPrefix}-title`;
  const descId = `${idPrefix}-desc`;
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (tick) =>
        `<line x1="${LEFT}" y1="${round1(y(tick))}" x2="${WIDTH - RIGHT}" y2="${round1(y(tick))}" stroke="currentColor" stroke-opacity="0.2"/><text x="${LEFT - 6}" y="${round1(y(tick) + 4)}" text-anchor="end" font-size="11" fill="currentColor">${tick * 100}%</text>`,
    )
    .join('');
  const measured = series.map((point, index) => ({ ...point, index })).filter((point) => point.rate !== null);
  const band =
    measured.length === 0
      ? ''
      : `<polygon points="${[...measured.map((point) => `${round1(x(point.index))},${round1(y(point.high))}`), ...[...measured].reverse().map((point) => `${round1(x(point.index))},${round1(y(point.low))}`)].join(' ')}" fill="currentColor" fill-opacity="0.15" stroke="none"><title>95% interval</title></polygon>`;
  const line =
    measured.length < 2 ? '' : `<polyline points="${measured.map((point) => `${round1(x(point.index))},${round1(y(point.rate as number))}`).join(' ')}" fill="none" stroke="currentColor" stroke-width="2"/>`;
  const dots = measured
    .map(
      (point) =>
        `<circle cx="${round1(x(point.index))}" cy="${round1(y(point.rate as number))}" r="3.5" fill="currentColor"><title>${escapeHtml(`${point.at.slice(0, 10)}: ${pct(point.rate)} (95% interval ${pct(point.low)}–${pct(point.high)})`)}</title></circle>`,
    )
    .join('');
  const marks = changes
    .map((change) => {
      const index = series.findIndex((point) => point.runId === change.runId);
      if (index === -1) return '';
      const cx = round1(x(index));
      return `<g><line x1="${cx}" y1="${TOP}" x2="${cx}" y2="${TOP + plotHeight}" stroke="currentColor" stroke-width="1.5" stroke-dasharray="4 3"/><text x="${cx}" y="${TOP + 10}" text-anchor="middle" font-size="14" fill="currentColor">${change.direction === 'up' ? '▲' : '▼'}</text><title>${escapeHtml(`Real change: ${pct(change.from)} → ${pct(change.to)} (p = ${change.pValue})`)}</title></g>`;
    })
    .join('');
  const first = series[0]?.at.slice(0, 10) ?? '';
  const last = series.at(-1)?.at.slice(0, 10) ?? '';
  const axis = `<text x="${LEFT}" y="${HEIGHT - 8}" font-size="11" fill="currentColor">${escapeHtml(first)}</text><text x="${WIDTH - RIGHT}" y="${HEIGHT - 8}" text-anchor="end" font-size="11" fill="currentColor">${escapeHtml(last)}</text>`;
  const description = `${series.length} runs from ${first} to ${last}; latest ${pct(series.at(-1)?.rate)}; ${changes.length} real change${changes.length === 1 ? '' : 's'} marked.`;
  return `<figure class="report-chart"><div class="report-chart-scroll" role="region" aria-labelledby="${titleId}" tabindex="0"><svg class="report-chart-svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${titleId} ${descId}" xmlns="http://www.w3.org/2000/svg"><title id="${titleId}">${escapeHtml(label)}</title><desc id="${descId}">${escapeHtml(description)}</desc>${grid}${band}${line}${dots}${marks}${axis}</svg></div><figcaption>${escapeHtml(label)}: the line is the share of answers naming the brand, the band its 95% interval, ▲/▼ a change the data say is real.</figcaption></figure>`;
}

/** The page body (inside the layout). */
export function renderWatchHtml(history: WatchHistory, alertLog: readonly WatchAlertTryRecord[] = []): string {
  const { watch, points, changes, skipped } = history;
  const prefix = `watch-${watch.id.replace(/[^A-Za-z0-9-]/g, '')}`;
  const providers = ['overall', ...watch.providers];
  const latest = points.at(-1);
  const parts: string[] = [];
  parts.push(`<dl class="facts">
<dt>Category</dt><dd>${escapeHtml(watch.category)}</dd>
<dt>Schedule</dt><dd>${escapeHtml(watch.schedule)}${watch.paused ? ' (paused)' : ''}; next run ${escapeHtml(watch.nextRunAt.slice(0, 16).replace('T', ' '))} UTC</dd>
<dt>Asked</dt><dd>${watch.questions.length} buyer questions × ${escapeHtml(watch.providers.join(', '))} × ${watch.samples} per run</dd>
<dt>Alerts</dt><dd>${watch.alert.email ? 'email' : 'no email'}${watch.alert.webhookUrl === null ? '' : `, webhook ${escapeHtml(watch.alert.webhookUrl)}`}</dd>
</dl>`);
  if (latest?.mode === 'demo') parts.push('<p class="notice" role="status">These runs use demo answers from the built-in simulator, not what real models said.</p>');
  if (history.running !== null) parts.push('<p class="notice" role="status">A run is measuring now.</p>');
  parts.push('<h2>Trend</h2>');
  if (points.length === 0) parts.push('<p>No run has measured anything yet. The first run is due at the time above.</p>');
  else {
    for (const provider of providers) {
      const label = provider === 'overall' ? 'All providers' : provider;
      parts.push(trendChartSvg(`${prefix}-${provider}`, label, seriesOf(points, provider), changes.filter((change) => change.provider === provider && change.competitor === undefined)));
    }
  }
  parts.push('<h2>Changes that are real</h2>');
  parts.push(
    changes.length === 0
      ? '<p>None: the differences between runs are within what chance alone produces (see <a href="/methodology">methodology</a>).</p>'
      : `<ul>${changes.map((change) => `<li><time datetime="${escapeHtml(change.at)}">${escapeHtml(change.at.slice(0, 10))}</time>: ${escapeHtml(describeChange(change, watch.brand))}</li>`).join('')}</ul>`,
  );
  parts.push('<h2>Competitors in the latest run</h2>');
  parts.push(
    latest === undefined || latest.topCompetitors.length === 0
      ? '<p>None named yet.</p>'
      : `<ol>${latest.topCompetitors.map((competitor) => `<li>${escapeHtml(competitor.name)} <span class="meta">(${competitor.mentions} answers)</span></li>`).join('')}</ol>`,
  );
  parts.push('<h2>Runs</h2>');
  const rows = [
    ...points.map((point) => ({
      at: point.at,
      html: `<tr><td><time datetime="${escapeHtml(point.at)}">${escapeHtml(point.at.slice(0, 16).replace('T', ' '))}</time></td><td>${escapeHtml(point.mode)}</td><td class="number">${pct(point.overall.mentionRate)} <span class="meta">(${pct(point.overall.low)}–${pct(point.overall.high)})</span></td>${watch.providers
        .map((provider) => `<td class="number">${pct(point.providers[provider]?.mentionRate)}</td>`)
        .join('')}<td class="number">${point.overall.answers}</td><td class="number">$${point.costUsd.toFixed(4)}</td></tr>`,
    })),
    ...skipped.map((run) => ({
      at: run.at,
      html: `<tr><td><time datetime="${escapeHtml(run.at)}">${escapeHtml(run.at.slice(0, 16).replace('T', ' '))}</time></td><td colspan="${watch.providers.length + 4}">${escapeHtml(run.status)}: ${escapeHtml(run.reason ?? '')}</td></tr>`,
    })),
  ].sort((left, right) => left.at.localeCompare(right.at));
  parts.push(`<div class="table-scroll" role="region" aria-labelledby="${prefix}-runs" tabindex="0"><table>
<caption id="${prefix}-runs">Every run, oldest first: the share of answers naming ${escapeHtml(watch.brand)} with its 95% interval.</caption>
<thead><tr><th scope="col">Run (UTC)</th><th scope="col">Mode</th><th scope="col" class="number">All providers</th>${watch.providers.map((provider) => `<th scope="col" class="number">${escapeHtml(provider)}</th>`).join('')}<th scope="col" class="number">Answers</th><th scope="col" class="number">Cost</th></tr></thead>
<tbody>
${rows.map((row) => row.html).join('\n')}
</tbody>
</table></div>`);
  parts.push(`<p><a href="/api/watches/${escapeHtml(watch.id)}/history?format=csv">Download the history as CSV</a> · <a href="/watches/${escapeHtml(watch.id)}.md">Markdown</a></p>`);
  if (alertLog.length > 0) {
    parts.push('<h2>Alerts sent</h2>');
    parts.push(
      `<ul>${alertLog
        .map((entry) => `<li>${escapeHtml(entry.triedAt.slice(0, 16).replace('T', ' '))} ${escapeHtml(entry.channel)} try ${entry.tryNumber}: ${entry.ok ? 'delivered' : `failed (${escapeHtml(entry.error ?? String(entry.httpStatus ?? ''))})`}</li>`)
        .join('')}</ul>`,
    );
  }
  parts.push(`<h2>Questions asked</h2><ol>${watch.questions.map((question) => `<li>${escapeHtml(question)}</li>`).join('')}</ol>`);
  return `${parts.join('\n')}\n`;
}

/** The markdown view of the watch. */
export function renderWatchMarkdown(history: WatchHistory, baseUrl: string): string {
  const { watch, points, changes, skipped } = history;
  const lines: Array<TrustedMarkdown | ''> = [md`# Watch: ${watch.brand}`, '', md`- Category: ${watch.category}`, md`- Schedule: ${watch.schedule}${watch.paused ? ' (paused)' : ''}, next run ${watch.nextRunAt}`];
  lines.push(md`- Asked per run: ${watch.questions.length} buyer questions × ${watch.providers.join(', ')} × ${watch.samples}`);
  if (points.at(-1)?.mode === 'demo') lines.push(md`- Demo answers from the built-in simulator, not what real models said.`);
  lines.push('', md`## Runs`, '');
  lines.push(trustedMarkdown(`| Run (UTC) | Mode | All providers | 95% interval | ${watch.providers.map((provider) => md`${provider}`.markdown).join(' | ')} | Answers |`));
  lines.push(trustedMarkdown(`|---|---|---|---|${watch.providers.map(() => '---|').join('')}---|`));
  for (const point of points) {
    lines.push(
      md`| ${point.at} | ${point.mode} | ${pct(point.overall.mentionRate)} | ${pct(point.overall.low)}–${pct(point.overall.high)} | ${trustedMarkdown(watch.providers.map((provider) => md`${pct(point.providers[provider]?.mentionRate)}`.markdown).join(' | '))} | ${point.overall.answers} |`,
    );
  }
  for (const run of skipped) lines.push(md`- ${run.status} run at ${run.at}: ${run.reason ?? ''}`);
  lines.push('', md`## Changes that are real`, '');
  if (changes.length === 0) lines.push(md`None: the differences between runs are within noise.`);
  for (const change of changes) lines.push(md`- ${change.at.slice(0, 10)}: ${describeChange(change, watch.brand)}`);
  const latest = points.at(-1);
  lines.push('', md`## Competitors in the latest run`, '');
  if (latest === undefined || latest.topCompetitors.length === 0) lines.push(md`None named yet.`);
  for (const competitor of latest?.topCompetitors ?? []) lines.push(md`- ${competitor.name} (${competitor.mentions} answers)`);
  lines.push('', md`CSV: ${trustedMarkdown(baseUrl)}/api/watches/${watch.id}/history?format=csv`, '');
  return markdownLines(lines);
}
