import { badgeStateAt, formatMeasuredMonth, lastRunOf, RECHECK_AFTER_DAYS, type AuditRecord } from '@visibility/core';
import { html } from './html-text.js';
import { markdownLines, md, trustedMarkdown } from './markdown-text.js';

export interface BadgeLandingSubject {
  token: string;
  audit: AuditRecord;
  /** When the audit's latest buyer-question map completed, if any (the badge's own "last run"). */
  lastRunAt?: string | undefined;
  baseUrl: string;
}

interface BadgeFacts {
  brand: string;
  website: string;
  category: string;
  month: string;
  fresh: boolean;
  demo: boolean;
  questions: string[];
  providers: string[];
  /** Times each question was asked to each provider (1 in a degraded audit); undefined in old audits. */
  samples: number | undefined;
  badgeUrl: string;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** What the landing page states, read defensively from the stored audit. */
function factsOf(subject: BadgeLandingSubject, now = new Date()): BadgeFacts {
  const { audit } = subject;
  const response = audit.response;
  const lastRun = lastRunOf(audit.createdAt, subject.lastRunAt);
  const fanout = asRecord(response.productFanout);
  const questions = Array.isArray(fanout.questions) ? fanout.questions.filter((question): question is string => typeof question === 'string') : [];
  const findings = Array.isArray(response.providerFindings) ? response.providerFindings.map(asRecord) : [];
  const providers = findings.map((finding) => `${String(finding.provider ?? '')}${typeof finding.model === 'string' ? ` (${finding.model})` : ''}`);
  return {
    brand: audit.brand,
    website: audit.website,
    category: typeof response.categoryLocalized === 'string' && response.categoryLocalized !== '' ? response.categoryLocalized : audit.category,
    month: formatMeasuredMonth(lastRun),
    fresh: badgeStateAt(lastRun, now) === 'fresh',
    demo: audit.mode === 'demo',
    questions,
    providers,
    samples: typeof asRecord(response.audit).samplesPerQuestion === 'number' ? (asRecord(response.audit).samplesPerQuestion as number) : undefined,
    badgeUrl: `${subject.baseUrl}/api/badge/${subject.token}`,
  };
}

/** The badge landing page (`/badge/{token}`): the brand, the month measured and what was asked. */
export function renderBadgeLandingHtml(subject: BadgeLandingSubject): { title: string; description: string; body: string } {
  const facts = factsOf(subject);
  const questions =
    facts.questions.length === 0
      ? html`<p>This audit generated no buyer questions; the providers were asked about the brand and its category.</p>`
      : html`<ol>${facts.questions.map((question) => html`<li>${question}</li>`)}</ol>`;
  const asked = facts.samples === undefined ? '' : facts.samples === 1 ? ', once each' : `, ${facts.samples} times each`;
  const body = html`<p><img src="${facts.badgeUrl}" width="250" height="40" alt="${`AI visibility badge of ${facts.brand}`}"></p>
${facts.demo ? html`<p class="notice" role="note">This badge comes from the demo lineup: the answers were simulated, not given by real models.</p>\n` : ''}<dl class="facts">
<dt>Brand</dt><dd>${facts.brand}</dd>
<dt>Website</dt><dd>${facts.website}</dd>
<dt>Category</dt><dd>${facts.category}</dd>
<dt>Measured</dt><dd>${facts.month}${facts.fresh ? '' : ` (more than ${RECHECK_AFTER_DAYS} days ago: due for a re-check)`}</dd>
<dt>Asked to</dt><dd>${facts.providers.length === 0 ? 'no provider answered' : facts.providers.join(', ')}</dd>
</dl>
<h2>What was asked</h2>
<p>The AI assistants were asked these buyer questions, which never name the brand${asked}. ${facts.demo ? 'This was a demo run on simulated answers: the badge says so, and it is not a measurement.' : 'The badge says the brand was measured, not that it won.'}</p>
${questions}
<p>How the questions are asked and read: <a href="/methodology">methodology</a>. <a href="/">Measure your own brand</a>.</p>
`.html;
  return {
    title: headline(facts.brand, facts.demo),
    description: facts.demo
      ? `${facts.brand}: an AI visibility demo run in ${facts.month} (simulated answers, not a measurement).`
      : `${facts.brand} was measured for AI visibility in ${facts.month}.`,
    body,
  };
}

/** The page's title says what the badge says: a demo run is "demo, not measured", as on the badge itself. */
function headline(brand: string, demo: boolean): string {
  return demo ? `${brand}: AI visibility demo, not measured` : `${brand}: AI visibility measured`;
}

export function renderBadgeLandingMarkdown(subject: BadgeLandingSubject): string {
  const facts = factsOf(subject);
  return markdownLines([
    md`# ${headline(facts.brand, facts.demo)}`,
    '',
    ...(facts.demo ? [md`> Demo lineup: the answers were simulated, not given by real models.`, '' as const] : []),
    md`- Brand: ${facts.brand}`,
    md`- Website: ${facts.website}`,
    md`- Category: ${facts.category}`,
    md`- Measured: ${facts.month}${facts.fresh ? '' : ' (due for a re-check)'}`,
    md`- Asked to: ${facts.providers.length === 0 ? 'no provider answered' : facts.providers.join(', ')}`,
    '',
    md`## What was asked`,
    '',
    ...(facts.questions.length === 0
      ? [md`No buyer questions were generated.`]
      : facts.questions.map((question, index) => md`${trustedMarkdown(String(index + 1))}. ${question}`)),
    '',
    md`Methodology: ${trustedMarkdown(subject.baseUrl)}/methodology`,
    '',
  ]);
}
