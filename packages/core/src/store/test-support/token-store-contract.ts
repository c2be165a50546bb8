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
  });
}
