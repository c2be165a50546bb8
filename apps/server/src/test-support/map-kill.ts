// The scene both kill -9 tests of the buyer-question map play (map-routes.kill.test.ts on SQLite,
// map-routes.pg-kill.test.ts on PostgreSQL): two instances run as the real CLI in LIVE mode against a
// standalone simulator process, the owner of a map is killed -9 once a cell is stored, and the other
// instance must take the job over asking only the cells that were not stored. What differs between the two
// (the store read at the kill, the lease, each instance's configuration) stays in each test.

import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { BuyerQuestionMap } from '@visibility/core';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from './fixture-site.js';
import { postJson } from './service.js';
import { startCli } from './spawn-cli.js';
import { exited, startSimulatorProcess, type SimulatorRequest } from './simulator-process.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BUILT_MAP_ROUTES = join(ROOT, 'apps/server/dist/rest/map-routes.js');
const PROVIDERS = ['anthropic', 'gemini', 'openai'] as const;
const LISTENING = /"msg":"listening".*"url":"(http:\/\/localhost:\d+)"/;
/** Variables a test's own environment may carry that would change what the spawned instances do. */
const INHERITED_SETTINGS = /^(OPENAI|ANTHROPIC|GEMINI)_|^(PROVIDER_MODE|BASE_URL|SESSION_SECRET|TRUST_PROXY|SMTP_URL|DATABASE_URL|JOB_LEASE_SECONDS)$/;

/** PROVIDER_CONCURRENCY of each instance: at most this many calls per provider are in flight at the kill. */
export const MAP_KILL_CONCURRENCY = 2;

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A cell stored before the kill, as the test read it from its store. */
export interface StoredCell {
  questionIndex: number;
  provider: string;
  answer: string | null;
}

/** The map as it stood when its owner was killed; the survivor is paused (SIGSTOP) until `expectTakeOver`. */
export interface KilledMidMap {
  auditId: string;
  questions: string[];
  /** Cells of the whole map: questions × providers. */
  total: number;
  killedAt: number;
  survivorUrl: string;
  survivor: ChildProcess;
}

export interface MapKillScene {
  /**
   * Starts the owner and then the survivor (before the map: it must leave the job alone while its owner
   * lives), runs an audit, starts its map on the owner and kills the owner -9 once a cell is stored, with
   * the survivor paused so the test can read what was stored at the kill.
   */
  killOwnerMidMap(owner: NodeJS.ProcessEnv, survivor: NodeJS.ProcessEnv): Promise<KilledMidMap>;
  /**
   * Resumes the survivor and checks the takeover: the map completes within 60 s of the kill, the survivor
   * asks exactly the cells not stored at the kill, every stored answer was asked once in all, and the
   * only repeats are the calls in flight at the kill.
   */
  expectTakeOver(killed: KilledMidMap, storedCells: readonly StoredCell[]): Promise<void>;
  close(): Promise<void>;
}

