// `visibility watch`: the real bin against a DATA_DIR in the demo lineup.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test-support/spawn-cli.js';

let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'visibility-watch-cli-'));
  env = { PATH: process.env['PATH'], DATA_DIR: dataDir, BASE_URL: 'http://visibility.test', LOG_LEVEL: 'warn' };
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('visibility watch', () => {
  it('adds, lists, runs due watches at a given time, runs one now and prints the history (also as CSV)', async () => {
    const added = await runCli(
      ['watch', 'add', 'Pipedrive', '--category', 'CRM software', '--email', 'Owner@Pipedrive.test', '--samples', '1', '--question', 'Which CRM is best for a small agency?', '--question', 'Best CRM for startups?', '--json'],
      { env, timeoutMs: 30_000 },
    );
    expect(added.code, added.stderr).toBe(0);
    const watch = JSON.parse(added.stdout);
    expect(watch).toMatchObject({ brand: 'Pipedrive', schedule: 'daily', samples: 1, questions: ['Which CRM is best for a small agency?', 'Best CRM for startups?'] });

    const listed = await runCli(['watch', 'list', '--email', 'owner@pipedrive.test'], { env, timeoutMs: 30_000 });
    expect(listed.stdout).toContain(watch.id);

    // Nothing is due before the first run time; at it, the watch runs once; at the same time again, nothing.
    const early = await runCli(['watch', 'run-due', '--now', new Date(Date.parse(watch.nextRunAt) - 60_000).toISOString()], { env, timeoutMs: 30_000 });
    expect(early.stdout).toBe('no watch was due\n');
    const due = await runCli(['watch', 'run-due', '--now', watch.nextRunAt], { env, timeoutMs: 30_000 });
    expect(due.code, due.stderr).toBe(0);
    expect(due.stdout).toMatch(new RegExp(`^${watch.id} run [0-9a-f-]{36}: complete\\n$`));
    expect((await runCli(['watch', 'run-due', '--now', watch.nextRunAt], { env, timeoutMs: 30_000 })).stdout).toBe('no watch was due\n');

    const now = await runCli(['watch', 'run', watch.id], { env, timeoutMs: 30_000 });
    expect(now.code, now.stderr).toBe(0);
    expect(now.stdout).toMatch(/^run [0-9a-f-]{36}: complete\nnamed in \d+ of 6 answers \(95% interval \d+–\d+%\)\n$/);

    const history = await runCli(['watch', 'history', watch.id], { env, timeoutMs: 30_000 });
    expect(history.stdout.trim().split('\n')).toHaveLength(2);
    const csv = await runCli(['watch', 'history', watch.id, '--csv'], { env, timeoutMs: 30_000 });
    expect(csv.stdout.split('\r\n')[0]).toMatch(/^runId,at,mode,provider,/);
    expect(csv.stdout.trim().split('\r\n')).toHaveLength(1 + 2 * 3);
  }, 120_000);

  it('refuses bad input with exit 2 and the field named', async () => {
    const bad = await runCli(['watch', 'add', 'Pipedrive', '--category', 'CRM software', '--email', 'o@p.test', '--schedule', 'hourly'], { env, timeoutMs: 30_000 });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('`schedule`');
    expect(bad.stderr).toContain('[invalid_schedule]');
    expect((await runCli(['watch', 'run-due', '--now', 'yesterday'], { env })).code).toBe(2);
    expect((await runCli(['watch', 'frobnicate'], { env })).code).toBe(2);
  });
});
