import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson, startTestService, type TestService } from '../test-support/service.js';
import { ACCOUNT_PAGE_CSP } from './account-page.js';
import { createSessionToken, SESSION_COOKIE } from './session.js';
import { createSignInLink, hashSignInToken } from './sign-in-links.js';

const SECRET = 'test-session-secret-'.repeat(3);
const running: TestService[] = [];

async function start(environment: Record<string, string> = {}): Promise<TestService> {
  const service = await startTestService({ SESSION_SECRET: SECRET, ...environment });
  running.push(service);
  return service;
}

afterEach(async () => {
  for (const service of running.splice(0)) await service.stop();
});

function outboxFiles(service: TestService): string[] {
  try {
    return readdirSync(join(service.dataDir, 'outbox')).sort();
  } catch {
    return [];
  }
}

/** The newest mail in the outbox, parsed, with its sign-in link rewritten onto the test server's address. */
async function latestMail(service: TestService) {
  const file = outboxFiles(service).at(-1);
  if (file === undefined) throw new Error('the outbox is empty');
  const mail = await simpleParser(readFileSync(join(service.dataDir, 'outbox', file)));
  const link = /(https?:\/\/[^\s]+\/auth\/callback\?token=[A-Za-z0-9_%-]+)/.exec(mail.text ?? '')?.[1];
  if (link === undefined) throw new Error(`no sign-in link in the mail:\n${mail.text}`);
  const parsed = new URL(link);
  return { mail, link, local: `${service.url}${parsed.pathname}${parsed.search}`, token: parsed.searchParams.get('token') ?? '' };
}

function getManual(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { redirect: 'manual', headers });
}

/** The session cookie a response sets, as "name=value" ready for a Cookie header, plus its attributes. */
function setSessionCookie(response: Response): { pair: string; value: string; attributes: string[] } | undefined {
  const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
  if (header === undefined) return undefined;
  const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
  return { pair, value: pair.slice(SESSION_COOKIE.length + 1), attributes };
}

/** Runs the whole sign-in by mail and returns the Cookie header value of the signed-in browser. */
async function signIn(service: TestService, email: string): Promise<string> {
  const asked = await postJson(`${service.url}/auth/sign-in`, { email });
  expect(asked.status).toBe(202);
  const { local } = await latestMail(service);
  const callback = await getManual(local);
  expect(callback.status).toBe(303);
  const cookie = setSessionCookie(callback);
  if (cookie === undefined) throw new Error('the callback set no session cookie');
  return cookie.pair;
}

function account(service: TestService, cookie?: string): Promise<Response> {
  return fetch(`${service.url}/api/account`, { headers: cookie === undefined ? {} : { cookie } });
}

function auditRecord(email: string, overrides: { brand?: string; createdAt?: string; score?: number; measured?: boolean } = {}) {
  return {
    id: randomUUID(),
    createdAt: overrides.createdAt ?? new Date().toISOString(),
    brand: overrides.brand ?? 'Acme',
    brandKey: (overrides.brand ?? 'Acme').toLowerCase(),
    website: 'https://acme.example',
    category: 'CRM software',
    categoryKey: 'crm software',
    email,
    mode: 'demo',
    measured: overrides.measured ?? true,
    score: overrides.score ?? 62,
    response: { audit: { risk: 'medium', score: overrides.score ?? 62 } },
  };
}

