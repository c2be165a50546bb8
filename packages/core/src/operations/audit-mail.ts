import type { MailMessage } from '../mail/index.js';
import { escapeHtml } from '../text/escape.js';

/** What the result mail says, taken from a finished audit response. */
export interface AuditMailFacts {
  auditId: string;
  brand: string;
  category: string;
  website: string;
  mode: string;
  score: number | null;
  /** The score's 95% interval, shown with it as every other view does. */
  scoreInterval?: readonly [number, number] | null | undefined;
  risk: string;
  measured: boolean;
  providersAnswered: string[];
  providersFailed: string[];
  competitors: string[];
  nextSteps: string[];
  baseUrl: string;
  /** The report's own page (private link); without it the mail points to the account page. */
  reportUrl?: string | undefined;
}

/** The readable result mail of an audit: plain text plus an HTML part where every value is escaped. */
export function buildAuditMail(to: string, facts: AuditMailFacts): MailMessage {
  const link = facts.reportUrl ?? `${facts.baseUrl}/account`;
  const interval = facts.scoreInterval == null ? '' : `, 95% CI ${Math.round(facts.scoreInterval[0])}–${Math.round(facts.scoreInterval[1])}`;
  const scoreLine = facts.measured
    ? `Score: ${Math.round(facts.score ?? 0)}/100 (risk: ${facts.risk}${interval})`
    : 'Score: not measured (no provider answered; this is not the same as "not mentioned")';
  const demoLine = facts.mode === 'demo' ? 'Note: this audit ran on the demo lineup (simulated answers, not real models).' : undefined;
  const lines = [
    `AI visibility audit for ${facts.brand} (${facts.category})`,
    `Website: ${facts.website}`,
    ...(demoLine ? [demoLine] : []),
    '',
    scoreLine,
    `Providers that answered: ${facts.providersAnswered.join(', ') || 'none'}`,
    ...(facts.providersFailed.length > 0 ? [`Providers that failed (not measured): ${facts.providersFailed.join(', ')}`] : []),
    `Competitors named instead (in answers without ${facts.brand}): ${facts.competitors.slice(0, 5).join(', ') || 'nobody'}`,
    '',
    'Next steps:',
    ...(facts.nextSteps.length > 0 ? facts.nextSteps.slice(0, 5).map((step) => `- ${step}`) : ['- none']),
    '',
    `Audit id: ${facts.auditId}`,
    facts.reportUrl === undefined
      ? `Sign in with this address to see and share the full report: ${link}`
      : `The full report (a private link; sign in with this address to share it): ${link}`,
  ];
  const item = (text: string) => `<li>${escapeHtml(text)}</li>`;
  const html = [
    '<!doctype html><html><body style="font-family: system-ui, sans-serif; line-height: 1.5">',
    `<h1 style="font-size: 1.25rem">AI visibility audit for ${escapeHtml(facts.brand)}</h1>`,
    `<p>${escapeHtml(facts.category)} · ${escapeHtml(facts.website)}</p>`,
    ...(demoLine ? [`<p><strong>${escapeHtml(demoLine)}</strong></p>`] : []),
    `<p><strong>${escapeHtml(scoreLine)}</strong></p>`,
    `<p>Providers that answered: ${escapeHtml(facts.providersAnswered.join(', ') || 'none')}</p>`,
    ...(facts.providersFailed.length > 0 ? [`<p>Providers that failed (not measured): ${escapeHtml(facts.providersFailed.join(', '))}</p>`] : []),
    `<p>Competitors named instead (in answers without ${escapeHtml(facts.brand)}): ${escapeHtml(facts.competitors.slice(0, 5).join(', ') || 'nobody')}</p>`,
    `<h2 style="font-size: 1rem">Next steps</h2><ul>${facts.nextSteps.slice(0, 5).map(item).join('') || item('none')}</ul>`,
    `<p><a href="${escapeHtml(link)}">${facts.reportUrl === undefined ? 'Sign in to see and share the full report' : 'Open the full report'}</a></p>`,
    `<p style="color: #666">Audit id: ${escapeHtml(facts.auditId)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: `AI visibility audit: ${facts.brand}`, text: lines.join('\n'), html };
}
