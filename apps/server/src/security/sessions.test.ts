import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionToken, SESSION_COOKIE, SESSION_TTL_SECONDS } from '../auth/session.js';
import { createSignInLink, hashSignInToken } from '../auth/sign-in-links.js';
import type { TestService } from '../test-support/service.js';
import { healthStatus, rawExchange, startSecurityService } from './test-support/harness.js';

// Tampered and replayed credentials, beyond what auth-routes.test.ts and session.test.ts already cover
// (forged email with the old signature, expired, other secret, garbage; link replay, 8 simultaneous uses,
// a link past 15 minutes, unknown and malformed tokens). Every refusal must be a clean 401/400 — never a
// 500, never someone else's session — and the server must keep serving.

const SECRET = 'security-sessions-secret-0123456789abcdef';
const OWNER = 'owner@acme.example';
const VICTIM = 'victim@acme.example';

let running: TestService;
beforeAll(async () => {
  running = await startSecurityService({ SESSION_SECRET: SECRET });
});
afterAll(async () => {
  await running?.stop();
});

async function whoAmI(cookieHeader: string | undefined): Promise<{ status: number; email?: string; body: any }> {
  const response = await fetch(`${running.url}/api/account`, { headers: cookieHeader === undefined ? {} : { cookie: cookieHeader } });
  const body = (await response.json()) as { email?: string; code?: string };
  return { status: response.status, ...(body.email === undefined ? {} : { email: body.email }), body };
}

const cookie = (token: string) => `${SESSION_COOKIE}=${token}`;
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const hmac = (payload: string, secret = SECRET) => createHmac('sha256', secret).update(payload).digest();

describe('tampered session cookies', () => {
  const valid = createSessionToken(OWNER, SECRET);
  const victimToken = createSessionToken(VICTIM, SECRET);
  const [payload = '', signature = ''] = valid.split('.');
  const [victimPayload = '', victimSignature = ''] = victimToken.split('.');

  const TAMPERED: Array<[label: string, token: string]> = [
    ['truncated by one character', valid.slice(0, -1)],
    ['truncated to the payload and the dot', `${payload}.`],
    ['truncated to the payload alone', payload],
    ['cut inside the payload', `${payload.slice(0, 10)}.${signature}`],
    ['an empty payload with a real signature', `.${signature}`],
    ['swapped user id: the victim\'s payload with the owner\'s signature', `${victimPayload}.${signature}`],
    ['swapped user id: the owner\'s payload with the victim\'s signature', `${payload}.${victimSignature}`],
    ['the signature in standard base64 with padding', `${payload}.${hmac(payload).toString('base64')}`],
    ['the signature in hex', `${payload}.${hmac(payload).toString('hex')}`],
    ['the payload with base64 padding added', `${payload}==.${signature}`],
    ['the same claims re-serialised with a space', `${b64url(JSON.stringify({ email: VICTIM, exp: 9_999_999_999, v: 1 }, null, 1))}.${signature}`],
    ['an "alg: none" style token', `${b64url('{"alg":"none"}')}.${b64url(JSON.stringify({ email: VICTIM, exp: 9_999_999_999, v: 1 }))}.`],
    ['signed with the secret minus its last character', createSessionToken(VICTIM, SECRET.slice(0, -1))],
    ['signed with the secret plus a character', createSessionToken(VICTIM, `${SECRET}x`)],
    ['signed with an empty secret', `${b64url(JSON.stringify({ email: VICTIM, exp: 9_999_999_999, v: 1 }))}.${createHmac('sha256', '').update(b64url(JSON.stringify({ email: VICTIM, exp: 9_999_999_999, v: 1 }))).digest('base64url')}`],
    ['expired one second ago', createSessionToken(OWNER, SECRET, new Date(Date.now() - (SESSION_TTL_SECONDS + 1) * 1000))],
    ['percent-encoding that does not decode', '%E0%A4%A'],
    ['three parts', `${valid}.${signature}`],
  ];

  it.each(TAMPERED)('refuses a cookie %s with 401 unauthorized', async (_label, token) => {
    const answer = await whoAmI(cookie(token));
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('unauthorized');
    expect(answer.email).toBeUndefined();
  });

  it('still accepts the untampered token (the cases above fail for the tampering alone)', async () => {
    expect(await whoAmI(cookie(valid))).toMatchObject({ status: 200, email: OWNER });
  });

  it('never signs in as the victim when forged and valid cookies are sent together', async () => {
    const forged = `${victimPayload}.${signature}`;
    for (const header of [`${cookie(forged)}; ${cookie(valid)}`, `${cookie(valid)}; ${cookie(forged)}`, `other=1; ${cookie(forged)}`]) {
      const answer = await whoAmI(header);
      expect(answer.email).not.toBe(VICTIM);
      expect([200, 401]).toContain(answer.status);
    }
  });

  it('answers a 12 KB cookie with 401 and a 64 KB one with 431, and keeps serving', async () => {
    const big = await whoAmI(cookie(`${'A'.repeat(12 * 1024)}.${signature}`));
    expect(big.status).toBe(401);
    const huge = await rawExchange(
      Number(new URL(running.url).port),
      [`GET /api/account HTTP/1.1\r\nHost: visibility.test\r\nCookie: ${SESSION_COOKIE}=${'A'.repeat(64 * 1024)}\r\n\r\n`],
      2_000,
    );
    expect(huge.status).toBe(431);
    expect(await healthStatus(running.url)).toBe(200);
    expect(await whoAmI(cookie(valid))).toMatchObject({ status: 200, email: OWNER });
  });

  it('refuses the same tampering on the owner-only badge mint (no token is minted)', async () => {
    const auditId = randomUUID();
    await running.service.store.auditRepository.insertAudit({
      id: auditId,
      createdAt: new Date().toISOString(),
      brand: 'Victim Co',
      brandKey: 'victim co',
      website: 'https://victim.example/',
      category: 'CRM software',
      categoryKey: 'crm software',
      email: VICTIM,
      mode: 'live',
      measured: true,
      score: 50,
      response: { id: auditId, audit: { score: 50 } },
    });
    for (const token of [`${victimPayload}.${signature}`, `${victimPayload}.`, createSessionToken(VICTIM, `${SECRET}x`)]) {
      const answer = await fetch(`${running.url}/api/audit/${auditId}/badge-token`, { method: 'POST', headers: { cookie: cookie(token) } });
      expect(answer.status).toBe(401);
    }
    // The owner of another audit is signed in, but is not this audit's owner.
    const other = await fetch(`${running.url}/api/audit/${auditId}/badge-token`, { method: 'POST', headers: { cookie: cookie(valid) } });
    expect(other.status).toBe(403);
    const real = await fetch(`${running.url}/api/audit/${auditId}/badge-token`, { method: 'POST', headers: { cookie: cookie(victimToken) } });
    expect(real.status).toBe(201);
  });
});

