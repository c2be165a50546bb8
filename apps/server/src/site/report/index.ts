// The report view of the public site: a stored AuditResponse (+ its buyer-question map) as an HTML
// fragment with inline SVG charts, as markdown, and the CSS the site concatenates into /assets/site.css.

export { renderScoreChart, renderShareOfVoiceChart, reportIdPrefix } from './charts.js';
export { DEGRADED_HREF, DEMO_BANNER_TEXT } from './format.js';
export { REPORT_CSS } from './report-css.js';
export { escapeMarkdown, renderReportMarkdown } from './report-markdown.js';
export type { ReportMarkdownOptions } from './report-markdown.js';
export { SHARE_OF_VOICE_COMPETITORS, toReportView } from './report-model.js';
export type {
  ReportBenchmark,
  ReportCompetitor,
  ReportCompetitorCount,
  ReportFinding,
  ReportInterval,
  ReportMap,
  ReportMapCell,
  ReportMapProviderSummary,
  ReportMapRow,
  ReportMapState,
  ReportNextStep,
  ReportProviderError,
  ReportSummary,
  ReportView,
  ReportViewInput,
  ShareOfVoice,
  ShareOfVoiceEntry,
} from './report-model.js';
export { MAP_ACTION_LABEL, renderReportHtml } from './report-view.js';
export type { ReportHtmlOptions } from './report-view.js';
