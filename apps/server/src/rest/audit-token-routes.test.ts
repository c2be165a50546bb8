import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeAuditToken, type AuditRecord } from '@visibility/core';
import { createBadgeAnswers } from './audit-token-routes.js';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startTestService, type TestService } from '../test-support/service.js';

const SESSION_SECRET = 'token-routes-test-secret-0123456789abcdef';
const BASE_URL = 'http://visibility.test';
const API_ERROR = { error: expect.any(String), code: expect.any(String), hint: expect.any(String), docs: `${BASE_URL}/developers` };
const OWNER = 'Owner@Acme.example';
const DAY_MS = 24 * 60 * 60 * 1000;
const SVG_TYPE = 'image/svg+xml; charset=utf-8';

let running: TestService;
beforeAll(async () => {
  running = await startTestService({ SESSION_SECRET });
});
afterAll(async () => {
  await running.stop();
});

/** Stores an audit as POST /api/audit would, returning its id. */
async function insertAudit(overrides: Partial<AuditRecord> = {}): Promise<string> {
  const id = randomUUID();
  await running.service.store.auditRepository.insertAudit({
    id,
    createdAt: new Date(Date.now() - DAY_MS).toISOString(),
    brand: 'Acme CRM',
    brandKey: 'acme crm',
    website: 'https://acme.example/',
    category: 'CRM software',
    categoryKey: 'crm software',
    email: OWNER,
    mode: 'live',
    measured: true,
    score: 62,
    response: { id, audit: { score: 62 } },
    ...overrides,
  });
  return id;
}

const cookieFor = (email: string, secret = SESSION_SECRET, now = new Date()) => `${SESSION_COOKIE}=${createSessionToken(email, secret, now)}`;
const ownerCookie = () => cookieFor('owner@acme.example');

async function call(method: string, path: string, cookie?: string): Promise<{ status: number; headers: Headers; text: string; body: any }> {
  const response = await fetch(`${running.url}${path}`, { method, headers: cookie === undefined ? {} : { cookie } });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** Mints as the owner unless another cookie, or null for none, is given. */
async function mint(auditId: string, kind: 'badge-token' | 'share-link' = 'badge-token', cookie: string | null = ownerCookie()) {
  return call('POST', `/api/audit/${auditId}/${kind}`, cookie ?? undefined);
}

async function mintBadge(auditId: string): Promise<string> {
  const result = await mint(auditId);
  expect(result.status).toBe(201);
  return result.body.token as string;
}

const utcMonth = (date: Date) => `${date.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${date.getUTCFullYear()}`;

describe('POST /api/audit/{auditId}/badge-token', () => {
  it('lets the signed-in owner mint a badge token, with its URLs and the embed (email compared case-insensitively)', async () => {
    const auditId = await insertAudit();
    const result = await mint(auditId);
    expect(result.status).toBe(201);
    expect(result.headers.get('cache-control')).toBe('no-store');
    const token: string = result.body.token;
    expect(token).toMatch(/^vb_[A-Za-z0-9_-]{43}$/);
    expect(result.body).toEqual({
      token,
      badgeUrl: `${BASE_URL}/api/badge/${token}`,
      landingUrl: `${BASE_URL}/badge/${token}`,
      embedHtml: `<a href="${BASE_URL}/badge/${token}"><img src="${BASE_URL}/api/badge/${token}" width="250" height="40" alt="AI visibility of Acme CRM"></a>`,
    });
  });

  it('escapes the brand in the embed alt text', async () => {
    const auditId = await insertAudit({ brand: `<script>alert("x")</script> & 'Co'` });
    const result = await mint(auditId);
    expect(result.body.embedHtml).toContain('alt="AI visibility of &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;"');
    expect(result.body.embedHtml).not.toContain('<script');
  });

  it('refuses a request sent from another site with the owner cookie (403 cross_origin)', async () => {
    const auditId = await insertAudit();
    const response = await fetch(`${running.url}/api/audit/${auditId}/badge-token`, {
      method: 'POST',
      headers: { cookie: ownerCookie(), origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ ...API_ERROR, code: 'cross_origin' });
    const sameSite = await fetch(`${running.url}/api/audit/${auditId}/badge-token`, {
      method: 'POST',
      headers: { cookie: ownerCookie(), origin: BASE_URL },
    });
    expect(sameSite.status).toBe(201);
  });

  it('answers 401 unauthorized without a session cookie', async () => {
    const result = await mint(await insertAudit(), 'badge-token', null);
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ ...API_ERROR, code: 'unauthorized' });
  });

  it('answers 401 for a forged, tampered or expired cookie', async () => {
    const auditId = await insertAudit();
    const genuine = createSessionToken('owner@acme.example', SESSION_SECRET);
    const [payload = '', signature = ''] = genuine.split('.');
    const otherPayload = Buffer.from(JSON.stringify({ email: 'owner@acme.example', exp: Math.floor(Date.now() / 1000) + 9_999_999, v: 1 })).toString('base64url');
    const cookies = [
      cookieFor('owner@acme.example', 'some-other-secret-that-is-long-enough-0000'),
      `${SESSION_COOKIE}=${otherPayload}.${signature}`,
      `${SESSION_COOKIE}=${payload}.${signature.slice(0, -2)}xx`,
      `${SESSION_COOKIE}=not-a-token`,
      cookieFor('owner@acme.example', SESSION_SECRET, new Date(Date.now() - 31 * DAY_MS)),
    ];
    for (const cookie of cookies) {
      const result = await mint(auditId, 'badge-token', cookie);
      expect(result.status, cookie).toBe(401);
      expect(result.body.code).toBe('unauthorized');
    }
  });

  it("answers 403 forbidden for another user's valid cookie, and for an audit that has no owner", async () => {
    const other = await mint(await insertAudit(), 'badge-token', cookieFor('someone@else.example'));
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ ...API_ERROR, code: 'forbidden' });
    const ownerless = await mint(await insertAudit({ email: undefined }));
    expect(ownerless.status).toBe(403);
    expect(ownerless.body.code).toBe('forbidden');
  });

  it('answers 404 audit_not_found for an unknown audit or an id that is not a UUID, when signed in', async () => {
    for (const auditId of [randomUUID(), 'not-a-uuid']) {
      const result = await mint(auditId);
      expect(result.status, auditId).toBe(404);
      expect(result.body).toEqual({ ...API_ERROR, code: 'audit_not_found' });
    }
    // Signed out, existence is not revealed.
    expect((await mint(randomUUID(), 'badge-token', null)).status).toBe(401);
  });
});

