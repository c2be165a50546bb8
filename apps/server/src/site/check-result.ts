import type { CheckResponse } from '@visibility/core';
import { html } from './html-text.js';

const VERDICT_TEXT: Record<CheckResponse['verdict'], string> = {
  ai_approved: 'AI approved: the model knows it and puts it forward',
  barely_visible: 'Barely visible: known, but not reliably recommended',
  invisible: 'Invisible: the model does not put it forward',
};

/** The quick check's answer as an HTML fragment; every model-written text is escaped by the `html` template. */
export function renderCheckResultHtml(result: CheckResponse): string {
  const demo = result.model.startsWith('demo-');
  const list =
    result.recommendations.length === 0
      ? html`<p>No list was asked (no category given) or the model named nothing.</p>`
      : html`<ol>${result.recommendations.map((name, index) => html`<li>${index + 1 === result.listPosition ? html`<strong>${name}</strong> (your brand)` : name}</li>`)}</ol>`;
  return html`<section class="result" aria-labelledby="result-heading">
<h2 id="result-heading">Result for ${result.brand}</h2>
${demo ? html`<p class="notice" role="note">Demo lineup: these answers come from the simulator, not from a real model.</p>\n` : ''}<p class="verdict">${String(result.score)} / 100 · ${VERDICT_TEXT[result.verdict]}</p>
<dl>
<dt>Model</dt><dd><code>${result.model}</code>${demo ? ' (demo)' : ''}</dd>
<dt>Category</dt><dd>${result.category === '' ? 'not given' : result.category}</dd>
<dt>Knows the brand</dt><dd>${result.knows ? 'yes' : 'no'}</dd>
<dt>How it describes it</dt><dd>${result.description === '' ? 'no description' : result.description}</dd>
<dt>Place in the blind list</dt><dd>${result.listPosition === null ? 'not named' : `#${result.listPosition}`}</dd>
<dt>Would recommend</dt><dd>${result.recommendVerdict}${result.recommendReason ? html`: ${result.recommendReason}` : ''}</dd>
</dl>
<h3>The blind list (asked without naming your brand)</h3>
${list}
<p class="meta">One model, one pass: a quick signal, not a measurement with an interval. The full audit asks every provider several times; see <a href="/methodology">the methodology</a>.</p>
</section>
`.html;
}
