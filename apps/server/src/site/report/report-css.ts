// The report's styles, served concatenated into /assets/site.css by the site (the build does not copy
// .css files, hence a string). Colours come from the site's custom properties, defined there for light
// and dark: --fg, --muted, --line, --accent, --bg, --good, --warn, --bad. Text is only ever drawn in
// --fg, --muted or --accent; --good/--warn/--bad colour borders and marks, never text.

export const REPORT_CSS = `
.report { color: var(--fg); }
.report-sr-only {
  position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0;
}
/* A table is never narrower than its content, whatever its width says: hidden, it sits left of the page so it cannot widen it. */
table.report-sr-only { right: 100%; }
.report h2 { font-size: 1.25rem; line-height: 1.3; margin: 0 0 .75rem; }
.report h3 { font-size: 1.05rem; line-height: 1.3; margin: 0 0 .25rem; }
.report-header { margin: 0 0 2rem; }
.report-part { margin: 2.5rem 0; }
.report-muted { color: var(--muted); }
.report code { font-size: .9em; overflow-wrap: break-word; }
.report-table code { white-space: nowrap; }
.report a { color: var(--accent); }
.report :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }

.report-facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 1rem; }
.report-facts dt { font-weight: 600; }
.report-facts dd { margin: 0; overflow-wrap: anywhere; }

.report-banner { border: 1px solid var(--line); border-left: 4px solid var(--accent); padding: .5rem .75rem; margin: 1rem 0; }
.report-banner-demo, .report-banner-degraded { border-left-color: var(--warn); }

.report-score, .report-not-measured { margin: 1rem 0; }
.report-not-measured { border: 2px dashed var(--line); padding: .75rem 1rem; }
.report-score-value { margin: 0 0 .5rem; }
.report-score-label { display: block; color: var(--muted); font-size: .9rem; }
.report-score-number { font-size: 2.5rem; font-weight: 700; line-height: 1.1; font-variant-numeric: tabular-nums; }
.report-score-max { color: var(--muted); }
.report-score-interval { color: var(--muted); white-space: nowrap; }
.report-badges { display: flex; flex-wrap: wrap; gap: .5rem; margin: 0 0 .5rem; }
.report-risk, .report-confidence {
  display: inline-block; padding: .1rem .6rem; border: 2px solid var(--line); border-radius: 999px; font-weight: 600;
}
.report-risk-low { border-color: var(--good); }
.report-risk-medium { border-color: var(--warn); }
.report-risk-high, .report-risk-critical { border-color: var(--bad); }
.report-risk-critical { border-style: double; border-width: 4px; }
.report-risk-unknown { border-style: dashed; }

.report-chart { margin: 0 0 1.5rem; }
.report-chart-scroll { overflow-x: auto; max-width: 48rem; }
/* The SVG scales to its box (viewBox): on a phone the whole axis and every value stay in view. */
.report-chart-svg { display: block; width: 100%; height: auto; max-width: 100%; color: var(--fg); }
.report-chart-sublabel, .report-chart-tick, .report-chart-reason { fill: var(--muted); }
.report-chart-grid { stroke: var(--line); stroke-opacity: 1; }
.report-bar { fill: var(--accent); fill-opacity: .85; }
.report-bar-overall { fill: var(--fg); fill-opacity: .5; }
.report-bar-brand { fill: var(--accent); fill-opacity: 1; }
.report-bar-competitor { fill: var(--muted); fill-opacity: .6; }
.report-bar-missing { stroke: var(--muted); stroke-opacity: 1; }
.report-hatch-line { stroke: var(--muted); stroke-opacity: .8; }
.report-whisker { stroke: var(--fg); }

/* A table wider than its box scrolls sideways, with a shadow at the edge that hides more columns (the cue). */
.report-table-wrap {
  overflow-x: auto; max-width: 100%; margin: 0 0 1rem;
  background:
    linear-gradient(to right, var(--bg) 30%, transparent) left / 2rem 100% no-repeat local,
    linear-gradient(to left, var(--bg) 30%, transparent) right / 2rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgba(0, 0, 0, .25), transparent) left / .75rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgba(0, 0, 0, .25), transparent) right / .75rem 100% no-repeat scroll;
}
.report-table { border-collapse: collapse; width: 100%; min-width: 36rem; }
.report-table caption { caption-side: top; text-align: left; color: var(--muted); padding: 0 0 .5rem; }
.report-table th, .report-table td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.report-table thead th { border-bottom-width: 2px; }
.report-number { font-variant-numeric: tabular-nums; white-space: nowrap; }
.report-findings td:last-child, .report-failed td:nth-child(4) { min-width: 16rem; }
.report-row-not-measured th, .report-row-not-measured td { border-bottom-style: dashed; }
.report-status-not-measured { font-weight: 600; }

.report-grid th[scope="row"] { min-width: 14rem; }
.report-grid td { min-width: 11rem; }
.report-model { color: var(--muted); font-weight: 400; }
.report-cell { border-left: 4px solid var(--line); }
.report-cell-named { border-left-color: var(--good); }
.report-cell-not-named { border-left-color: var(--bad); }
.report-cell-failed, .report-cell-missing { border-left-style: dashed; border-left-color: var(--muted); }
.report-cell-named .report-cell-text { font-weight: 600; }
.report-answer { margin-top: .25rem; }
.report-answer summary { cursor: pointer; color: var(--accent); }
.report-answer-text { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0 0; }
.report-map-summary { margin: 0 0 1rem; }
.report-questions { padding-left: 1.5rem; }
.report-progress { display: block; width: 100%; max-width: 24rem; margin: .5rem 0 1rem; }
.report-map-form { margin: 1rem 0; }
.report-map-form button {
  font: inherit; padding: .5rem 1rem; cursor: pointer; color: var(--bg); background: var(--accent);
  border: 2px solid var(--accent); border-radius: .375rem;
}

.report-steps { padding-left: 1.5rem; }
.report-step { margin: 0 0 1.25rem; padding-left: .75rem; border-left: 4px solid var(--line); }
.report-step-high { border-left-color: var(--bad); }
.report-step-medium { border-left-color: var(--warn); }
.report-step-low { border-left-color: var(--good); }
.report-step p { margin: .25rem 0; }
.report-priority { color: var(--muted); font-size: .9rem; }

.report-footer { margin-top: 2.5rem; padding-top: 1rem; border-top: 1px solid var(--line); color: var(--muted); }

@media (max-width: 40rem) {
  .report-score-number { font-size: 2rem; }
  .report-facts { grid-template-columns: 1fr; }
  .report-facts dd { margin-bottom: .5rem; }
  /* Phones: every report table becomes stacked rows, each cell labelled with its column (data-label). */
  .report-table { min-width: 0; }
  .report-table caption { display: block; }
  .report-table thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .report-table, .report-table tbody, .report-table tfoot, .report-table tr, .report-table th, .report-table td { display: block; width: auto; }
  .report-table tr { border-bottom: 2px solid var(--line); padding: .5rem 0; }
  .report-table th, .report-table td { border-bottom: 0; padding: .15rem 0; min-width: 0; }
  .report-table td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: var(--muted); }
  .report-table .report-number { white-space: normal; }
  .report-findings td:last-child, .report-failed td:nth-child(4), .report-grid th[scope="row"], .report-grid td { min-width: 0; }
  .report-cell { padding-left: .5rem; }
  .report-table code { white-space: normal; overflow-wrap: anywhere; }
}

@media (forced-colors: active) {
  .report-bar, .report-bar-brand, .report-bar-overall, .report-bar-competitor { fill: CanvasText; }
  .report-chart-grid, .report-bar-missing, .report-hatch-line, .report-whisker { stroke: CanvasText; }
}
`;
