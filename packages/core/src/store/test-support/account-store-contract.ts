import { describe, expect, it } from 'vitest';
import type { AccountStore } from '../ports.js';

/** The accounts port's contract: two handles on one store stand for two instances. */
export function accountStoreContract(name: string, open: () => Promise<{ first: AccountStore; second: AccountStore }>): void {
  describe(`accounts port contract: ${name}`, () => {
    it('grants credits to a new or existing account, case-insensitively', async () => {
      const { first, second } = await open();
      expect(await first.grantCredits('Owner@Acme.example', 2)).toBe(2);
      expect(await second.grantCredits('owner@acme.example', 3)).toBe(5);
      expect(await first.getAccount('OWNER@acme.example')).toMatchObject({ email: 'owner@acme.example', credits: 5 });
      await expect(first.grantCredits('owner@acme.example', 0)).rejects.toThrow(RangeError);
      expect(await first.getAccount('nobody@acme.example')).toBeUndefined();
      expect(await second.ensureAccount('New@Acme.example', new Date('2026-03-10T12:00:00Z'))).toEqual({
        email: 'new@acme.example',
        credits: 0,
        createdAt: '2026-03-10T12:00:00.000Z',
      });
      expect((await first.ensureAccount('owner@acme.example')).credits).toBe(5);
    });

    it('spends exactly the credits there are when two instances spend at once, and refunds', async () => {
      const { first, second } = await open();
      await first.grantCredits('owner@acme.example', 3);
      const spent = await Promise.all(Array.from({ length: 10 }, (_unused, index) => (index % 2 === 0 ? first : second).spendCredit('owner@acme.example')));
      expect(spent.filter(Boolean)).toHaveLength(3);
      expect((await first.getAccount('owner@acme.example'))?.credits).toBe(0);
      expect(await second.spendCredit('nobody@acme.example')).toBe(false);
      await second.refundCredit('owner@acme.example');
      expect((await first.getAccount('owner@acme.example'))?.credits).toBe(1);
    });
  });
}
