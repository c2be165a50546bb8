// The report as markdown, for AI assistants reading /share/{token}.md. Same content as the HTML view.
// Untrusted text (brands, competitors, model ids, answers, reasons, crawl-derived steps) is escaped
// so it renders as the literal text: no links, images, HTML, headings or broken table cells.

import {
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
  notMeasuredText,
  oneLine,
  priorityLabel,
  questionsWonText,
  riskLabel,
} from './format.js';
import type { ReportView } from './report-model.js';

export interface ReportMarkdownOptions {
  /** Level of the report's title heading (1 by default; 2 when embedded under a page title). */
  headingLevel?: 1 | 2 | undefined;
}

/**
 * Escapes untrusted text for inline markdown (GFM), table cells included, as one line: every
 * character that can open markup is backslash-escaped, bare URLs and e-mail addresses are broken so no
 * autolink forms, `<` and `>` are escaped so no HTML passes, control characters are dropped.
 */
export function escapeMarkdown(text: string): string {
  let out = oneLine(text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/gu, ''));
  out = out.replace(/[\\`*_[\]<>|~&@!]/gu, '\\$&');
  // GFM autolinks: "https://…", "www.…".
  out = out.replace(/\b(https?|ftp|mailto|xmpp):/giu, '$1\\:').replace(/\bwww\./giu, 'www\\.');
  // Markup that only counts at the start of a line (a cell or list item starts one too).
  out = out.replace(/^([#+=-])/u, '\\$1').replace(/^(\d+)([.)])/u, '$1\\$2');
  return out;
}

const m = escapeMarkdown;

/** Untrusted text as an inline code span (no links, no HTML inside); not for table cells. */
export function markdownCode(text: string): string {
  const line = oneLine(text.replace(/[\u0000-\u001F\u007F]/gu, ' '));
  const longestRun = Math.max(0, ...(line.match(/`+/gu) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  return `${fence} ${line} ${fence}`;
}

