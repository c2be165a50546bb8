// kill -9 in the middle of an MCP run (issue 8, part 2 (d)). The server is `visibility serve` in its own
// OS process, in the LIVE lineup against a simulator in this test's process, so every provider call crosses
// a process boundary and is counted where the kill cannot reach it. One run is killed while its
// buyer-question map is being measured, another while its audit is still crawling. After a restart on the
// same DATA_DIR: the first completes through the map's resume, the second fails as interrupted (and frees
// its domain), the database is intact, no stored cell is lost, changed or duplicated, and nothing is
// counted or paid twice (the budget's spend equals the cost of the calls the call log recorded).

import { createServer, type Server } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERRUPTED_REASON, openStore, type MapCellRecord, type Store } from '@visibility/core';
import { startSimulator, type RunningSimulator } from '@visibility/simulator';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from '../test-support/fixture-site.js';
import {
  callTool,
  childEnvironment,
  connectMcp,
  expectBudgetMatchesCallLog,
  expectIntact,
  killHard,
  PROVIDERS,
  sleep,
  startServerProcess,
  until,
  waitForRun,
} from './support.js';

// One call in flight per provider: the map takes nine rounds, so the kill lands well inside it.
const CONCURRENCY = 1;
// Priced, so the budget really counts: 1 micro-dollar per input token, 2 per output token.
const PRICES = { 'demo-': { input: 1, output: 2 } };