describe('tampered and replayed one-time sign-in links', () => {
  const callback = (query: string) => fetch(`${running.url}/auth/callback${query}`, { redirect: 'manual' });
  const sessionSet = (response: Response) => response.headers.getSetCookie().some((header) => header.startsWith(`${SESSION_COOKIE}=`) && !header.startsWith(`${SESSION_COOKIE}=;`));

  it('refuses tampered tokens without burning the real link, which then works exactly once', async () => {
    const { token } = await createSignInLink(running.service.store.signInRepository, OWNER);
    const flip = (character: string) => (character === 'A' ? 'B' : 'A');
    const tampered = [
      `${flip(token[0] ?? 'A')}${token.slice(1)}`,
      `${token.slice(0, -1)}${flip(token.at(-1) ?? 'A')}`,
      token.slice(0, -1),
      `${token}A`,
      token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
      `%20${token}`,
      `${token}%00`,
      hashSignInToken(token),
      encodeURIComponent(Buffer.from(token, 'base64url').toString('base64')),
    ];
    for (const candidate of tampered) {
      const answer = await callback(`?token=${candidate}`);
      expect(answer.status, candidate).toBe(400);
      expect(sessionSet(answer), candidate).toBe(false);
    }
    // Arrays and duplicates of the real token are not a token either, and do not use it up.
    for (const query of [`?token=${token}&token=${token}`, `?token[]=${token}`, `?token[0]=${token}`, `?TOKEN=${token}`]) {
      const answer = await callback(query);
      expect(answer.status, query).toBe(400);
      expect(sessionSet(answer), query).toBe(false);
    }
    const used = await callback(`?token=${token}`);
    expect(used.status).toBe(303);
    expect(sessionSet(used)).toBe(true);
    // Replay after use: refused, also after the session it created has signed out.
    const cookieHeader = used.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    expect((await fetch(`${running.url}/auth/sign-out`, { method: 'POST', headers: { cookie: cookieHeader } })).status).toBe(204);
    const replay = await callback(`?token=${token}`);
    expect(replay.status).toBe(400);
    expect(sessionSet(replay)).toBe(false);
  });

  it('signs each of two links in exactly once under concurrent use, each as its own address', async () => {
    const repository = running.service.store.signInRepository;
    const first = await createSignInLink(repository, 'first@acme.example');
    const second = await createSignInLink(repository, 'second@acme.example');
    const attempts = [first, second, first, second, first, second, first, second, first, second].map(({ token }) => callback(`?token=${token}`));
    const answers = await Promise.all(attempts);
    const signedIn = answers.filter((answer) => answer.status === 303);
    expect(signedIn).toHaveLength(2);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(8);
    const emails = await Promise.all(signedIn.map(async (answer) => (await whoAmI(answer.headers.getSetCookie()[0]?.split(';')[0])).email));
    expect(emails.sort()).toEqual(['first@acme.example', 'second@acme.example']);
  });

  it('refuses a link that expired a second ago, and a new link for the address does not revive it', async () => {
    const repository = running.service.store.signInRepository;
    const expired = await createSignInLink(repository, OWNER, new Date(Date.now() - 15 * 60_000 - 1_000));
    const refused = await callback(`?token=${expired.token}`);
    expect(refused.status).toBe(400);
    expect(sessionSet(refused)).toBe(false);
    // A new link for the same address does not make the old one valid again.
    const fresh = await createSignInLink(repository, OWNER);
    expect((await callback(`?token=${expired.token}`)).status).toBe(400);
    expect((await callback(`?token=${fresh.token}`)).status).toBe(303);
  });

  it('never sends the link token on: the callback answers with no-referrer and no-store, and a refusal never reflects it', async () => {
    const { token } = await createSignInLink(running.service.store.signInRepository, OWNER);
    const bad = await callback(`?token=${token.slice(0, -1)}x"><script>alert(1)</script>`);
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).not.toContain(token.slice(0, -1));
    expect(html).not.toContain('<script>alert(1)');
    const good = await callback(`?token=${token}`);
    expect(good.status).toBe(303);
    expect(good.headers.get('referrer-policy')).toBe('no-referrer');
    expect(good.headers.get('cache-control')).toBe('no-store');
    expect(good.headers.get('location')).toBe('/account');
  });
});
