import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../audit-repository.js';
import type { AuditStore } from '../ports.js';

let counter = 0;

/** A stored audit for the contract, one minute after the previous one unless told otherwise. */
export function contractAudit(overrides: Partial<AuditRecord> = {}): AuditRecord {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    createdAt: new Date(Date.UTC(2026, 10, 1, 0, counter)).toISOString(),
    brand: 'Acme',
    brandKey: 'acme',
    website: 'https://acme.example/',
    category: 'CRM software',
    categoryKey: 'crm software',
    email: undefined,
    mode: 'live',
    measured: true,
    score: 50,
    response: { ok: true },
    ...overrides,
  };
}

/** The audits port's contract: two handles on one store stand for two instances. */
export function auditStoreContract(name: string, open: () => Promise<{ first: AuditStore; second: AuditStore }>): void {
  describe(`audits port contract: ${name}`, () => {
    it('stores an audit whole, and another instance reads it back exactly', async () => {
      const { first, second } = await open();
      const record = contractAudit({
        email: 'owner@acme.example',
        score: 42.5,
        // Key order, nesting, nulls and text a page must escape all come back as stored.
        response: { zeta: 1, alpha: { list: [1, 'two', null], nested: { score: 42.5 } }, html: '<script>"&\'</script> ünïcødé' },
      });
      await first.insertAudit(record);
      const read = await second.getAudit(record.id);
      expect(read).toEqual(record);
      expect(JSON.stringify(read?.response)).toBe(JSON.stringify(record.response));
      expect(await second.auditExists(record.id)).toBe(true);
      expect(await second.getAudit('00000000-0000-4000-8000-ffffffffffff')).toBeUndefined();
      expect(await first.auditExists('00000000-0000-4000-8000-ffffffffffff')).toBe(false);
    });

    it('keeps an unmeasured audit, no email and no score as such', async () => {
      const { first, second } = await open();
      const record = contractAudit({ measured: false, score: null, email: undefined, mode: 'demo' });
      await first.insertAudit(record);
      expect(await second.getAudit(record.id)).toEqual(record);
    });

    it('stores an id once: a second insert of it, from any instance, rejects and changes nothing', async () => {
      const { first, second } = await open();
      const record = contractAudit({ brand: 'First' });
      const results = await Promise.allSettled([first.insertAudit(record), second.insertAudit({ ...record, brand: 'Second' })]);
      expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      const winner = results[0]?.status === 'fulfilled' ? 'First' : 'Second';
      expect((await first.getAudit(record.id))?.brand).toBe(winner);
      await expect(second.insertAudit(record)).rejects.toThrow();
      expect((await second.getAudit(record.id))?.brand).toBe(winner);
    });

    it("lists an email's audits newest first, up to the limit", async () => {
      const { first, second } = await open();
      const older = contractAudit({ email: 'owner@acme.example', createdAt: '2026-01-02T00:00:00.000Z' });
      const newest = contractAudit({ email: 'owner@acme.example', createdAt: '2026-03-04T00:00:00.000Z' });
      const middle = contractAudit({ email: 'owner@acme.example', createdAt: '2026-02-03T00:00:00.000Z' });
      await first.insertAudit(older);
      await second.insertAudit(newest);
      await first.insertAudit(middle);
      await second.insertAudit(contractAudit({ email: 'someone@else.example' }));
      await second.insertAudit(contractAudit({ email: undefined }));
      expect((await second.listAuditsByEmail('owner@acme.example')).map((audit) => audit.id)).toEqual([newest.id, middle.id, older.id]);
      expect((await first.listAuditsByEmail('owner@acme.example', 2)).map((audit) => audit.id)).toEqual([newest.id, middle.id]);
      expect(await first.listAuditsByEmail('nobody@acme.example')).toEqual([]);
    });

    it('benchmarks a category with the latest measured score of each other brand, in one mode', async () => {
      const { first, second } = await open();
      await first.insertAudit(contractAudit({ brand: 'Zeta', brandKey: 'zeta', score: 10 }));
      await second.insertAudit(contractAudit({ brand: 'Zeta', brandKey: 'zeta', score: 30 }));
      await first.insertAudit(contractAudit({ brand: 'Beta', brandKey: 'beta', score: 70.5 }));
      await second.insertAudit(contractAudit({ brand: 'Gamma', brandKey: 'gamma', score: 0, measured: false }));
      await first.insertAudit(contractAudit({ brand: 'Iota', brandKey: 'iota', score: null }));
      await first.insertAudit(contractAudit({ brand: 'Delta', brandKey: 'delta', score: 90, categoryKey: 'vpn' }));
      await second.insertAudit(contractAudit({ brand: 'Eta', brandKey: 'eta', score: 95, mode: 'demo' }));
      await first.insertAudit(contractAudit({ brand: 'Acme', brandKey: 'acme', score: 99 }));
      expect((await second.latestScoresInCategory('crm software', 'acme', 'live')).sort((left, right) => left - right)).toEqual([30, 70.5]);
      expect(await first.latestScoresInCategory('crm software', 'acme', 'demo')).toEqual([95]);
      expect(await first.latestScoresInCategory('nothing here', 'acme', 'live')).toEqual([]);
    });
  });
}