describe('kill -9 during an MCP run, then a restart', () => {
  let site: FixtureSite;
  let stalled: Server;
  let simulator: RunningSimulator;
  let dataDir: string;
  let reader: Store | undefined;
  const servers: ChildProcess[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    site = await startFixtureSite(SAAS_SITE);
    // A site that never answers: a run on it stays in its audit's crawl until the kill.
    stalled = createServer(() => undefined);
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', () => resolve()));
    simulator = await startSimulator({ latencyMs: 40 });
    dataDir = mkdtempSync(join(tmpdir(), 'visibility-mcp-kill-'));
  });

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    for (const server of servers) if (server.exitCode === null && server.signalCode === null) await killHard(server).catch(() => undefined);
    reader?.close();
    await simulator?.close();
    stalled?.closeAllConnections();
    await new Promise((resolve) => stalled?.close(() => resolve(undefined)));
    await site?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  const environment = () =>
    childEnvironment({
      DATA_DIR: dataDir,
      PROVIDER_MODE: 'live',
      PROVIDER_CONCURRENCY: String(CONCURRENCY),
      CRAWL_HOST_MAP: `pipedrive.test=${site.origin},stalled.pipedrive.test=http://127.0.0.1:${(stalled.address() as AddressInfo).port}`,
      MODEL_PRICES: JSON.stringify(PRICES),
      MONTHLY_BUDGET_USD: '50',
      OPENAI_API_KEY: 'x',
      OPENAI_BASE_URL: simulator.baseUrls.openai,
      OPENAI_MODEL: 'demo-gpt-4.1-mini',
      ANTHROPIC_API_KEY: 'x',
      ANTHROPIC_BASE_URL: simulator.baseUrls.anthropic,
      ANTHROPIC_MODEL: 'demo-claude-sonnet-4',
      GEMINI_API_KEY: 'x',
      GEMINI_BASE_URL: simulator.baseUrls.gemini,
      GEMINI_MODEL: 'demo-gemini-2.5-flash',
    });

  async function startServer(): Promise<Client> {
    const { child, url } = await startServerProcess(environment());
    servers.push(child);
    const client = await connectMcp(`${url}/mcp`);
    clients.push(client);
    return client;
  }

  it('completes the run killed mid-map through the resume, fails the one killed mid-audit, loses nothing, and repeats only calls in flight at the kill', async () => {
    let client = await startServer();
    reader = openStore({ dataDir });
    const store = reader;

    // The run on the silent site is auditing (its crawl waits) when the kill comes.
    const crawling = await callTool(client, 'start_visibility_check', { brand: 'Stalled', website: 'stalled.pipedrive.test', category: 'CRM software' });
    const mapped = await callTool(client, 'start_visibility_check', { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' });
    const runId = mapped['runId'] as string;

    // The audit runs at 40 ms an answer; once the map starts, answers slow to 200 ms, and the kill comes as
    // soon as the map has stored its first cells.
    const auditId = await until(async () => {
      const run = await store.mcpRunRepository.getRun(runId);
      return run?.status === 'mapping' ? run.auditId : undefined;
    }, 'the run to reach its map', 60_000, 5);
    simulator.setLatency(200);
    await until(() => (store.mapRepository.countCells(auditId, 1) > 0 ? true : undefined), 'the map to store its first cells', 20_000, 5);
    await killHard(servers.pop() as ChildProcess);
    simulator.setLatency(0);

    const job = store.mapRepository.job(auditId, 1);
    expect(job?.status).toBe('running');
    const questions = job?.questions ?? [];
    const total = questions.length * PROVIDERS.length;
    const before: MapCellRecord[] = store.mapRepository.listCells(auditId, 1);
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(total);
    expect((await store.mcpRunRepository.getRun(runId))?.status).toBe('mapping');
    expect((await store.mcpRunRepository.getRun(crawling['runId'] as string))?.status).toBe('auditing');
    expectIntact(store);

    // The map's calls are those made after its job was created (the audit's samples came before).
    const mapStart = Date.parse(job?.createdAt ?? '');
    const mapCalls = () => simulator.requests().filter((request) => request.receivedAt >= mapStart && questions.includes(request.prompt));
    await sleep(300); // answers in flight at the kill reach the simulator, and nobody reads them
    const askedBeforeRestart = mapCalls().length;

    client = await startServer();
    const crawlingAfter = await callTool(client, 'get_visibility_check', { runId: crawling['runId'] });
    expect(crawlingAfter).toMatchObject({ status: 'failed', error: { code: 'interrupted', message: INTERRUPTED_REASON } });
    const done = await waitForRun(client, runId, 60_000);
    expect(done).toMatchObject({ status: 'done', auditId, buyerQuestionsAsked: questions.length, providersFailed: [] });
    expect(done['providersAnswered']).toHaveLength(PROVIDERS.length);

    // The interrupted run does not hold its domain: a new start measures again.
    const again = await callTool(client, 'start_visibility_check', { brand: 'Stalled', website: 'stalled.pipedrive.test', category: 'CRM software' });
    expect(again).toMatchObject({ reused: false });
    expect(again['runId']).not.toBe(crawling['runId']);

    // Nothing lost, changed or duplicated: every cell once, the ones stored before the kill as they were.
    expectIntact(store);
    const after = store.mapRepository.listCells(auditId, 1);
    expect(after).toHaveLength(total);
    const byKey = new Map(after.map((cell) => [`${cell.questionIndex}|${cell.provider}`, cell]));
    expect(byKey.size).toBe(total);
    for (const cell of before) expect(byKey.get(`${cell.questionIndex}|${cell.provider}`)).toEqual(cell);
    expect(store.mapRepository.job(auditId, 1)?.status).toBe('complete');

    // Asked again after the restart: exactly the cells not stored at the kill, each once.
    const all = mapCalls();
    const key = (request: { provider: string; prompt: string }) => `${request.provider}|${request.prompt}`;
    const afterRestart = all.slice(askedBeforeRestart);
    expect(afterRestart).toHaveLength(total - before.length);
    const storedKeys = new Set(before.map((cell) => `${cell.provider}|${questions[cell.questionIndex]}`));
    expect(afterRestart.filter((request) => storedKeys.has(key(request)))).toEqual([]);
    // The only calls made twice are those in flight at the kill: at most one per worker.
    const lostInFlight = askedBeforeRestart - before.length;
    expect(lostInFlight).toBeGreaterThanOrEqual(0);
    expect(lostInFlight).toBeLessThanOrEqual(CONCURRENCY * PROVIDERS.length);
    expect(new Set(all.map(key)).size).toBe(total);

    // Paid once per call: the spend is exactly the cost of the logged calls.
    const budget = expectBudgetMatchesCallLog(store, PRICES);
    expect(budget.spent).toBeGreaterThan(0);
    const mapLogged = store.database.prepare("SELECT COUNT(*) AS n FROM provider_calls WHERE purpose = 'map.buyer_question' AND outcome = 'ok'").get() as { n: number };
    // A call can be answered and logged (and its spend settled) in the instant before the kill, its cell not yet
    // written: that answer is lost with the process and asked again, so it is logged twice. Only calls in flight
    // at the kill can be; every other stored answer is logged exactly once.
    const answeredButLost = mapLogged.n - total;
    expect(answeredButLost).toBeGreaterThanOrEqual(0);
    expect(answeredButLost).toBeLessThanOrEqual(lostInFlight);
    // The other calls in flight keep their reservations (never settled twice, reclaimed as spent after 10 minutes).
    expect(budget.reserved + answeredButLost).toBeGreaterThanOrEqual(lostInFlight);
    expect(budget.reserved).toBeLessThanOrEqual(CONCURRENCY * PROVIDERS.length);
  }, 240_000);
});