describe('POST /api/audit/{auditId}/share-link', () => {
  it('lets the owner mint a share link', async () => {
    const result = await mint(await insertAudit(), 'share-link');
    expect(result.status).toBe(201);
    expect(result.body.token).toMatch(/^vs_[A-Za-z0-9_-]{43}$/);
    expect(result.body).toEqual({ token: result.body.token, url: `${BASE_URL}/share/${result.body.token}` });
  });

  it('is owner only like the badge token', async () => {
    const auditId = await insertAudit();
    expect((await mint(auditId, 'share-link', null)).status).toBe(401);
    expect((await mint(auditId, 'share-link', cookieFor('someone@else.example'))).status).toBe(403);
  });
});

describe('tokens are stored hashed', () => {
  it('keeps the raw token out of the table and the database file', async () => {
    const auditId = await insertAudit();
    const badge = await mintBadge(auditId);
    const share = (await mint(auditId, 'share-link')).body.token as string;
    const { database, path } = running.service.store;
    const rows = JSON.stringify(database.prepare('SELECT * FROM audit_tokens WHERE audit_id = ?').all(auditId));
    expect(rows).not.toContain(badge.slice(3));
    expect(rows).not.toContain(share.slice(3));
    database.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(path);
    expect(file.includes(badge.slice(3))).toBe(false);
    expect(file.includes(share.slice(3))).toBe(false);
    expect(file.includes(auditId)).toBe(true);
  });
});