function table(headers: string[], rows: string[][]): string {
  const line = (cells: string[]): string => `| ${cells.map((cell) => (cell === '' ? ' ' : cell)).join(' | ')} |`;
  return [line(headers), `|${headers.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

function brandName(view: ReportView, fallback = 'the brand'): string {
  return view.brand === '' ? fallback : m(view.brand);
}

function headline(view: ReportView, level: 1 | 2): string[] {
  const { summary } = view;
  const out: string[] = [];
  out.push(`${'#'.repeat(level)} ${brandName(view, 'Brand')}: AI visibility snapshot`, '');
  const category =
    view.categoryLocalized !== null && view.categoryLocalized !== view.category
      ? `${m(view.category)} (asked as “${m(view.categoryLocalized)}”${view.measurementLocale === null ? '' : `, ${m(view.measurementLocale)}`})`
      : m(view.category === '' ? 'not given' : view.category);
  out.push(`- Website: ${view.website === '' ? 'not given' : markdownCode(view.website)}`);
  out.push(`- Category: ${category}`);
  out.push(`- Measured: ${m(formatDateTime(view.createdAt))}`);
  if (view.mode !== null) out.push(`- Lineup: ${m(view.mode)}`);
  out.push('');
  if (view.isDemo) out.push(`> **${DEMO_BANNER_TEXT}.** The answers come from the built-in simulator (model ids starting with \`demo-\`).`, '');

  if (!summary.measured) {
    out.push(`**Not measured.** ${m(notMeasuredText(summary))}`, '');
    out.push(`This is not a score of 0: no provider answered, so nothing is known about whether assistants name ${brandName(view)}.`, '');
  } else {
    const confidence = confidenceLabel(summary.confidence);
    const score = formatScoreWithInterval(summary.score, summary.scoreInterval);
    out.push(`**Visibility score: ${m(score)}** out of 100 · ${m(riskLabel(summary.risk))}${confidence === null ? '' : ` · ${m(confidence)}`}`, '');
    out.push(m(measurementSentence(view)), '');
  }
  if (summary.degraded) out.push(`> ${m(degradedText(summary))} [How degraded snapshots work](${DEGRADED_HREF}).`, '');
  return out;
}

function findings(view: ReportView): string[] {
  const out = ['## Findings by provider', ''];
  if (view.findings.length === 0) return [...out, 'No provider answered, so there are no findings.', ''];
  const rows = view.findings.map((finding) => {
    const answers =
      finding.successfulSamples === null
        ? 'n/a'
        : `${finding.successfulSamples}${finding.samples === null ? '' : ` of ${finding.samples}`}${finding.failedSamples ? ` (${finding.failedSamples} failed)` : ''}`;
    return [
      m(finding.provider),
      m(modelLabel(finding.model, finding.demo || view.isDemo)),
      m(formatScoreWithInterval(finding.score, finding.scoreInterval)),
      m(formatRateWithInterval(finding.mentionRate, finding.mentionRateInterval)),
      m(formatPosition(finding.averagePosition)),
      finding.shareOfVoice === null ? 'n/a' : m(formatPercent(finding.shareOfVoice)),
      m(answers),
      m(finding.summary),
    ];
  });
  return [
    ...out,
    table(['Provider', 'Model', 'Score (95% CI)', 'Mention rate (95% CI)', 'Average position', 'Share of voice', 'Answers', 'Summary'], rows),
    '',
  ];
}

function failed(view: ReportView): string[] {
  if (view.failedProviders.length === 0) return [];
  const rows = view.failedProviders.map((failure) => [
    m(failure.provider),
    m(modelLabel(failure.model, failure.demo || view.isDemo)),
    'not measured',
    m(failure.reason),
    failure.failedSamples === null ? 'n/a' : String(failure.failedSamples),
  ]);
  return [
    '## Providers not measured',
    '',
    'These providers were asked but never answered. They are **not measured**, which is not the same as “not mentioned”: they have no score and do not count in the overall score.',
    '',
    table(['Provider', 'Model', 'Status', 'Reason', 'Failed calls'], rows),
    '',
  ];
}

function competitors(view: ReportView): string[] {
  const out = ['## Share of voice and competitors named instead', ''];
  const share = view.shareOfVoice;
  if (share !== null && share.totalAnswers > 0) {
    const parts = share.entries.map(
      (entry) => `${m(entry.name)}${entry.isBrand ? ' (audited brand)' : ''}: ${entry.mentions} of ${share.totalAnswers} (${formatPercent(entry.mentions / share.totalAnswers)})`,
    );
    out.push(`Answers naming each brand: ${parts.join('; ')}.`, '');
  }
  const listed = view.competitors.filter((competitor) => competitor.mentions > 0 || competitor.watched);
  if (listed.length === 0) {
    out.push(view.summary.measured ? 'No competitor was named in the answers.' : 'Not measured: no answers to count competitors in.', '');
    return out;
  }
  const rows = listed.map((competitor) => [
    String(competitor.rank),
    m(competitor.name),
    String(competitor.namedInstead),
    String(competitor.mentions),
    competitor.watched ? 'watched' : 'found in the answers',
  ]);
  return [...out, table(['Rank', 'Competitor', 'Answers naming it instead', 'Answers naming it', 'Source'], rows), ''];
}

function buyerQuestions(view: ReportView): string[] {
  const out = ['## Buyer questions by provider', ''];
  const map = view.map;
  if (map !== null) {
    if (map.demo && !view.isDemo) out.push(`> **${DEMO_BANNER_TEXT}.**`, '');
    out.push(
      `**${brandName(view, 'The brand')} ${questionsWonText(map.questionsWon, map.questions)}** (named by at least one provider); ` +
        `${map.answeredCells} answers${map.failedCells > 0 ? `, ${map.failedCells} failed calls` : ''}, each question asked once to each provider` +
        `${map.measuredAt === null ? '' : `, measured ${m(formatDateTime(map.measuredAt))}`}.`,
      '',
    );
    if (view.remeasuring !== null) out.push('A re-measurement is running; this grid is the previous measurement.', '');
    const headers = ['Buyer question', ...map.providers.map(({ provider, model }) => `${m(provider)} (${m(modelLabel(model, map.demo))})`)];
    const rows = map.rows.map((row) => [m(row.question), ...row.cells.map((cell) => m(mapCellText(cell)))]);
    const foot = [
      '**Per provider**',
      ...map.providers.map(({ provider }) => m(mapProviderSummaryText(map.providerSummaries.find((item) => item.provider === provider)))),
    ];
    return [...out, table(headers, [...rows, foot]), ''];
  }
  const state = view.mapState;
  const list = view.buyerQuestions.map((question, index) => `${index + 1}. ${m(question)}`);
  if (state.kind === 'running') {
    const progress = state.completed !== null && state.total !== null ? ` ${state.completed} of ${state.total} answers stored.` : '';
    return [...out, `The buyer questions are being asked to every provider.${progress}`, '', ...list, ''];
  }
  if (state.kind === 'no_fanout') {
    return [...out, `No buyer questions were generated for this audit${state.reason === null ? '.' : `: ${m(state.reason)}`}`, ''];
  }
  return [...out, 'These buyer questions were generated; the grid of what every provider answers to them has not been measured yet.', '', ...list, ''];
}

function nextSteps(view: ReportView): string[] {
  const out = ['## Next steps', ''];
  if (view.nextSteps.length === 0) return [...out, 'No next steps were derived for this snapshot.', ''];
  view.nextSteps.forEach((step, index) => {
    out.push(`${index + 1}. **${m(step.title)}** (${m(priorityLabel(step.priority))})`);
    if (step.why !== '') out.push('', `   Why: ${m(step.why)}`);
    if (step.how !== '') out.push('', `   How: ${m(step.how)}`);
    out.push('');
  });
  return out;
}

function benchmark(view: ReportView): string[] {
  const out = ['## Category benchmark', ''];
  const category = view.category === '' ? 'this category' : `“${m(view.category)}”`;
  const b = view.benchmark;
  if (b === null) return [...out, `No other audits in ${category} to compare with yet.`, ''];
  const own = view.summary.measured && view.summary.score !== null ? ` ${brandName(view, 'This brand')} scores ${formatScore(view.summary.score)}.` : '';
  return [
    ...out,
    `Across ${b.audits} other audit${b.audits === 1 ? '' : 's'} in ${category}, the average score is ${b.averageScore} and the median ${b.medianScore} (this brand excluded).${own}`,
    '',
  ];
}

/** Renders the report as markdown; every untrusted value escaped with {@link escapeMarkdown}. */
export function renderReportMarkdown(view: ReportView, options: ReportMarkdownOptions = {}): string {
  const lines = [
    ...headline(view, options.headingLevel ?? 1),
    ...findings(view),
    ...failed(view),
    ...competitors(view),
    ...buyerQuestions(view),
    ...nextSteps(view),
    ...benchmark(view),
    `Measured ${m(formatDateTime(view.createdAt))}. Audit ${m(view.auditId)}. How this is measured: [methodology](/methodology).`,
    '',
  ];
  return lines.join('\n');
}
