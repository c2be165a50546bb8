import { escapeHtml, type MailMessage } from '@visibility/core';
import { SIGN_IN_LINK_TTL_SECONDS } from './sign-in-links.js';

/** The callback address a link token is mailed as. */
export function signInLinkUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/auth/callback?token=${encodeURIComponent(token)}`;
}

/** The sign-in mail: the same words as text and as escaped HTML. It says nothing about the address's audits. */
export function buildSignInMail(to: string, link: string): MailMessage {
  const minutes = SIGN_IN_LINK_TTL_SECONDS / 60;
  const subject = 'Your AI Visibility sign-in link';
  const text = [
    'Open this link to sign in to AI Visibility:',
    '',
    link,
    '',
    `It works once and expires in ${minutes} minutes.`,
    'If you did not ask to sign in, ignore this message: nothing happens without the link.',
    '',
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family: system-ui, sans-serif; line-height: 1.5">
<p>Open this link to sign in to AI Visibility:</p>
<p><a href="${escapeHtml(link)}">Sign in</a></p>
<p style="word-break: break-all; color: #555">${escapeHtml(link)}</p>
<p>It works once and expires in ${minutes} minutes.<br>If you did not ask to sign in, ignore this message: nothing happens without the link.</p>
</body></html>
`;
  return { to, subject, text, html };
}