describe('GET /api/badge/{token}', () => {
  it('draws a fresh badge: SVG, cached for a day, no sniffing, a strict CSP', async () => {
    const createdAt = new Date(Date.now() - DAY_MS);
    const token = await mintBadge(await insertAudit({ createdAt: createdAt.toISOString(), brand: 'Acme & Sons' }));
    const result = await call('GET', `/api/badge/${token}`);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe(SVG_TYPE);
    expect(result.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(result.headers.get('x-content-type-options')).toBe('nosniff');
    expect(result.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(result.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="250" height="40" viewBox="0 0 250 40" role="img"/);
    expect(result.text).toContain(`AI visibility · measured ${utcMonth(createdAt)}</text>`);
    expect(result.text).toContain('>Acme &amp; Sons</text>');
  });

  it('stale: 61 days after the audit the badge asks for a re-check and claims no measurement', async () => {
    const token = await mintBadge(await insertAudit({ createdAt: new Date(Date.now() - 61 * DAY_MS).toISOString() }));
    const result = await call('GET', `/api/badge/${token}`);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe(SVG_TYPE);
    expect(result.text).toContain('AI visibility · re-check due</text>');
    expect(result.text).not.toContain('measured');
    expect(result.text).toContain('>Acme CRM</text>');
  });

  it('is not cached past the moment it turns stale', async () => {
    const token = await mintBadge(await insertAudit({ createdAt: new Date(Date.now() - 60 * DAY_MS + 3_600_000).toISOString() }));
    const result = await call('GET', `/api/badge/${token}`);
    expect(result.text).toContain('AI visibility · measured');
    const maxAge = Number(/max-age=(\d+)/.exec(result.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(3_500);
    expect(maxAge).toBeLessThanOrEqual(3_600);
  });

  it('unknown or malformed token: 404 that is still an SVG (the neutral badge), cached briefly', async () => {
    for (const token of [`vb_${'A'.repeat(43)}`, 'nonsense', '%3Csvg%3E']) {
      const result = await call('GET', `/api/badge/${token}`);
      expect(result.status, token).toBe(404);
      expect(result.headers.get('content-type')).toBe(SVG_TYPE);
      expect(result.headers.get('cache-control')).toBe('public, max-age=300');
      expect(result.headers.get('x-content-type-options')).toBe('nosniff');
      expect(result.text).toContain('AI visibility · not found</text>');
      expect(result.text.startsWith('<svg')).toBe(true);
    }
  });

  it('a share token is not a badge token', async () => {
    const share = (await mint(await insertAudit(), 'share-link')).body.token as string;
    expect((await call('GET', `/api/badge/${share}`)).status).toBe(404);
  });
});

describe('createBadgeAnswers: found badges kept a few seconds', () => {
  it('keeps a found badge for keepMs, then reads the store again; forget() drops it at once', async () => {
    let nowMs = 1_000_000;
    const { tokenRepository } = running.service.store;
    const badges = createBadgeAnswers(tokenRepository, { keepMs: 5_000, now: () => nowMs });
    const auditId = await insertAudit();
    const token = await mintBadge(auditId);
    const first = badges.answer(token, undefined);
    expect(first.status).toBe(200);
    // Revoked in the store behind the kept answer (as another process would): still 200 within 5 s, 404 after.
    expect(await revokeAuditToken(tokenRepository, { auditId, kind: 'badge', rawToken: token })).toBe(true);
    nowMs += 4_999;
    expect(badges.answer(token, undefined)).toBe(first);
    nowMs += 1;
    expect(badges.answer(token, undefined).status).toBe(404);

    const otherAuditId = await insertAudit();
    const other = await mintBadge(otherAuditId);
    expect(badges.answer(other, undefined).status).toBe(200);
    expect(await revokeAuditToken(tokenRepository, { auditId: otherAuditId, kind: 'badge', rawToken: other })).toBe(true);
    badges.forget(other);
    expect(badges.answer(other, undefined).status).toBe(404);
  });

  it('answers If-None-Match from the kept answer with 304, and keeps no unknown token', async () => {
    const { tokenRepository } = running.service.store;
    const badges = createBadgeAnswers(tokenRepository, { maxKept: 1 });
    const token = await mintBadge(await insertAudit());
    const first = badges.answer(token, undefined);
    const etag = first.headers.find(([name]) => name === 'ETag')?.[1] ?? '';
    const revalidated = badges.answer(token, etag);
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers).toEqual([
      ['Cache-Control', first.headers.find(([name]) => name === 'Cache-Control')?.[1]],
      ['ETag', etag],
    ]);
    const unknown = `vb_${'C'.repeat(43)}`;
    expect(badges.answer(unknown, undefined).status).toBe(404);
    expect(badges.answer(token, undefined)).toBe(first); // the unknown token did not push it out
    // At most maxKept answers: a second found badge pushes the first out.
    const second = await mintBadge(await insertAudit());
    badges.answer(second, undefined);
    expect(badges.answer(token, undefined)).not.toBe(first);
    expect(badges.answer(token, undefined).body).toEqual(first.body);
  });
});

describe('DELETE /api/audit/{auditId}/tokens/{kind}/{token}', () => {
  it('revokes a badge token: 204, then the badge is the 404 SVG', async () => {
    const auditId = await insertAudit();
    const token = await mintBadge(auditId);
    expect((await call('GET', `/api/badge/${token}`)).status).toBe(200);
    const revoked = await call('DELETE', `/api/audit/${auditId}/tokens/badge/${token}`, ownerCookie());
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    const badge = await call('GET', `/api/badge/${token}`);
    expect(badge.status).toBe(404);
    expect(badge.headers.get('content-type')).toBe(SVG_TYPE);
    expect(badge.text).toContain('AI visibility · not found');
    // Revoking again is not an error.
    expect((await call('DELETE', `/api/audit/${auditId}/tokens/badge/${token}`, ownerCookie())).status).toBe(204);
  });

  it('lists the tokens by id (never raw) and revokes a badge by that id: the badge stops answering at once', async () => {
    const auditId = await insertAudit();
    const token = await mintBadge(auditId);
    expect((await call('GET', `/api/badge/${token}`)).status).toBe(200);
    const listed = await call('GET', `/api/audit/${auditId}/tokens`, ownerCookie());
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(token);
    const [entry] = listed.body.tokens as Array<{ id: string; kind: string; createdAt: string; revokedAt: string | null }>;
    expect(entry).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{16}$/u), kind: 'badge', revokedAt: null });
    expect((await call('GET', `/api/audit/${auditId}/tokens`)).status).toBe(401);
    expect((await call('DELETE', `/api/audit/${auditId}/tokens/badge/${entry?.id}`, ownerCookie())).status).toBe(204);
    // The kept answer of the badge was dropped too: 404 now, not within a few seconds.
    expect((await call('GET', `/api/badge/${token}`)).status).toBe(404);
    const after = await call('GET', `/api/audit/${auditId}/tokens`, ownerCookie());
    expect(after.body.tokens[0].revokedAt).toEqual(expect.any(String));
  });

  it('revokes a share link', async () => {
    const auditId = await insertAudit();
    const share = (await mint(auditId, 'share-link')).body.token as string;
    expect((await call('DELETE', `/api/audit/${auditId}/tokens/share/${share}`, ownerCookie())).status).toBe(204);
    const row = running.service.store.database.prepare("SELECT revoked_at FROM audit_tokens WHERE audit_id = ? AND kind = 'share'").get(auditId) as {
      revoked_at: string | null;
    };
    expect(row.revoked_at).not.toBeNull();
  });

  it('is owner only and leaves the token working when refused', async () => {
    const auditId = await insertAudit();
    const token = await mintBadge(auditId);
    const path = `/api/audit/${auditId}/tokens/badge/${token}`;
    expect((await call('DELETE', path)).status).toBe(401);
    const forbidden = await call('DELETE', path, cookieFor('someone@else.example'));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('forbidden');
    expect((await call('GET', `/api/badge/${token}`)).status).toBe(200);
  });

  it("answers 404 token_not_found for another audit's token, the wrong kind or an unknown token", async () => {
    const auditId = await insertAudit();
    const otherAudit = await insertAudit();
    const token = await mintBadge(otherAudit);
    for (const path of [
      `/api/audit/${auditId}/tokens/badge/${token}`,
      `/api/audit/${otherAudit}/tokens/share/${token}`,
      `/api/audit/${otherAudit}/tokens/widget/${token}`,
      `/api/audit/${otherAudit}/tokens/badge/vb_${'A'.repeat(43)}`,
    ]) {
      const result = await call('DELETE', path, ownerCookie());
      expect(result.status, path).toBe(404);
      expect(result.body).toEqual({ ...API_ERROR, code: 'token_not_found' });
    }
    expect((await call('GET', `/api/badge/${token}`)).status).toBe(200);
  });
});

describe('/openapi.json', () => {
  it('describes the public badge and none of the private token endpoints', async () => {
    const document = (await call('GET', '/openapi.json')).body;
    const paths = Object.keys(document.paths);
    expect(paths).toContain('/api/badge/{token}');
    expect(paths.filter((path) => /badge-token|share-link|tokens/.test(path))).toEqual([]);
    expect(JSON.stringify(document)).not.toMatch(/badge-token|share-link/);
  });
});