/** Brings dist up to date (the spawned instances run the built code), then starts the fixture site and the simulator. */
export async function startMapKillScene(): Promise<MapKillScene> {
  // Incremental, quick when nothing changed.
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b'], { cwd: ROOT, encoding: 'utf8' });
  if (!existsSync(BUILT_MAP_ROUTES) || !readFileSync(BUILT_MAP_ROUTES, 'utf8').includes('resumeBuyerQuestionMaps')) {
    throw new Error(`the build has no buyer-question map routes:\n${build.stdout}${build.stderr}`);
  }
  const site: FixtureSite = await startFixtureSite(SAAS_SITE);
  const simulator = await startSimulatorProcess(400).catch(async (error: unknown) => {
    await site.close();
    throw error;
  });
  const servers: ChildProcess[] = [];

  /** The environment of one instance: the live lineup on the simulator, the fixture site, `settings` on top. */
  const serverEnvironment = (settings: NodeJS.ProcessEnv): NodeJS.ProcessEnv => {
    const environment: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(environment)) {
      if (INHERITED_SETTINGS.test(name)) delete environment[name];
    }
    return {
      ...environment,
      PORT: '0',
      LOG_LEVEL: 'info',
      PROVIDER_MODE: 'live',
      PROVIDER_CONCURRENCY: String(MAP_KILL_CONCURRENCY),
      CRAWL_HOST_MAP: `pipedrive.test=${site.origin}`,
      OPENAI_API_KEY: 'x',
      OPENAI_BASE_URL: `${simulator.url}/v1`,
      OPENAI_MODEL: 'demo-gpt-4.1-mini',
      ANTHROPIC_API_KEY: 'x',
      ANTHROPIC_BASE_URL: simulator.url,
      ANTHROPIC_MODEL: 'demo-claude-sonnet-4',
      GEMINI_API_KEY: 'x',
      GEMINI_BASE_URL: simulator.url,
      GEMINI_MODEL: 'demo-gemini-2.5-flash',
      ...settings,
    };
  };

  async function startServer(settings: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
    const { child, match } = await startCli(['serve'], serverEnvironment(settings), LISTENING);
    servers.push(child);
    return { child, url: (match[1] ?? '').replace('localhost', '127.0.0.1') };
  }

  async function simulatorRequests(questions: readonly string[]): Promise<SimulatorRequest[]> {
    const response = await fetch(`${simulator.url}/__simulator/requests`);
    return ((await response.json()) as SimulatorRequest[]).filter((request) => questions.includes(request.prompt));
  }

  const setLatency = (ms: number) => fetch(`${simulator.url}/__simulator/latency`, { method: 'POST', body: JSON.stringify({ ms }) });

  async function killOwnerMidMap(ownerSettings: NodeJS.ProcessEnv, survivorSettings: NodeJS.ProcessEnv): Promise<KilledMidMap> {
    const owner = await startServer(ownerSettings);
    const survivor = await startServer(survivorSettings);
    await setLatency(0);
    const audit = await postJson(`${owner.url}/api/audit`, { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' });
    expect(audit.status).toBe(200);
    expect(audit.body.mode).toBe('live');
    const auditId = audit.body.id as string;
    const questions = audit.body.productFanout.questions as string[];
    // The audit asked the same questions: forget those calls, so what is counted is the map's.
    await fetch(`${simulator.url}/__simulator/requests`, { method: 'DELETE' });
    await setLatency(400);

    // The POST dies with the server; its connection error is expected.
    const posted = fetch(`${owner.url}/api/audit/${auditId}/fanout-map`, { method: 'POST' }).catch(() => undefined);
    let completed = 0;
    const deadline = Date.now() + 20_000;
    while (completed === 0 && Date.now() < deadline) {
      await sleep(20);
      const reading = (await (await fetch(`${owner.url}/api/audit/${auditId}/fanout-map`)).json()) as { progress?: { completed: number } };
      completed = reading.progress?.completed ?? 0;
    }
    // The survivor is paused while the scene is read (what was stored and asked at the kill), then resumed.
    survivor.child.kill('SIGSTOP');
    owner.child.kill('SIGKILL');
    const killedAt = Date.now();
    await exited(owner.child);
    await posted;
    expect(owner.child.signalCode).toBe('SIGKILL');
    return { auditId, questions, total: questions.length * PROVIDERS.length, killedAt, survivorUrl: survivor.url, survivor: survivor.child };
  }

  async function expectTakeOver(killed: KilledMidMap, storedCells: readonly StoredCell[]): Promise<void> {
    const { auditId, questions, total, killedAt } = killed;
    expect(storedCells.length).toBeGreaterThan(0);
    expect(storedCells.length).toBeLessThan(total);
    await sleep(500); // answers still in flight at the kill land at the simulator, into the void
    const beforeRestart = await simulatorRequests(questions);
    const storedKeys = new Set(storedCells.map((cell) => `${cell.provider}|${questions[cell.questionIndex]}`));
    killed.survivor.kill('SIGCONT');

    let map: BuyerQuestionMap | undefined;
    const until = killedAt + 60_000;
    while (map === undefined && Date.now() < until) {
      await sleep(50);
      const reading = (await (await fetch(`${killed.survivorUrl}/api/audit/${auditId}/fanout-map`)).json()) as { cached: boolean; map?: BuyerQuestionMap };
      if (reading.cached) map = reading.map;
    }
    expect(map).toBeDefined();
    expect(Date.now() - killedAt).toBeLessThan(60_000);

    const all = await simulatorRequests(questions);
    const afterRestart = all.slice(beforeRestart.length);
    const key = (request: SimulatorRequest) => `${request.provider}|${request.prompt}`;
    // After the kill: exactly the cells not stored at the kill, each once, none of the stored ones.
    expect(afterRestart).toHaveLength(total - storedCells.length);
    expect(new Set(afterRestart.map(key)).size).toBe(afterRestart.length);
    expect(afterRestart.filter((request) => storedKeys.has(key(request)))).toEqual([]);
    // Every stored answer was paid for once in all. The only repeats are calls in flight at the kill, whose
    // answers died with the process: at most one per worker (PROVIDER_CONCURRENCY per provider).
    for (const stored of storedKeys) expect(all.filter((request) => key(request) === stored)).toHaveLength(1);
    const lostInFlight = beforeRestart.length - storedCells.length;
    expect(lostInFlight).toBeGreaterThanOrEqual(0);
    expect(lostInFlight).toBeLessThanOrEqual(MAP_KILL_CONCURRENCY * PROVIDERS.length);
    expect(all).toHaveLength(total + lostInFlight);
    expect(new Set(all.map(key)).size).toBe(total);

    // The stored map has every cell, answered by the live lineup.
    expect(map?.mode).toBe('live');
    expect(map?.summary).toMatchObject({ cells: total, answeredCells: total, failedCells: 0 });
    expect(map?.rows.flatMap((row) => row.cells.map((cell) => cell.ok))).toEqual(Array(total).fill(true));
    for (const cell of storedCells) {
      const row = map?.rows[cell.questionIndex];
      expect(row?.cells.find((mapCell) => mapCell.provider === cell.provider)?.answer).toBe(cell.answer);
    }
  }

  async function close(): Promise<void> {
    for (const server of servers) {
      server.kill('SIGKILL');
      await exited(server);
    }
    simulator.child.kill('SIGTERM');
    await exited(simulator.child);
    await site.close();
  }

  return { killOwnerMidMap, expectTakeOver, close };
}