describe('sign-in by mailed link', () => {
  it('mails a working one-time link that sets an HttpOnly, SameSite=Lax session cookie (not Secure on http)', async () => {
    const service = await start();
    const asked = await postJson(`${service.url}/auth/sign-in`, { email: '  Owner@Acme.Example ' });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ ok: true });

    const { mail, link, local, token } = await latestMail(service);
    expect((mail.to as { text: string }).text).toBe('owner@acme.example');
    expect(link.startsWith('http://visibility.test/auth/callback?token=')).toBe(true);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(`href="${link}"`);
    // Only the hash is stored.
    const stored = await service.service.store.signInRepository.getLink(hashSignInToken(token));
    expect(stored?.email).toBe('owner@acme.example');
    expect(await service.service.store.signInRepository.getLink(token)).toBeUndefined();

    const callback = await getManual(local);
    expect(callback.status).toBe(303);
    expect(callback.headers.get('location')).toBe('/account');
    const cookie = setSessionCookie(callback);
    expect(cookie).toBeDefined();
    expect(cookie?.attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/', `Max-Age=${30 * 24 * 3600}`]));
    expect(cookie?.attributes).not.toContain('Secure');

    const me = await account(service, cookie?.pair);
    expect(me.status).toBe(200);
    expect(me.headers.get('cache-control')).toBe('no-store');
    expect(await me.json()).toEqual({ email: 'owner@acme.example', credits: 0 });
  });

  it('marks the cookie Secure when BASE_URL is https', async () => {
    const service = await start({ BASE_URL: 'https://visibility.test' });
    await postJson(`${service.url}/auth/sign-in`, { email: 'owner@acme.example' });
    const { link, local } = await latestMail(service);
    expect(link.startsWith('https://visibility.test/auth/callback?token=')).toBe(true);
    const cookie = setSessionCookie(await getManual(local));
    expect(cookie?.attributes).toContain('Secure');
  });

  it('refuses a link used a second time, with the invalid-link page and no cookie', async () => {
    const service = await start();
    await postJson(`${service.url}/auth/sign-in`, { email: 'owner@acme.example' });
    const { local } = await latestMail(service);
    expect((await getManual(local)).status).toBe(303);

    const replay = await getManual(local);
    expect(replay.status).toBe(400);
    expect(setSessionCookie(replay)).toBeUndefined();
    expect(replay.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await replay.text();
    expect(page).toContain('invalid or has expired');
    expect(page).toContain('action="/auth/sign-in"');
  });

  it('lets only one of two simultaneous uses of a link sign in', async () => {
    const service = await start();
    await postJson(`${service.url}/auth/sign-in`, { email: 'owner@acme.example' });
    const { local } = await latestMail(service);
    const answers = await Promise.all(Array.from({ length: 8 }, () => getManual(local)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 400, 400, 400, 400, 400, 400, 400]);
  });

  it('refuses a link older than 15 minutes and accepts one just under', async () => {
    const service = await start();
    const repository = service.service.store.signInRepository;
    const stale = await createSignInLink(repository, 'owner@acme.example', new Date(Date.now() - 15 * 60_000 - 5_000));
    const fresh = await createSignInLink(repository, 'owner@acme.example', new Date(Date.now() - 14 * 60_000));

    const refused = await getManual(`${service.url}/auth/callback?token=${stale.token}`);
    expect(refused.status).toBe(400);
    expect(setSessionCookie(refused)).toBeUndefined();
    expect(await refused.text()).toContain('invalid or has expired');

    const accepted = await getManual(`${service.url}/auth/callback?token=${fresh.token}`);
    expect(accepted.status).toBe(303);
    expect(setSessionCookie(accepted)).toBeDefined();
  });

  it('refuses unknown, malformed and missing tokens', async () => {
    const service = await start();
    for (const query of [`?token=${randomBytes(32).toString('base64url')}`, '?token=short', '?token=a&token=b', '']) {
      const answer = await getManual(`${service.url}/auth/callback${query}`);
      expect(answer.status).toBe(400);
      expect(setSessionCookie(answer)).toBeUndefined();
    }
  });

  it('answers a bad address with 400 invalid_email and sends nothing', async () => {
    const service = await start();
    for (const email of ['not-an-email', '', `${'e'.repeat(115)}@x.com`, 'a@b.com\r\nBcc: victim@x.com', 42]) {
      const answer = await postJson(`${service.url}/auth/sign-in`, { email });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: expect.any(String), code: 'invalid_email', hint: expect.any(String), docs: 'http://visibility.test/developers' });
    }
    const unreadable = await postJson(`${service.url}/auth/sign-in`, undefined, { raw: '{"email":', contentType: 'application/json' });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body.code).toBe('invalid_body');
    expect(outboxFiles(service)).toEqual([]);
  });

  it('accepts the /account form post and redirects to the "sent" page', async () => {
    const service = await start();
    const answer = await fetch(`${service.url}/auth/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://visibility.test' },
      body: 'email=owner%40acme.example',
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/account?sent=1');
    expect((await latestMail(service)).mail.subject).toMatch(/sign-in link/i);
    const sent = await (await fetch(`${service.url}/account?sent=1`)).text();
    expect(sent).toContain('We mailed a sign-in link');

    const invalid = await fetch(`${service.url}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=nope',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await invalid.text()).toContain('not a valid address');
  });
});

