// The report as markdown, for AI assistants reading /share/{token}.md. Same content as the HTML view.
// Every line is built with the `md` tagged template, so untrusted text (brands, competitors, model ids,
// answers, reasons, crawl-derived steps) is escaped by construction and renders as the literal text:
// no links, images, HTML, code, headings or broken table cells.

import {
  confidenceLabel,
  DEGRADED_HREF,
  degradedText,
  DEMO_BANNER_TEXT,
  formatDateTime,
  formatPercent,
  formatShare,
  competitorDefinitions,
  competitorSections,
  mentionChartTitle,
  nobodyInsteadText,
  formatPosition,
  formatRateWithInterval,
  formatScore,
  formatScoreWithInterval,
  mapCellText,
  mapProviderSummaryText,
  measurementSentence,
  modelLabel,
  notMeasuredText,
  priorityLabel,
  questionsWonText,
  riskLabel,
} from './format.js';
import { md, markdownLines, trustedMarkdown, type TrustedMarkdown } from '../markdown-text.js';
import type { ReportCompetitor, ReportView } from './report-model.js';

export { escapeMarkdown } from '../markdown-text.js';

export interface ReportMarkdownOptions {
  /** Level of the report's title heading (1 by default; 2 when embedded under a page title). */
  headingLevel?: 1 | 2 | undefined;
}

type Lines = Array<TrustedMarkdown | ''>;

