import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgPool, openStore } from '@visibility/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliInProcess as runCli } from '../test-support/run-cli.js';

// In-process through main() (test-support/run-cli.ts), with the environment each test gives.
let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'visibility-credits-'));
  env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  for (const name of ['BASE_URL', 'PORT', 'SESSION_SECRET', 'SMTP_URL', 'TRUST_PROXY', 'DATABASE_URL']) delete env[name];
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

async function balance(email: string): Promise<number | undefined> {
  const store = openStore({ dataDir });
  try {
    return (await store.accountRepository.getAccount(email))?.credits;
  } finally {
    store.close();
  }
}

describe('visibility credits grant', () => {
  it('grants credits, adds to the balance on a second grant, and prints the new balance', async () => {
    const first = await runCli(['credits', 'grant', 'Owner@X.com', '3'], { env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('owner@x.com now has 3 credits\n');
    expect(await balance('owner@x.com')).toBe(3);

    const second = await runCli(['credits', 'grant', 'owner@x.com', '1'], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('owner@x.com now has 4 credits\n');
    expect(await balance('owner@x.com')).toBe(4);
  });

  it.each([
    ['a bad email', ['credits', 'grant', 'not-an-email', '3']],
    ['zero', ['credits', 'grant', 'owner@x.com', '0']],
    ['a negative number', ['credits', 'grant', 'owner@x.com', '-2']],
    ['a fraction', ['credits', 'grant', 'owner@x.com', '1.5']],
    ['an exponent', ['credits', 'grant', 'owner@x.com', '1e3']],
    ['a word', ['credits', 'grant', 'owner@x.com', 'three']],
    ['too many credits', ['credits', 'grant', 'owner@x.com', '1000001']],
    ['a missing number', ['credits', 'grant', 'owner@x.com']],
    ['an extra argument', ['credits', 'grant', 'owner@x.com', '3', '4']],
    ['an unknown action', ['credits', 'spend', 'owner@x.com', '3']],
    ['no action', ['credits']],
  ])('exits 2 on %s, with nothing on stdout and no credits granted', async (_label, args) => {
    const result = await runCli(args, { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: visibility credits grant <email> <n>');
    expect(await balance('owner@x.com')).toBeUndefined();
  });

  it('exits 78 on a bad configuration and grants nothing', async () => {
    const result = await runCli(['credits', 'grant', 'owner@x.com', '3'], { env: { ...env, BASE_URL: 'not a url' } });
    expect(result.code).toBe(78);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('BASE_URL');
    expect(await balance('owner@x.com')).toBeUndefined();
  });
});

const PG_TEST_URL = process.env['VISIBILITY_TEST_DATABASE_URL'];

describe.skipIf(PG_TEST_URL === undefined)(
  PG_TEST_URL === undefined ? 'credits grant on PostgreSQL skipped: no VISIBILITY_TEST_DATABASE_URL (install postgresql)' : 'visibility credits grant with DATABASE_URL',
  () => {
    it('grants into PostgreSQL (migrating it first), not into a SQLite file in DATA_DIR', async () => {
      const admin = createPgPool(PG_TEST_URL as string, { max: 1 });
      const name = `vis_credits_${randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const url = new URL(PG_TEST_URL as string);
      url.pathname = `/${name}`;
      const database = createPgPool(url.toString(), { max: 1 });
      try {
        const result = await runCli(['credits', 'grant', 'owner@x.com', '2'], { env: { ...env, DATABASE_URL: url.toString(), SESSION_SECRET: 's'.repeat(32) } });
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        expect(result.stdout).toBe('owner@x.com now has 2 credits\n');
        const { rows } = await database.query<{ credits: number }>('SELECT credits FROM accounts WHERE email = $1', ['owner@x.com']);
        expect(rows).toEqual([{ credits: 2 }]);
        expect(existsSync(join(dataDir, 'visibility.sqlite'))).toBe(false);
      } finally {
        await database.end();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    });
  },
);
