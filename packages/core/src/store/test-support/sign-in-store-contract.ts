import { describe, expect, it } from 'vitest';
import type { SignInStore } from '../ports.js';

const HASH = 'a'.repeat(64);
const OTHER_HASH = 'b'.repeat(64);

/** The sign-in links port's contract: two handles on one store stand for two instances. */
export function signInStoreContract(name: string, open: () => Promise<{ first: SignInStore; second: SignInStore }>): void {
  describe(`sign-in links port contract: ${name}`, () => {
    it('stores a link by its hash, lower-casing the email, and reads it back', async () => {
      const { first, second } = await open();
      await first.insertLink({ tokenHash: HASH, email: 'Owner@Acme.example', createdAt: new Date('2026-03-10T12:00:00Z'), expiresAt: new Date('2026-03-10T12:15:00Z') });
      expect(await second.getLink(HASH)).toEqual({
        tokenHash: HASH,
        email: 'owner@acme.example',
        createdAt: '2026-03-10T12:00:00.000Z',
        expiresAt: '2026-03-10T12:15:00.000Z',
        usedAt: undefined,
      });
      expect(await second.getLink(OTHER_HASH)).toBeUndefined();
      // A hash is stored once.
      await expect(second.insertLink({ tokenHash: HASH, email: 'x@acme.example', createdAt: new Date(), expiresAt: new Date() })).rejects.toThrow();
    });

    it('signs in once when two instances use one link at once, and never after it expired', async () => {
      const { first, second } = await open();
      await first.insertLink({ tokenHash: HASH, email: 'owner@acme.example', createdAt: new Date('2026-03-10T12:00:00Z'), expiresAt: new Date('2026-03-10T12:15:00Z') });
      await first.insertLink({ tokenHash: OTHER_HASH, email: 'other@acme.example', createdAt: new Date('2026-03-10T12:00:00Z'), expiresAt: new Date('2026-03-10T12:15:00Z') });
      const at = new Date('2026-03-10T12:05:00Z');
      const uses = await Promise.all(Array.from({ length: 10 }, (_unused, index) => (index % 2 === 0 ? first : second).consumeLink(HASH, at)));
      expect(uses.filter((email) => email !== undefined)).toEqual(['owner@acme.example']);
      expect((await second.getLink(HASH))?.usedAt).toBe('2026-03-10T12:05:00.000Z');
      expect(await first.consumeLink('c'.repeat(64), at)).toBeUndefined();
      // Expiry is exclusive: at the expiry instant the link no longer works.
      expect(await second.consumeLink(OTHER_HASH, new Date('2026-03-10T12:15:00Z'))).toBeUndefined();
      expect(await first.consumeLink(OTHER_HASH, new Date('2026-03-10T12:14:59.999Z'))).toBe('other@acme.example');
    });

    it('deletes links that expired before a moment, used or not', async () => {
      const { first, second } = await open();
      await first.insertLink({ tokenHash: HASH, email: 'owner@acme.example', createdAt: new Date('2026-03-08T12:00:00Z'), expiresAt: new Date('2026-03-08T12:15:00Z') });
      await first.insertLink({ tokenHash: OTHER_HASH, email: 'owner@acme.example', createdAt: new Date('2026-03-10T12:00:00Z'), expiresAt: new Date('2026-03-10T12:15:00Z') });
      await second.consumeLink(HASH, new Date('2026-03-08T12:01:00Z'));
      expect(await second.deleteExpiredLinks(new Date('2026-03-08T12:15:00Z'))).toBe(0);
      expect(await second.deleteExpiredLinks(new Date('2026-03-09T12:15:00Z'))).toBe(1);
      expect(await first.getLink(HASH)).toBeUndefined();
      expect(await first.getLink(OTHER_HASH)).toBeDefined();
    });
  });
}
