import { escapeHtml } from '@visibility/core';
import { SIGN_IN_LINK_TTL_SECONDS } from './sign-in-links.js';

/** The Content-Security-Policy of every HTML page under /account and /auth: no scripts, no external anything. */
export const ACCOUNT_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

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
}

/** A message shown above the page's content. */
export interface PageNotice {
  kind: 'info' | 'error';
  text: string;
}

/** What the page shows: the signed-in account, or the sign-in form. */
export type AccountPageView =
  | { signedIn: true; email: string; credits: number; audits: readonly AccountAuditSummary[]; notice?: PageNotice | undefined }
  | { signedIn: false; notice?: PageNotice | undefined; email?: string | undefined };

const STYLE = `
  :root { color-scheme: light dark; --muted: #666; --line: #ccc; --accent: #0b57d0; }
  body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; padding: 2rem 1rem; }
  main { max-width: 44rem; margin: 0 auto; }
  h1 { font-size: 1.6rem; margin: 0 0 1rem; }
  h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; }
  .note { color: var(--muted); }
  .notice { border: 1px solid var(--line); border-left: 4px solid var(--accent); padding: .5rem .75rem; margin: 0 0 1.25rem; }
  .notice.error { border-left-color: #b3261e; }
  form.inline { display: inline; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input[type=email] { font: inherit; padding: .4rem .5rem; width: 100%; max-width: 22rem; box-sizing: border-box; }
  button { font: inherit; padding: .4rem .9rem; margin-top: .5rem; cursor: pointer; }
  :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
  td.number { text-align: right; font-variant-numeric: tabular-nums; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0; }
  dt { font-weight: 600; }
  dd { margin: 0; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · AI Visibility</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function noticeHtml(notice: PageNotice | undefined): string {
  if (notice === undefined) return '';
  // role=alert makes screen readers announce an error; a status is announced politely.
  const role = notice.kind === 'error' ? 'alert' : 'status';
  return `<p class="notice ${notice.kind}" role="${role}">${escapeHtml(notice.text)}</p>\n`;
}

/** The sign-in form: posts to /auth/sign-in as a plain form (no script needed). */
export function signInFormHtml(email = ''): string {
  return `<form method="post" action="/auth/sign-in">
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="120" value="${escapeHtml(email)}">
<button type="submit">Email me a sign-in link</button>
</form>
<p class="note">We mail a link that signs you in on this browser. It works once, for ${SIGN_IN_LINK_TTL_SECONDS / 60} minutes. Your account lists the audits attached to that address and your credits; no password is involved.</p>
`;
}

function formatScore(audit: AccountAuditSummary): string {
  return audit.score === null ? 'not measured' : String(audit.score);
}

function auditsHtml(audits: readonly AccountAuditSummary[]): string {
  if (audits.length === 0) return '<p>No audits are attached to this address yet. Give this email when you start an audit to see it here.</p>\n';
  const rows = audits
    .map(
      (audit) => `<tr>
<td>${escapeHtml(audit.brand)}</td>
<td>${escapeHtml(audit.category)}</td>
<td class="number">${escapeHtml(formatScore(audit))}</td>
<td><time datetime="${escapeHtml(audit.createdAt)}">${escapeHtml(audit.createdAt.slice(0, 10))}</time></td>
<td>${escapeHtml(audit.mode)}</td>
</tr>`,
    )
    .join('\n');
  return `<table>
<caption class="note">Newest first</caption>
<thead><tr><th scope="col">Brand</th><th scope="col">Category</th><th scope="col">Score</th><th scope="col">Date</th><th scope="col">Mode</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
`;
}

/** Renders the /account page (and the invalid-link page) as a complete HTML document; every value is escaped. */
export function renderAccountPage(view: AccountPageView): string {
  if (!view.signedIn) {
    return layout('Sign in', `<h1>Sign in</h1>\n${noticeHtml(view.notice)}${signInFormHtml(view.email)}`);
  }
  const credits = `${view.credits} credit${view.credits === 1 ? '' : 's'}`;
  return layout(
    'Your account',
    `<h1>Your account</h1>
${noticeHtml(view.notice)}<dl>
<dt>Signed in as</dt><dd>${escapeHtml(view.email)}</dd>
<dt>Credits</dt><dd>${escapeHtml(credits)} <span class="note">(one re-runs a buyer-question map)</span></dd>
</dl>
<form class="inline" method="post" action="/auth/sign-out"><button type="submit">Sign out</button></form>
<h2>Your audits</h2>
${auditsHtml(view.audits)}`,
  );
}