function table(headers: TrustedMarkdown[], rows: TrustedMarkdown[][]): TrustedMarkdown {
  const line = (cells: TrustedMarkdown[]): string => `| ${cells.map((cell) => (cell.markdown === '' ? ' ' : cell.markdown)).join(' | ')} |`;
  return trustedMarkdown([line(headers), `|${headers.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n'));
}

function brandName(view: ReportView, fallback = 'the brand'): TrustedMarkdown {
  return view.brand === '' ? trustedMarkdown(fallback) : md`${view.brand}`;
}

function headline(view: ReportView, level: 1 | 2): Lines {
  const { summary } = view;
  const out: Lines = [];
  out.push(md`${trustedMarkdown('#'.repeat(level))} ${brandName(view, 'Brand')}: AI visibility snapshot`, '');
  const category =
    view.categoryLocalized !== null && view.categoryLocalized !== view.category
      ? md`${view.category} (asked as “${view.categoryLocalized}”${view.measurementLocale === null ? '' : md`, ${view.measurementLocale}`})`
      : md`${view.category === '' ? 'not given' : view.category}`;
  out.push(md`- Website: ${view.website === '' ? 'not given' : view.website}`);
  out.push(md`- Category: ${category}`);
  out.push(md`- Measured: ${formatDateTime(view.createdAt)}`);
  if (view.mode !== null) out.push(md`- Lineup: ${view.mode}`);
  out.push('');
  if (view.isDemo) out.push(md`> **${DEMO_BANNER_TEXT}.** The answers come from the built-in simulator (model ids starting with \`demo-\`).`, '');

  if (!summary.measured) {
    out.push(md`**Not measured.** ${notMeasuredText(summary)}`, '');
    out.push(md`This is not a score of 0: no provider answered, so nothing is known about whether assistants name ${brandName(view)}.`, '');
  } else {
    const confidence = confidenceLabel(summary.confidence);
    const score = formatScoreWithInterval(summary.score, summary.scoreInterval);
    out.push(md`**Visibility score: ${score}** out of 100 · ${riskLabel(summary.risk)}${confidence === null ? '' : md` · ${confidence}`}`, '');
    out.push(md`${measurementSentence(view)}`, '');
  }
  if (summary.degraded) out.push(md`> ${degradedText(summary)} [How degraded snapshots work](${trustedMarkdown(DEGRADED_HREF)}).`, '');
  return out;
}

function findings(view: ReportView): Lines {
  const out: Lines = [md`## Findings by provider`, ''];
  if (view.findings.length === 0) return [...out, md`No provider answered, so there are no findings.`, ''];
  const rows = view.findings.map((finding) => {
    const answers =
      finding.successfulSamples === null
        ? 'n/a'
        : `${finding.successfulSamples}${finding.samples === null ? '' : ` of ${finding.samples}`}${finding.failedSamples ? ` (${finding.failedSamples} failed)` : ''}`;
    return [
      md`${finding.provider}`,
      md`${modelLabel(finding.model, finding.demo || view.isDemo)}`,
      md`${formatScoreWithInterval(finding.score, finding.scoreInterval)}`,
      md`${formatRateWithInterval(finding.mentionRate, finding.mentionRateInterval)}`,
      md`${formatPosition(finding.averagePosition)}`,
      md`${finding.shareOfVoice === null ? 'n/a' : formatPercent(finding.shareOfVoice)}`,
      md`${answers}`,
      md`${finding.summary}`,
    ];
  });
  const headers = ['Provider', 'Model', 'Score (95% CI)', 'Mention rate (95% CI)', 'Average position', 'Share of voice', 'Answers', 'Summary'];
  return [...out, table(headers.map((header) => md`${header}`), rows), ''];
}

function failed(view: ReportView): Lines {
  if (view.failedProviders.length === 0) return [];
  const rows = view.failedProviders.map((failure) => [
    md`${failure.provider}`,
    md`${modelLabel(failure.model, failure.demo || view.isDemo)}`,
    md`not measured`,
    md`${failure.reason}`,
    md`${failure.failedSamples === null ? 'n/a' : failure.failedSamples}`,
  ]);
  return [
    md`## Providers not measured`,
    '',
    md`These providers were asked but never answered. They are **not measured**, which is not the same as “not mentioned”: they have no score and do not count in the overall score.`,
    '',
    table(['Provider', 'Model', 'Status', 'Reason', 'Failed calls'].map((header) => md`${header}`), rows),
    '',
  ];
}

function competitors(view: ReportView): Lines {
  const out: Lines = [md`## Competitors and share of voice`, '', md`${competitorDefinitions(view.brand)}`, ''];
  const brand = view.brand === '' ? 'the brand' : view.brand;
  if (view.summary.shareOfVoice !== null) out.push(md`**${brand}’s share of voice: ${formatShare(view.summary.shareOfVoice)}** of all brand mentions.`, '');
  const share = view.shareOfVoice;
  if (share !== null && share.totalAnswers > 0) {
    const parts = share.entries.map(
      (entry) => md`${entry.name}${entry.isBrand ? ' (audited brand)' : ''}: ${entry.mentions} of ${share.totalAnswers} (${formatPercent(entry.mentions / share.totalAnswers)})`,
    );
    out.push(md`${mentionChartTitle(view.brand, share.totalAnswers)}: ${parts.map((part, index) => (index === 0 ? part : md`; ${part}`))}.`, '');
  }
  if (!view.summary.measured) {
    out.push(md`Not measured: no answers to count competitors in.`, '');
    return out;
  }
  const sections = competitorSections(view);
  const source = (competitor: ReportCompetitor): string => (competitor.watched ? 'watched' : 'found in the answers');
  if (sections.namedInstead.length === 0) {
    out.push(md`${nobodyInsteadText(view)}`, '');
  } else {
    const rows = sections.namedInstead.map((competitor) => [
      md`${competitor.rank}`,
      md`${competitor.name}`,
      md`${competitor.namedInstead}`,
      md`${competitor.mentions}`,
      md`${formatShare(competitor.shareOfVoice)}`,
      md`${source(competitor)}`,
    ]);
    const headers = [md`Rank`, md`Competitor`, md`Named instead (answers without ${brand})`, md`Answers naming it`, md`Share of voice`, md`Source`];
    out.push(md`Competitors named instead of ${brand}, across providers:`, '', table(headers, rows), '');
  }
  if (sections.alongside.length > 0) {
    const rows = sections.alongside.map((competitor) => [md`${competitor.name}`, md`${competitor.mentions}`, md`${formatShare(competitor.shareOfVoice)}`, md`${source(competitor)}`]);
    out.push(md`Competitors only named alongside ${brand}:`, '', table([md`Competitor`, md`Answers naming it`, md`Share of voice`, md`Source`], rows), '');
  }
  if (sections.watchedNeverNamed.length > 0) out.push(md`Watched, never named: ${sections.watchedNeverNamed.join(', ')}.`, '');
  return out;
}

function buyerQuestions(view: ReportView): Lines {
  const out: Lines = [md`## Buyer questions by provider`, ''];
  const map = view.map;
  if (map !== null) {
    if (map.demo && !view.isDemo) out.push(md`> **${DEMO_BANNER_TEXT}.**`, '');
    out.push(
      md`**${brandName(view, 'The brand')} ${questionsWonText(map.questionsWon, map.questions)}** (named by at least one provider); ${map.answeredCells} answers${
        map.failedCells > 0 ? md`, ${map.failedCells} failed calls` : ''
      }, each question asked once to each provider${map.measuredAt === null ? '' : md`, measured ${formatDateTime(map.measuredAt)}`}.`,
      '',
    );
    if (view.remeasuring !== null) out.push(md`A re-measurement is running; this grid is the previous measurement.`, '');
    const headers = [md`Buyer question`, ...map.providers.map(({ provider, model }) => md`${provider} (${modelLabel(model, map.demo)})`)];
    const rows = map.rows.map((row) => [md`${row.question}`, ...row.cells.map((cell) => md`${mapCellText(cell)}`)]);
    const foot = [
      md`**Per provider**`,
      ...map.providers.map(({ provider }) => md`${mapProviderSummaryText(map.providerSummaries.find((item) => item.provider === provider))}`),
    ];
    return [...out, table(headers, [...rows, foot]), ''];
  }
  const state = view.mapState;
  const list = view.buyerQuestions.map((question, index) => md`${trustedMarkdown(String(index + 1))}. ${question}`);
  if (state.kind === 'running') {
    const progress = state.completed !== null && state.total !== null ? md` ${state.completed} of ${state.total} answers stored.` : '';
    return [...out, md`The buyer questions are being asked to every provider.${progress}`, '', ...list, ''];
  }
  if (state.kind === 'no_fanout') {
    return [...out, md`No buyer questions were generated for this audit${state.reason === null ? '.' : md`: ${state.reason}`}`, ''];
  }
  return [...out, md`These buyer questions were generated; the grid of what every provider answers to them has not been measured yet.`, '', ...list, ''];
}

function nextSteps(view: ReportView): Lines {
  const out: Lines = [md`## Next steps`, ''];
  if (view.nextSteps.length === 0) return [...out, md`No next steps were derived for this snapshot.`, ''];
  view.nextSteps.forEach((step, index) => {
    out.push(md`${trustedMarkdown(String(index + 1))}. **${step.title}** (${priorityLabel(step.priority)})`);
    if (step.why !== '') out.push('', md`   Why: ${step.why}`);
    if (step.how !== '') out.push('', md`   How: ${step.how}`);
    out.push('');
  });
  return out;
}

function benchmark(view: ReportView): Lines {
  const out: Lines = [md`## Category benchmark`, ''];
  const category = view.category === '' ? md`this category` : md`“${view.category}”`;
  const b = view.benchmark;
  if (b === null) return [...out, md`No other audits in ${category} to compare with yet.`, ''];
  const own = view.summary.measured && view.summary.score !== null ? md` ${brandName(view, 'This brand')} scores ${formatScore(view.summary.score)}.` : '';
  return [
    ...out,
    md`Across ${b.audits} other audit${b.audits === 1 ? '' : 's'} in ${category}, the average score is ${b.averageScore} and the median ${b.medianScore} (this brand excluded).${own}`,
    '',
  ];
}

/** Renders the report as markdown; every untrusted value goes through the `md` template and is escaped. */
export function renderReportMarkdown(view: ReportView, options: ReportMarkdownOptions = {}): string {
  return markdownLines([
    ...headline(view, options.headingLevel ?? 1),
    ...findings(view),
    ...failed(view),
    ...competitors(view),
    ...buyerQuestions(view),
    ...nextSteps(view),
    ...benchmark(view),
    md`Measured ${formatDateTime(view.createdAt)}. Audit ${view.auditId}. How this is measured: [methodology](/methodology).`,
    '',
  ]);
}
