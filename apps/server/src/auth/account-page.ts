import { html, trustedHtml, type TrustedHtml } from '../site/html-text.js';
import { renderLayout, SITE_CSP, type LayoutContext } from '../site/layout.js';
import { SIGN_IN_LINK_TTL_SECONDS } from './sign-in-links.js';

/** The Content-Security-Policy of every HTML page under /account and /auth: the site's (no scripts, styles from 'self'). */
export const ACCOUNT_PAGE_CSP = SITE_CSP;

/** One audit row as the account page and GET /api/account/audits show it. */
export interface AccountAuditSummary {
  id: string;
  createdAt: string;
  brand: string;
  website: string;
  category: string;
  /** Null when nothing was measured (no provider answered): not a score of 0. */
  score: number | null;
  risk: string | null;
  mode: string;
  /** Its badge tokens and share links (ids, never the raw tokens), oldest first. */
  tokens?: readonly { id: string; kind: 'badge' | 'share'; createdAt: string; revokedAt: string | null }[];
}

/** One watch row on the account page. */
export interface AccountWatchSummary {
  id: string;
  brand: string;
  category: string;
  schedule: string;
  paused: boolean;
  nextRunAt: string;
}

/** A message shown above the page's content. */
export interface PageNotice {
  kind: 'info' | 'error';
  text: string;
}

/** What the page shows: the signed-in account, or the sign-in form. */
export type AccountPageView =
  | {
      signedIn: true;
      email: string;
      credits: number;
      audits: readonly AccountAuditSummary[];
      watches?: readonly AccountWatchSummary[] | undefined;
      notice?: PageNotice | undefined;
    }
  | { signedIn: false; notice?: PageNotice | undefined; email?: string | undefined };

function layout(title: string, body: string, site: LayoutContext, notice: PageNotice | undefined): string {
  return renderLayout(site, { title, path: '/account', noindex: true, body, notice: noticeHtml(notice) });
}

function noticeHtml(notice: PageNotice | undefined): string {
  if (notice === undefined) return '';
  // role=alert makes screen readers announce an error; a status is announced politely.
  const role = notice.kind === 'error' ? 'alert' : 'status';
  return html`<p class="notice ${notice.kind}" role="${role}">${notice.text}</p>\n`.html;
}

/** The sign-in form: posts to /auth/sign-in as a plain form (no script needed). */
export function signInFormHtml(email = ''): string {
  return html`<form method="post" action="/auth/sign-in">
<div class="field"><label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="120" value="${email}"></div>
<p><button type="submit">Email me a sign-in link</button></p>
</form>
<p class="meta">We mail a link that signs you in on this browser. It works once, for ${SIGN_IN_LINK_TTL_SECONDS / 60} minutes. Your account lists the audits attached to that address and your credits; no password is involved.</p>
`.html;
}

function formatScore(audit: AccountAuditSummary): string {
  return audit.score === null ? 'not measured' : String(audit.score);
}

function auditsHtml(audits: readonly AccountAuditSummary[]): string {
  if (audits.length === 0) return '<p>No audits are attached to this address yet. Give this email when you start an audit to see it here.</p>\n';
  const rows = audits
    .map(
      (audit) => html`<tr>
<td><a href="/report/${audit.id}">${audit.brand}</a></td>
<td>${audit.category}</td>
<td class="number">${formatScore(audit)}</td>
<td><time datetime="${audit.createdAt}">${audit.createdAt.slice(0, 10)}</time></td>
<td>${audit.mode}</td>
<td><form method="post" action="/account/audits/${audit.id}/badge"><button class="secondary" type="submit">Badge for ${audit.brand}</button></form>
<form method="post" action="/account/audits/${audit.id}/share"><button class="secondary" type="submit">Share link for ${audit.brand}</button></form>
${tokensHtml(audit)}</td>
</tr>`.html,
    )
    .join('\n');
  return `<div class="table-scroll"><table>
<caption>Newest first. A badge or share link is shown once when created; each is listed under its audit, where you can revoke it.</caption>
<thead><tr><th scope="col">Brand</th><th scope="col">Category</th><th scope="col" class="number">Score</th><th scope="col">Date</th><th scope="col">Mode</th><th scope="col">Publish</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>
`;
}

function watchesHtml(watches: readonly AccountWatchSummary[]): string {
  if (watches.length === 0) return '<p>No watches yet. A watch re-asks the buyer questions of a brand on a schedule and shows the trend: create one with POST /api/watches or <code>visibility watch add</code> (<a href="/developers">developers</a>).</p>\n';
  const rows = watches
    .map(
      (watch) => html`<tr>
<td><a href="/watches/${watch.id}">${watch.brand}</a></td>
<td>${watch.category}</td>
<td>${watch.schedule}${watch.paused ? ' (paused)' : ''}</td>
<td><time datetime="${watch.nextRunAt}">${watch.nextRunAt.slice(0, 16).replace('T', ' ')}</time></td>
</tr>`.html,
    )
    .join('\n');
  return `<div class="table-scroll"><table>
<caption>Brands re-measured on a schedule; open one for its trend, changes and runs.</caption>
<thead><tr><th scope="col">Brand</th><th scope="col">Category</th><th scope="col">Schedule</th><th scope="col">Next run (UTC)</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>
`;
}

/** The audit's badges and share links, each with a button that revokes it (a revoked one stops working at once). */
function tokensHtml(audit: AccountAuditSummary): TrustedHtml {
  const tokens = audit.tokens ?? [];
  if (tokens.length === 0) return html``;
  const items = tokens
    .map((token) => {
      const what = `${token.kind === 'badge' ? 'Badge' : 'Share link'} ${token.id.slice(0, 8)}, created ${token.createdAt.slice(0, 10)}`;
      return token.revokedAt !== null
        ? html`<li>${what}: revoked ${token.revokedAt.slice(0, 10)}</li>`
        : html`<li>${what} <form class="inline" method="post" action="/account/audits/${audit.id}/tokens/${token.kind}/${token.id}/revoke"><button class="secondary" type="submit">Revoke ${what}</button></form></li>`;
    })
  return html`<ul class="tokens" aria-label="Badges and share links of ${audit.brand}">${items}</ul>`;
}

/** Renders the /account page (and the invalid-link page) as a complete HTML document; every value is escaped. */
export function renderAccountPage(view: AccountPageView, site: LayoutContext = DEFAULT_LAYOUT): string {
  if (!view.signedIn) {
    return layout('Sign in', signInFormHtml(view.email), site, view.notice);
  }
  const credits = `${view.credits} credit${view.credits === 1 ? '' : 's'}`;
  return layout(
    'Your account',
    html`<dl class="facts">
<dt>Signed in as</dt><dd>${view.email}</dd>
<dt>Credits</dt><dd>${credits} <span class="meta">(one re-runs a buyer-question map)</span></dd>
</dl>
<form method="post" action="/auth/sign-out"><button class="secondary" type="submit">Sign out</button></form>
<h2>Your audits</h2>
${trustedHtml(auditsHtml(view.audits))}${view.watches === undefined ? '' : html`<h2>Your watches</h2>\n${trustedHtml(watchesHtml(view.watches))}`}`.html,
    site,
    view.notice,
  );
}

/** Used only where no site is composed (unit tests of this page). */
const DEFAULT_LAYOUT: LayoutContext = { baseUrl: '', demo: false, stylesheetHref: '/assets/site.css' };