describe('no account enumeration', () => {
  it('answers the same for an address with audits and credits as for an unknown one, and mails both', async () => {
    const service = await start();
    const { store } = service.service;
    await store.auditRepository.insertAudit(auditRecord('known@acme.example'));
    await store.accountRepository.grantCredits('known@acme.example', 4);

    const known = await postJson(`${service.url}/auth/sign-in`, { email: 'known@acme.example' });
    const unknown = await postJson(`${service.url}/auth/sign-in`, { email: 'nobody@acme.example' });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    const headerNames = (headers: Headers) => [...headers.keys()].filter((name) => !['date', 'x-request-id', 'x-ratelimit-remaining'].includes(name)).sort();
    expect(headerNames(unknown.headers)).toEqual(headerNames(known.headers));
    const mails = await Promise.all(
      outboxFiles(service).map(async (file) => simpleParser(readFileSync(join(service.dataDir, 'outbox', file)))),
    );
    expect(mails.map((mail) => (mail.to as { text: string }).text).sort()).toEqual(['known@acme.example', 'nobody@acme.example']);
    expect(mails[0]?.text?.replace(/token=\S+/, '')).toBe(mails[1]?.text?.replace(/token=\S+/, ''));
  });
});

describe('sign-in rate limits', () => {
  it('answers the sixth request in an hour from one IP with 429 and an integer Retry-After', async () => {
    const service = await start();
    for (let index = 0; index < 5; index += 1) {
      expect((await postJson(`${service.url}/auth/sign-in`, { email: `user${index}@acme.example` })).status).toBe(202);
    }
    const refused = await postJson(`${service.url}/auth/sign-in`, { email: 'user9@acme.example' });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(outboxFiles(service)).toHaveLength(5);
  });

  it('limits one address to 5 links an hour across IPs, without spending the other IPs\' allowance', async () => {
    const service = await start({ TRUST_PROXY: 'loopback' });
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
    for (let index = 0; index < 5; index += 1) {
      expect((await postJson(`${service.url}/auth/sign-in`, { email: 'target@acme.example' }, from(`198.51.100.${index}`))).status).toBe(202);
    }
    const refused = await postJson(`${service.url}/auth/sign-in`, { email: 'Target@Acme.example' }, from('198.51.100.77'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    // The refused IP still has its full allowance for other addresses.
    for (let index = 0; index < 5; index += 1) {
      expect((await postJson(`${service.url}/auth/sign-in`, { email: `other${index}@acme.example` }, from('198.51.100.77'))).status).toBe(202);
    }
  });
});

describe('session cookies', () => {
  it('accepts a cookie signed with the secret and refuses forged, expired and foreign-secret ones', async () => {
    const service = await start();
    const valid = createSessionToken('owner@acme.example', SECRET);
    expect((await account(service, `${SESSION_COOKIE}=${valid}`)).status).toBe(200);

    const [payload = '', signature = ''] = valid.split('.');
    const changed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forgedPayload = Buffer.from(JSON.stringify({ ...changed, email: 'victim@acme.example' })).toString('base64url');
    const cookies = {
      forged: `${forgedPayload}.${signature}`,
      expired: createSessionToken('owner@acme.example', SECRET, new Date(Date.now() - 31 * 24 * 3600 * 1000)),
      otherSecret: createSessionToken('owner@acme.example', 'another-secret-of-enough-length-0000000'),
      garbage: 'not-a-token',
    };
    for (const [name, token] of Object.entries(cookies)) {
      const answer = await account(service, `${SESSION_COOKIE}=${token}`);
      expect(answer.status, name).toBe(401);
      expect(await answer.json(), name).toEqual({ error: expect.any(String), code: 'unauthorized', hint: expect.any(String), docs: 'http://visibility.test/developers' });
    }
    expect((await account(service)).status).toBe(401);
    expect((await fetch(`${service.url}/api/account/audits`, { headers: { cookie: `${SESSION_COOKIE}=${cookies.forged}` } })).status).toBe(401);
  });

  it('signs out: JSON gets 204 and a cleared cookie, a form gets a 303 to /account', async () => {
    const service = await start();
    const cookie = await signIn(service, 'owner@acme.example');
    const out = await fetch(`${service.url}/auth/sign-out`, { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(204);
    const cleared = setSessionCookie(out);
    expect(cleared?.value).toBe('');
    expect(cleared?.attributes).toEqual(expect.arrayContaining(['Max-Age=0', 'Path=/', 'HttpOnly', 'SameSite=Lax']));

    const form = await fetch(`${service.url}/auth/sign-out`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'http://visibility.test' },
      body: '',
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/account');
    expect(setSessionCookie(form)?.attributes).toContain('Max-Age=0');
  });

  it('refuses sign-in and sign-out posts whose Origin or Referer is another site', async () => {
    const service = await start();
    const cookie = await signIn(service, 'owner@acme.example');
    const before = outboxFiles(service).length;
    const foreign: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { origin: 'null' }, { referer: 'https://evil.example/page' }];
    for (const headers of foreign) {
      const out = await fetch(`${service.url}/auth/sign-out`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
      expect(out.status).toBe(403);
      expect(setSessionCookie(out)).toBeUndefined();
      const asked = await postJson(`${service.url}/auth/sign-in`, { email: 'owner@acme.example' }, { headers });
      expect(asked.status).toBe(403);
      expect(asked.body.code).toBe('cross_origin');
    }
    expect(outboxFiles(service)).toHaveLength(before);
    // The deployment's own origin (and a Referer on it) is accepted.
    const own = await postJson(`${service.url}/auth/sign-in`, { email: 'owner@acme.example' }, { headers: { referer: 'http://visibility.test/account' } });
    expect(own.status).toBe(202);
  });
});

describe('the account', () => {
  it('lists the audits attached to the signed-in email, newest first, and no one else\'s', async () => {
    const service = await start();
    const { store } = service.service;
    await store.auditRepository.insertAudit(auditRecord('owner@acme.example', { brand: 'Older', createdAt: '2026-01-02T00:00:00.000Z', score: 40 }));
    await store.auditRepository.insertAudit(auditRecord('owner@acme.example', { brand: 'Newer', createdAt: '2026-03-04T00:00:00.000Z', measured: false, score: 0 }));
    await store.auditRepository.insertAudit(auditRecord('someone@else.example', { brand: 'Theirs' }));
    await store.accountRepository.grantCredits('owner@acme.example', 3);
    const cookie = await signIn(service, 'owner@acme.example');

    expect(await (await account(service, cookie)).json()).toEqual({ email: 'owner@acme.example', credits: 3 });
    const listed = await fetch(`${service.url}/api/account/audits`, { headers: { cookie } });
    expect(listed.status).toBe(200);
    const { audits } = (await listed.json()) as { audits: Array<Record<string, unknown>> };
    expect(audits.map((audit) => audit.brand)).toEqual(['Newer', 'Older']);
    expect(audits[1]).toEqual({
      id: expect.any(String),
      createdAt: '2026-01-02T00:00:00.000Z',
      brand: 'Older',
      website: 'https://acme.example',
      category: 'CRM software',
      score: 40,
      risk: 'medium',
      mode: 'demo',
      // Its badges and share links (ids and dates, never raw tokens): none minted yet.
      tokens: [],
    });
    // Nothing measured is not a measured 0.
    expect(audits[0]?.score).toBeNull();
    expect((await fetch(`${service.url}/api/account/audits`)).status).toBe(401);
  });

  it('renders /account signed in with escaped values, the CSP and no-store', async () => {
    const service = await start();
    await service.service.store.auditRepository.insertAudit(
      auditRecord('owner@acme.example', { brand: '<script>alert(1)</script>', createdAt: '2026-05-06T07:08:09.000Z', score: 71 }),
    );
    await service.service.store.accountRepository.grantCredits('owner@acme.example', 2);
    const cookie = await signIn(service, 'owner@acme.example');
    const page = await fetch(`${service.url}/account`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(ACCOUNT_PAGE_CSP);
    expect(ACCOUNT_PAGE_CSP).toBe("default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script');
    expect(html).toContain('owner@acme.example');
    expect(html).toContain('2 credits');
    expect(html).toContain('2026-05-06');
    expect(html).toContain('>71<');
    expect(html).toContain('action="/auth/sign-out"');
  });

  it('renders /account signed out as the sign-in form, with the same headers', async () => {
    const service = await start();
    const page = await fetch(`${service.url}/account`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(ACCOUNT_PAGE_CSP);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/auth/sign-in">');
    expect(html).toContain('type="email"');
    expect(html).not.toContain('action="/auth/sign-out"');
  });
});
