// kill -9 of `visibility watch run-due` in the middle of a run: the next `run-due` (a new process on the same
// DATA_DIR) takes the run over (the job runner frees the lease of the dead local process) and asks only the
// answers that were not stored. Real processes: the CLI in LIVE mode against a standalone simulator process,
// so every provider call crosses a process boundary and is counted there.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '@visibility/core';
import { CLI_PATH, runCli } from '../test-support/spawn-cli.js';
import { exited, startSimulatorProcess, type SimulatorRequest } from '../test-support/simulator-process.js';

const QUESTIONS = ['Which CRM is best for a small agency?', 'What CRM do sales teams like most?', 'Best CRM software for startups?'];
const SAMPLES = 3;
const CONCURRENCY = 1;



const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('visibility watch run-due: kill -9 mid-run', () => {
  let simulator: { child: ChildProcess; url: string };
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    simulator = await startSimulatorProcess(150);
    dataDir = mkdtempSync(join(tmpdir(), 'visibility-watch-kill-'));
    env = {
      PATH: process.env['PATH'],
      DATA_DIR: dataDir,
      BASE_URL: 'http://visibility.test',
      LOG_LEVEL: 'warn',
      PROVIDER_MODE: 'live',
      PROVIDER_CONCURRENCY: String(CONCURRENCY),
      OPENAI_API_KEY: 'x',
      OPENAI_BASE_URL: `${simulator.url}/v1`,
      OPENAI_MODEL: 'demo-gpt-4.1-mini',
      GEMINI_API_KEY: 'x',
      GEMINI_BASE_URL: simulator.url,
      GEMINI_MODEL: 'demo-gemini-2.5-flash',
    };
  }, 60_000);

  afterAll(async () => {
    simulator?.child.kill('SIGTERM');
    if (simulator !== undefined) await exited(simulator.child);
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  const requests = async (): Promise<SimulatorRequest[]> =>
    ((await (await fetch(`${simulator.url}/__simulator/requests`)).json()) as SimulatorRequest[]).filter((request) => QUESTIONS.includes(request.prompt));

  it('resumes the run in the next process, asking only what was not stored', async () => {
    const added = await runCli(
      ['watch', 'add', 'Pipedrive', '--category', 'CRM software', '--email', 'owner@pipedrive.test', '--samples', String(SAMPLES), '--json', ...QUESTIONS.flatMap((question) => ['--question', question])],
      { env, timeoutMs: 30_000 },
    );
    expect(added.code, added.stderr).toBe(0);
    const watch = JSON.parse(added.stdout) as { id: string; nextRunAt: string; providers: string[] };
    const total = QUESTIONS.length * SAMPLES * watch.providers.length;

    const victim = spawn(process.execPath, [CLI_PATH, 'watch', 'run-due', '--now', watch.nextRunAt], { env, stdio: 'ignore' });
    // Wait until some answers are stored, then kill the process mid-run.
    let stored = 0;
    const deadline = Date.now() + 20_000;
    while (stored < 3 && Date.now() < deadline) {
      await sleep(25);
      const store = openStore({ dataDir });
      try {
        const run = (await store.watchRepository.listRuns(watch.id))[0];
        stored = run === undefined ? 0 : await store.watchRepository.countAnswers(run.id);
      } finally {
        store.close();
      }
    }
    victim.kill('SIGKILL');
    await exited(victim);
    expect(victim.signalCode).toBe('SIGKILL');

    const store = openStore({ dataDir });
    const [run] = await store.watchRepository.listRuns(watch.id);
    const storedAtKill = await store.watchRepository.countAnswers(run!.id);
    store.close();
    expect(run?.status).toBe('running');
    expect(storedAtKill).toBeGreaterThan(0);
    expect(storedAtKill).toBeLessThan(total);
    await sleep(400); // calls in flight at the kill reach the simulator, their answers into the void
    const beforeRestart = (await requests()).length;

    // The next pass at the same time: nothing is due any more, but the dead process's run is taken over.
    const resumed = await runCli(['watch', 'run-due', '--now', watch.nextRunAt], { env, timeoutMs: 30_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe(`${watch.id} run ${run!.id}: complete\n`);
    const afterRestart = (await requests()).slice(beforeRestart);
    expect(afterRestart).toHaveLength(total - storedAtKill);

    const check = openStore({ dataDir });
    try {
      expect(await check.watchRepository.getRun(run!.id)).toMatchObject({ status: 'complete' });
      expect(await check.watchRepository.countAnswers(run!.id)).toBe(total);
      expect((await check.watchRepository.listRuns(watch.id)).length).toBe(1);
    } finally {
      check.close();
    }
    // Calls lost in flight at the kill are the only ones asked twice: at most one per worker.
    expect(beforeRestart - storedAtKill).toBeLessThanOrEqual(CONCURRENCY * watch.providers.length);
  }, 180_000);
});
