import { describe, expect, it } from 'vitest';
import type { TokenStore } from '../ports.js';

export const TOKEN_AUDIT_ID = '6f1c1f4e-2b1a-4c3d-8e5f-0a1b2c3d4e5f';
export const OTHER_TOKEN_AUDIT_ID = '7a2d2e5f-3c2b-4d4e-9f60-1b2c3d4e5f60';

const BADGE = '1'.repeat(64);
const SHARE = '2'.repeat(64);
const SECOND_BADGE = '0'.repeat(64);

/**
 * The badge and share tokens port's contract: two handles on one store stand for two instances. The
 * audits TOKEN_AUDIT_ID and OTHER_TOKEN_AUDIT_ID exist in the store `open` returns.
 */
export function tokenStoreContract(name: string, open: () => Promise<{ first: TokenStore; second: TokenStore }>): void {
  describe(`badge and share tokens port contract: ${name}`, () => {
    it('stores tokens by hash and finds an active one of its own kind only', async () => {
      const { first, second } = await open();
      await first.insertToken({ tokenHash: BADGE, kind: 'badge', auditId: TOKEN_AUDIT_ID, createdBy: 'owner@acme.example', createdAt: '2026-11-04T10:00:00.000Z' });
      await first.insertToken({ tokenHash: SHARE, kind: 'share', auditId: TOKEN_AUDIT_ID, createdBy: 'owner@acme.example', createdAt: '2026-11-04T10:00:00.000Z' });
      expect(await second.findActiveToken(BADGE, 'badge')).toEqual({
        tokenHash: BADGE,
        kind: 'badge',
        auditId: TOKEN_AUDIT_ID,
        createdBy: 'owner@acme.example',
        createdAt: '2026-11-04T10:00:00.000Z',
        revokedAt: undefined,
      });
      expect(await second.findActiveToken(BADGE, 'share')).toBeUndefined();
      expect(await second.findActiveToken(SHARE, 'share')).toMatchObject({ kind: 'share' });
      expect(await second.findActiveToken('3'.repeat(64), 'badge')).toBeUndefined();
      // A token of an audit that does not exist is refused (foreign key).
      await expect(
        second.insertToken({ tokenHash: '5'.repeat(64), kind: 'badge', auditId: '00000000-0000-4000-8000-000000000000', createdBy: 'x@acme.example', createdAt: '2026-11-04T11:00:00.000Z' }),
      ).rejects.toThrow();
      // A hash is stored once.
      await expect(
        second.insertToken({ tokenHash: BADGE, kind: 'badge', auditId: TOKEN_AUDIT_ID, createdBy: 'x@acme.example', createdAt: '2026-11-04T11:00:00.000Z' }),
      ).rejects.toThrow();
    });

    it('lists an audit’s tokens oldest first, and revokes once, for its own audit and kind, keeping the first time', async () => {
      const { first, second } = await open();
      await first.insertToken({ tokenHash: BADGE, kind: 'badge', auditId: TOKEN_AUDIT_ID, createdBy: 'owner@acme.example', createdAt: '2026-11-04T10:00:00.000Z' });
      await first.insertToken({ tokenHash: SECOND_BADGE, kind: 'badge', auditId: TOKEN_AUDIT_ID, createdBy: 'owner@acme.example', createdAt: '2026-11-04T10:00:00.000Z' });
      await first.insertToken({ tokenHash: SHARE, kind: 'share', auditId: TOKEN_AUDIT_ID, createdBy: 'owner@acme.example', createdAt: '2026-11-03T10:00:00.000Z' });
      await first.insertToken({ tokenHash: '4'.repeat(64), kind: 'badge', auditId: OTHER_TOKEN_AUDIT_ID, createdBy: 'other@acme.example', createdAt: '2026-11-01T10:00:00.000Z' });
      expect((await second.listTokens(TOKEN_AUDIT_ID)).map((token) => token.tokenHash)).toEqual([SHARE, SECOND_BADGE, BADGE]);
      expect(await second.listTokens('00000000-0000-4000-8000-000000000000')).toEqual([]);

      expect(await second.revokeToken(BADGE, 'badge', OTHER_TOKEN_AUDIT_ID, '2026-11-10T00:00:00.000Z')).toBe(false);
      expect(await second.revokeToken(BADGE, 'share', TOKEN_AUDIT_ID, '2026-11-10T00:00:00.000Z')).toBe(false);
      expect(await first.findActiveToken(BADGE, 'badge')).toBeDefined();
      const revokes = await Promise.all([
        first.revokeToken(BADGE, 'badge', TOKEN_AUDIT_ID, '2026-11-10T00:00:00.000Z'),
        second.revokeToken(BADGE, 'badge', TOKEN_AUDIT_ID, '2026-11-10T00:00:00.000Z'),
      ]);
      expect(revokes).toEqual([true, true]);
      expect(await second.revokeToken(BADGE, 'badge', TOKEN_AUDIT_ID, '2026-12-01T00:00:00.000Z')).toBe(true);
      expect(await first.findActiveToken(BADGE, 'badge')).toBeUndefined();
      expect(await first.findActiveToken(SECOND_BADGE, 'badge')).toBeDefined();
      expect((await second.listTokens(TOKEN_AUDIT_ID)).map((token) => token.revokedAt)).toEqual([undefined, undefined, '2026-11-10T00:00:00.000Z']);
    });

    it('revokes by the listed id (the hash\'s first 16 characters) in one statement, for its own audit and kind, keeping the first time', async () => {
      const { first, second } = await open();
      const badge = `abcdef0123456789${'1'.repeat(48)}`;
      // Same first 16 characters, newer: the id names the oldest (the one listed first).
      const twin = `abcdef0123456789${'2'.repeat(48)}`;
      await first.insertToken({ tokenHash: badge, kind: 'badge', auditId: TOKEN_AUDIT_ID, createdBy: 'owner@acme.example', createdAt: '2026-11-04T10:00:00.000Z' });
      await first.insertToken({ tokenHash: twin, kind: 'badge', auditId: TOKEN_AUDIT_ID, createdBy: 'owner@acme.example', createdAt: '2026-11-05T10:00:00.000Z' });
      await first.insertToken({ tokenHash: SHARE, kind: 'share', auditId: TOKEN_AUDIT_ID, createdBy: 'owner@acme.example', createdAt: '2026-11-04T10:00:00.000Z' });
      const id = badge.slice(0, 16);
      expect(await second.revokeTokenById(id, 'badge', OTHER_TOKEN_AUDIT_ID, '2026-11-10T00:00:00.000Z')).toBe(false);
      expect(await second.revokeTokenById(id, 'share', TOKEN_AUDIT_ID, '2026-11-10T00:00:00.000Z')).toBe(false);
      expect(await second.revokeTokenById('0123456789abcdef', 'badge', TOKEN_AUDIT_ID, '2026-11-10T00:00:00.000Z')).toBe(false);
      const revokes = await Promise.all([
        first.revokeTokenById(id, 'badge', TOKEN_AUDIT_ID, '2026-11-10T00:00:00.000Z'),
        second.revokeTokenById(id, 'badge', TOKEN_AUDIT_ID, '2026-11-11T00:00:00.000Z'),
      ]);
      expect(revokes).toEqual([true, true]);
      // Already revoked: still true, the first time kept.
      expect(await second.revokeTokenById(id, 'badge', TOKEN_AUDIT_ID, '2026-12-01T00:00:00.000Z')).toBe(true);
      const listed = await first.listTokens(TOKEN_AUDIT_ID);
      expect(listed.find((token) => token.tokenHash === badge)?.revokedAt).toMatch(/^2026-11-1[01]T00:00:00\.000Z$/);
      expect(listed.find((token) => token.tokenHash === twin)?.revokedAt).toBeUndefined();
      expect(listed.find((token) => token.tokenHash === SHARE)?.revokedAt).toBeUndefined();
    });
  });
}
