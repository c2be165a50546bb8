import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './store.js';

let dataDir: string;
let store: Store;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'visibility-accounts-'));
  store = openStore({ dataDir });
});
afterEach(() => {
  store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('AccountRepository', () => {
  it('grants credits to a new or existing account, case-insensitively', () => {
    expect(store.accountRepository.grantCredits('Owner@Acme.example', 2)).toBe(2);
    expect(store.accountRepository.grantCredits('owner@acme.example', 3)).toBe(5);
    expect(store.accountRepository.getAccount('OWNER@acme.example')?.credits).toBe(5);
    expect(() => store.accountRepository.grantCredits('owner@acme.example', 0)).toThrow(RangeError);
  });

  it('spends exactly the credits there are, across two connections to the same file', () => {
    store.accountRepository.grantCredits('owner@acme.example', 3);
    const other = openStore({ dataDir });
    try {
      const spent = Array.from({ length: 10 }, (_unused, index) =>
        (index % 2 === 0 ? store : other).accountRepository.spendCredit('owner@acme.example'),
      );
      expect(spent.filter(Boolean)).toHaveLength(3);
      expect(store.accountRepository.getAccount('owner@acme.example')?.credits).toBe(0);
      expect(store.accountRepository.spendCredit('nobody@acme.example')).toBe(false);
    } finally {
      other.close();
    }
  });
});
