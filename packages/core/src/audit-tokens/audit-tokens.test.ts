import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../store/audit-repository.js';
import { openStore, type Store } from '../store/store.js';
import { hashAuditToken, mintAuditToken, resolveAuditToken, revokeAuditToken } from './audit-tokens.js';
import { badgeForToken } from './badge-for-token.js';
import { parseSvg } from './test-support/parse-svg.js';

const AUDIT_ID = '6f1c1f4e-2b1a-4c3d-8e5f-0a1b2c3d4e5f';
const OTHER_AUDIT_ID = '7a2d2e5f-3c2b-4d4e-9f60-1b2c3d4e5f60';
const DAY_MS = 24 * 60 * 60 * 1000;

let dataDir: string;
let store: Store;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'visibility-tokens-'));
  store = openStore({ dataDir });
  await store.auditRepository.insertAudit(audit(AUDIT_ID));
  await store.auditRepository.insertAudit(audit(OTHER_AUDIT_ID));
});
afterEach(() => {
  store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function audit(id: string, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    id,
    createdAt: '2026-11-04T09:30:00.000Z',
    brand: 'Acme & Sons',
    brandKey: 'acme & sons',
    website: 'https://acme.example/',
    category: 'CRM software',
    categoryKey: 'crm software',
    email: 'owner@acme.example',
    mode: 'live',
    measured: true,
    score: 62,
    response: { audit: { score: 62 } },
    ...overrides,
  };
}

function storedRows(): Array<Record<string, unknown>> {
  return store.database.prepare('SELECT * FROM audit_tokens').all() as Array<Record<string, unknown>>;
}

describe('mintAuditToken', () => {
  it('returns a recognisable 256-bit token per kind and stores only its SHA-256 hash', async () => {
    const badge = await mintAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', createdBy: 'Owner@Acme.example' });
    const share = await mintAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'share', createdBy: 'owner@acme.example' });
    expect(badge).toMatch(/^vb_[A-Za-z0-9_-]{43}$/);
    expect(share).toMatch(/^vs_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(badge.slice(3), 'base64url')).toHaveLength(32);
    const rows = storedRows();
    expect(rows.map((row) => row.token_hash).sort()).toEqual(
      [badge, share].map((token) => createHash('sha256').update(token).digest('hex')).sort(),
    );
    expect(rows.find((row) => row.kind === 'badge')).toMatchObject({ audit_id: AUDIT_ID, created_by: 'owner@acme.example', revoked_at: null });
    expect(JSON.stringify(rows)).not.toContain(badge.slice(3));
    expect(JSON.stringify(rows)).not.toContain(share.slice(3));
  });

  it('never repeats a token', async () => {
    const tokens = new Set(await Promise.all(Array.from({ length: 200 }, () => mintAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', createdBy: 'o@a.example' }))));
    expect(tokens.size).toBe(200);
  });

  it('refuses an audit that does not exist', async () => {
    await expect(
      mintAuditToken(store.tokenRepository, { auditId: '00000000-0000-4000-8000-000000000000', kind: 'badge', createdBy: 'o@a.example' }),
    ).rejects.toThrow(/FOREIGN KEY/);
  });

  it('keeps the raw token out of the database file', async () => {
    const token = await mintAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', createdBy: 'o@a.example' });
    store.database.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(store.path);
    expect(file.includes(hashAuditToken(token))).toBe(true);
    expect(file.includes(token.slice(3))).toBe(false);
  });
});

describe('resolveAuditToken', () => {
  it('finds an active token of its own kind only', async () => {
    const badge = await mintAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', createdBy: 'o@a.example' });
    expect(await resolveAuditToken(store.tokenRepository, badge, 'badge')).toMatchObject({ auditId: AUDIT_ID, kind: 'badge', revokedAt: undefined });
    expect(await resolveAuditToken(store.tokenRepository, badge, 'share')).toBeUndefined();
    // Same secret under the other prefix: a different token.
    expect(await resolveAuditToken(store.tokenRepository, `vs_${badge.slice(3)}`, 'share')).toBeUndefined();
  });

  it('does not find unknown or malformed tokens', async () => {
    expect(await resolveAuditToken(store.tokenRepository, `vb_${'A'.repeat(43)}`, 'badge')).toBeUndefined();
    for (const malformed of ['', 'vb_', 'vb_short', `vb_${'A'.repeat(44)}`, `vb_${'A'.repeat(42)}=`, `xx_${'A'.repeat(43)}`]) {
      expect(await resolveAuditToken(store.tokenRepository, malformed, 'badge')).toBeUndefined();
    }
  });
});

describe('revokeAuditToken', () => {
  it('makes the token unresolvable, once and for all, and only for its own audit and kind', async () => {
    const badge = await mintAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', createdBy: 'o@a.example' });
    expect(await revokeAuditToken(store.tokenRepository, { auditId: OTHER_AUDIT_ID, kind: 'badge', rawToken: badge })).toBe(false);
    expect(await revokeAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'share', rawToken: badge })).toBe(false);
    expect(await resolveAuditToken(store.tokenRepository, badge, 'badge')).toBeDefined();

    const first = new Date('2026-11-10T00:00:00.000Z');
    expect(await revokeAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', rawToken: badge }, first)).toBe(true);
    expect(await resolveAuditToken(store.tokenRepository, badge, 'badge')).toBeUndefined();
    // Revoking again is not an error and keeps the first time.
    expect(await revokeAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', rawToken: badge }, new Date('2026-12-01T00:00:00.000Z'))).toBe(true);
    expect(storedRows()[0]).toMatchObject({ revoked_at: first.toISOString() });
  });

  it("leaves the audit's other tokens working", async () => {
    const revoked = await mintAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', createdBy: 'o@a.example' });
    const kept = await mintAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', createdBy: 'o@a.example' });
    await revokeAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', rawToken: revoked });
    expect(await resolveAuditToken(store.tokenRepository, kept, 'badge')).toBeDefined();
  });
});

describe('badgeForToken', () => {
  const texts = (svg: string) => parseSvg(svg).children.flatMap((element) => element.children).map((element) => element.text);

  it("draws the audit's brand and month while the last run is at most 60 days old", async () => {
    const token = await mintAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', createdBy: 'o@a.example' });
    const badge = badgeForToken(store.tokenRepository, token, new Date('2026-11-20T00:00:00.000Z'));
    expect(badge).toMatchObject({ found: true, state: 'fresh' });
    expect(badge.recheckDueAt?.getTime()).toBe(Date.parse('2026-11-04T09:30:00.000Z') + 60 * DAY_MS + 1);
    expect(texts(badge.svg)).toEqual(['AI visibility · measured Nov 2026', 'Acme & Sons']);
  });

  it('asks for a re-check 61 days after the last run', async () => {
    const token = await mintAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', createdBy: 'o@a.example' });
    const badge = badgeForToken(store.tokenRepository, token, new Date(Date.parse('2026-11-04T09:30:00.000Z') + 61 * DAY_MS));
    expect(badge).toMatchObject({ found: true, state: 'recheck', recheckDueAt: undefined });
    expect(texts(badge.svg)[0]).toBe('AI visibility · re-check due');
  });

  it('counts the latest completed buyer-question map as the last run, never a running one', async () => {
    const id = '8b3e3f60-4d3c-4e5f-a071-2c3d4e5f6071';
    await store.auditRepository.insertAudit(audit(id, { createdAt: '2026-01-10T00:00:00.000Z' }));
    const token = await mintAuditToken(store.tokenRepository, { auditId: id, kind: 'badge', createdBy: 'o@a.example' });
    const at = new Date('2026-11-20T00:00:00.000Z');
    const job = { auditId: id, mode: 'live', brand: 'Acme', website: 'https://acme.example/', competitors: [], questions: ['q?'], providers: [] };
    expect(store.mapRepository.createFirstJob({ ...job, createdAt: '2026-01-11T00:00:00.000Z' })).toBe(true);
    expect(texts(badgeForToken(store.tokenRepository, token, at).svg)[0]).toBe('AI visibility · re-check due');
    store.mapRepository.completeJob(id, 1, { rows: [] }, '2026-01-11T00:01:00.000Z');
    expect(texts(badgeForToken(store.tokenRepository, token, at).svg)[0]).toBe('AI visibility · re-check due');
    const rerun = store.mapRepository.createRerunJob({ ...job, createdAt: '2026-11-02T00:00:00.000Z' }, () => true);
    expect(rerun).toMatchObject({ outcome: 'started', job: { generation: 2 } });
    expect(texts(badgeForToken(store.tokenRepository, token, at).svg)[0]).toBe('AI visibility · re-check due');
    store.mapRepository.completeJob(id, 2, { rows: [] }, '2026-11-02T00:05:00.000Z');
    expect(texts(badgeForToken(store.tokenRepository, token, at).svg)[0]).toBe('AI visibility · measured Nov 2026');
  });

  it('never calls a demo audit a measurement', async () => {
    const id = '9c4f4071-5e4d-4f60-b182-3d4e5f607182';
    await store.auditRepository.insertAudit(audit(id, { mode: 'demo' }));
    const token = await mintAuditToken(store.tokenRepository, { auditId: id, kind: 'badge', createdBy: 'o@a.example' });
    expect(texts(badgeForToken(store.tokenRepository, token, new Date('2026-11-20T00:00:00.000Z')).svg)[0]).toBe('AI visibility · demo, not measured');
  });

  it('is the neutral not-found badge for unknown, malformed, revoked and share tokens', async () => {
    const now = new Date('2026-11-20T00:00:00.000Z');
    const revoked = await mintAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', createdBy: 'o@a.example' });
    await revokeAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'badge', rawToken: revoked });
    const share = await mintAuditToken(store.tokenRepository, { auditId: AUDIT_ID, kind: 'share', createdBy: 'o@a.example' });
    for (const token of [`vb_${'A'.repeat(43)}`, 'nonsense', revoked, share, `vb_${share.slice(3)}`]) {
      const badge = badgeForToken(store.tokenRepository, token, now);
      expect(badge, token).toMatchObject({ found: false, state: 'unknown' });
      expect(texts(badge.svg)[0]).toBe('AI visibility · not found');
    }
  });
});
