import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditRecord } from './audit-repository.js';
import { openStore, type Store } from './store.js';

let dataDir: string;
let store: Store;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'visibility-audits-'));
  store = openStore({ dataDir });
});
afterEach(() => {
  store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let counter = 0;
function audit(overrides: Partial<AuditRecord>): AuditRecord {
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

describe('AuditRepository', () => {
  it('stores and reads an audit whole', () => {
    const record = audit({ email: 'owner@acme.example', response: { audit: { score: 50 }, list: [1, 2] } });
    store.auditRepository.insertAudit(record);
    expect(store.auditRepository.getAudit(record.id)).toEqual(record);
    expect(store.auditRepository.getAudit('missing')).toBeUndefined();
    expect(store.auditRepository.listAuditsByEmail('owner@acme.example').map((entry) => entry.id)).toEqual([record.id]);
  });

  it('benchmarks a category with the latest measured score of each other brand', () => {
    const repository = store.auditRepository;
    repository.insertAudit(audit({ brand: 'Zeta', brandKey: 'zeta', score: 10 }));
    repository.insertAudit(audit({ brand: 'Zeta', brandKey: 'zeta', score: 30 }));
    repository.insertAudit(audit({ brand: 'Beta', brandKey: 'beta', score: 70 }));
    repository.insertAudit(audit({ brand: 'Gamma', brandKey: 'gamma', score: 0, measured: false }));
    repository.insertAudit(audit({ brand: 'Delta', brandKey: 'delta', score: 90, categoryKey: 'vpn' }));
    repository.insertAudit(audit({ brand: 'Eta', brandKey: 'eta', score: 95, mode: 'demo' }));
    repository.insertAudit(audit({ brand: 'Acme', brandKey: 'acme', score: 99 }));
    expect(repository.latestScoresInCategory('crm software', 'acme', 'live').sort()).toEqual([30, 70]);
  });
});
