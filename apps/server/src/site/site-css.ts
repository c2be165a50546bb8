/**
 * The site's one stylesheet (served at /assets/site.css; the CSP allows styles from 'self' only, so
 * there are no inline styles anywhere). Colours are custom properties with a dark scheme; every
 * text colour keeps a contrast of at least 4.5:1 on its background.
 */
export const SITE_CSS = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1a1a1a; --muted: #555555; --line: #d0d0d0; --panel: #f5f6f8;
  --accent: #0b57d0; --accent-fg: #ffffff; --good: #146c2e; --warn: #8a5300; --bad: #b3261e;
  --banner-bg: #fff4d6; --banner-fg: #4a3500;
  --radius: 8px; --measure: 46rem;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #121417; --fg: #e8e8e8; --muted: #b0b4ba; --line: #3a3f46; --panel: #1c2026;
    --accent: #8ab4f8; --accent-fg: #0b1a33; --good: #7fd491; --warn: #f2c46d; --bad: #f28b82;
    --banner-bg: #3a2f12; --banner-fg: #ffe7a8;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 17px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
a { color: var(--accent); text-underline-offset: 2px; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip-link { position: absolute; left: -999px; top: 0; background: var(--accent); color: var(--accent-fg); padding: .5rem 1rem; z-index: 10; }
.skip-link:focus { left: .5rem; top: .5rem; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.site-header { border-bottom: 1px solid var(--line); }
.site-header .inner, .site-footer .inner, main { max-width: 64rem; margin: 0 auto; padding: 0 1rem; }
.site-header .inner { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem 1.5rem; padding-top: .75rem; padding-bottom: .75rem; }
.brand-link { font-weight: 700; font-size: 1.1rem; color: var(--fg); text-decoration: none; }
.site-nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
.site-nav a { text-decoration: none; padding: .25rem 0; display: inline-block; }
.site-nav a[aria-current="page"] { font-weight: 700; text-decoration: underline; }
.demo-banner { background: var(--banner-bg); color: var(--banner-fg); border-bottom: 1px solid var(--line); }
.demo-banner p { max-width: 64rem; margin: 0 auto; padding: .5rem 1rem; font-size: .95rem; }
.demo-banner a { color: inherit; }
main { padding-top: 1.5rem; padding-bottom: 3rem; }
.prose { max-width: var(--measure); }
h1 { font-size: clamp(1.7rem, 4vw, 2.3rem); line-height: 1.2; margin: .5rem 0 1rem; }
h2 { font-size: 1.4rem; line-height: 1.3; margin: 2.2rem 0 .6rem; }
h3 { font-size: 1.15rem; margin: 1.6rem 0 .4rem; }
p, ul, ol { margin: 0 0 1rem; }
code { font: .9em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--panel); padding: .1em .3em; border-radius: 4px; }
/* Code wraps rather than scrolls sideways: a scrolling block would have to be keyboard-focusable. */
pre { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); padding: .9rem 1rem; white-space: pre-wrap; overflow-wrap: anywhere; }
pre code { background: none; padding: 0; }
blockquote { margin: 0 0 1rem; padding: .25rem 1rem; border-left: 4px solid var(--line); color: var(--muted); }
.table-scroll { overflow-x: auto; margin: 0 0 1.25rem; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
caption { text-align: left; color: var(--muted); padding-bottom: .25rem; }
th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
.lede { font-size: 1.15rem; color: var(--muted); max-width: var(--measure); }
.meta { color: var(--muted); font-size: .95rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 1rem; margin: 1.5rem 0; }
.card { border: 1px solid var(--line); border-radius: var(--radius); padding: 1rem 1.25rem; background: var(--bg); }
.card h2, .card h3 { margin-top: 0; }
form.run { display: grid; gap: .75rem; }
.field label { display: block; font-weight: 600; margin-bottom: .2rem; }
.field .help { display: block; color: var(--muted); font-size: .9rem; }
.field input, .field select { font: inherit; width: 100%; padding: .5rem .6rem; border: 1px solid var(--muted); border-radius: 6px; background: var(--bg); color: var(--fg); }
button, .button { font: inherit; font-weight: 600; padding: .55rem 1.1rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary { background: transparent; color: var(--accent); }
.notice { border: 1px solid var(--line); border-left: 4px solid var(--accent); padding: .6rem .9rem; margin: 0 0 1.25rem; background: var(--panel); }
.notice.error { border-left-color: var(--bad); }
.progress { list-style: none; padding: 0; margin: 0 0 1.5rem; border: 1px solid var(--line); border-radius: var(--radius); }
.progress li { padding: .3rem .75rem; border-bottom: 1px solid var(--line); font-variant-numeric: tabular-nums; }
.progress li:last-child { border-bottom: 0; }
.result dl, dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1.25rem; margin: 0 0 1rem; }
dl dt { font-weight: 600; }
dl dd { margin: 0; }
.verdict { font-size: 1.3rem; font-weight: 700; }
.entries { list-style: none; padding: 0; }
.entries li { margin: 0 0 1.25rem; }
.entries .meta { display: block; }
.embed-snippet { width: 100%; min-height: 5rem; font: .85rem/1.4 ui-monospace, monospace; padding: .5rem; border: 1px solid var(--muted); border-radius: 6px; background: var(--panel); color: var(--fg); }
.site-footer { border-top: 1px solid var(--line); color: var(--muted); font-size: .95rem; }
.site-footer .inner { padding-top: 1.25rem; padding-bottom: 2rem; display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; }
.site-footer a { color: var(--accent); }
ul.tokens { margin: .5rem 0 0; padding-left: 1rem; font-size: .9rem; }
ul.tokens form.inline { display: inline; }
@media (max-width: 40rem) {
  body { font-size: 16px; } .result dl, dl.facts { grid-template-columns: 1fr; }
  /* The home forms must show in a phone's first screen: a tighter intro and card header. */
  .home-intro p { font-size: .95rem; margin: .25rem 0; }
  .home-intro + .cards { margin-top: .75rem; }
  .cards .card { padding: .75rem 1rem; }
  .cards .card > .meta { font-size: .85rem; margin: 0 0 .5rem; }
  .site-header .inner { padding-top: .4rem; padding-bottom: .4rem; }
  .demo-banner p { font-size: .85rem; padding: .35rem 1rem; }
}
@media print { .site-header, .site-footer, .demo-banner, form { display: none; } }
`;
