// The bench's owner: signs in by the one-time link the service wrote to DATA_DIR/outbox (no SMTP_URL)
// and mints a badge token for an audit that was run with that email, as a person on the site would.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';

function outboxFiles(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, 'outbox')).sort();
  } catch {
    return [];
  }
}

/** POST /auth/sign-in, then the link of the newest mail in the outbox; returns the session cookie and the origin the link names. */
export async function signInByOutbox(base: string, dataDir: string, email: string, caller: string): Promise<{ cookie: string; origin: string }> {
  const before = new Set(outboxFiles(dataDir));
  const asked = await fetch(`${base}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': caller },
    body: JSON.stringify({ email }),
  });
  if (asked.status !== 202) throw new Error(`sign-in answered ${asked.status}: ${await asked.text()}`);
  const file = outboxFiles(dataDir).filter((name) => !before.has(name)).at(-1);
  if (file === undefined) throw new Error('sign-in wrote no mail to the outbox');
  const mail = await simpleParser(readFileSync(join(dataDir, 'outbox', file)));
  const link = /(https?:\/\/[^\s]+\/auth\/callback\?token=[A-Za-z0-9_%-]+)/.exec(mail.text ?? '')?.[1];
  if (link === undefined) throw new Error('the sign-in mail holds no link');
  const url = new URL(link);
  // The link names BASE_URL (http://localhost:PORT here); the bench talks to 127.0.0.1.
  const callback = await fetch(`${base}${url.pathname}${url.search}`, { redirect: 'manual', headers: { 'x-forwarded-for': caller } });
  const cookie = callback.headers
    .getSetCookie()
    .map((header) => header.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('sb-access-token='));
  if (callback.status !== 303 || cookie === undefined) throw new Error(`the sign-in link answered ${callback.status} without a session cookie`);
  return { cookie, origin: url.origin };
}

/** POST /api/audit/{id}/badge-token as the signed-in owner; returns the raw token. */
export async function mintBadgeToken(base: string, auditId: string, session: { cookie: string; origin: string }): Promise<string> {
  const response = await fetch(`${base}/api/audit/${auditId}/badge-token`, {
    method: 'POST',
    headers: { cookie: session.cookie, origin: session.origin },
  });
  const body = (await response.json()) as { token?: string; code?: string };
  if (response.status !== 201 || body.token === undefined) throw new Error(`minting a badge token answered ${response.status} ${body.code ?? ''}`);
  return body.token;
}
