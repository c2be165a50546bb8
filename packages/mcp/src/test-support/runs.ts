// The real run core for tool tests: a SQLite store in a temporary DATA_DIR, the demo simulator behind
// the real provider adapters, the real rate limiter and budget, and a brand site on 127.0.0.1 that the
// crawler reaches through the crawl host map. Only the clock can be moved.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  buildLimitPolicies,
  createBudget,
  createBuyerQuestionMapRunner,
  createLogger,
  createProviderLineup,
  createRateLimiter,
  createVisibilityRunTracker,
  DEFAULT_MODELS,
  openStore,
  resolveLineupSettings,
  withBudget,
  type Store,
  type VisibilityRunDependencies,
} from '@visibility/core';
import { startSimulator, type RunningSimulator } from '@visibility/simulator';
import { createMcpServer } from '../server.js';

const SITE_HTML = `<!doctype html><html lang="en"><head><title>Pipedrive — the CRM for small sales teams</title>
<meta name="description" content="Sales CRM and pipeline management software for small businesses."></head>
<body><h1>The CRM built for salespeople</h1><a href="/pricing">Pricing</a></body></html>`;

/** The hosts the fixture site answers for (the crawler reaches them through the host map). */
export const SITE_HOSTS = ['pipedrive.test', 'www.pipedrive.test', 'acme.test', 'beta.test', 'gamma.test', 'failing.test', 'limited.test'] as const;

/** A host the crawler is sent to a closed loopback port for: a site that does not answer at all. */
export const UNREACHABLE_HOST = 'down.test';

export interface TestRuns {
  runs: VisibilityRunDependencies;
  store: Store;
  simulator: RunningSimulator;
  /** Moves the clock the runs (and the quota) see. */
  advanceDays(days: number): void;
  /** A connected SDK client talking to a fresh createMcpServer over the in-memory transport. */
  connect(callerKey?: string): Promise<Client>;
  close(): Promise<void>;
}

/** The report link the tool tests' servers make (the service signs its own; mcp-http.test.ts checks that one). */
export const testReportUrl = (auditId: string): string => `http://visibility.test/report/${auditId}?key=test-key`;

/** Starts the run core on a temporary DATA_DIR with the demo lineup. */
export async function startTestRuns(): Promise<TestRuns> {
  const dataDir = mkdtempSync(join(tmpdir(), 'visibility-mcp-test-'));
  const store = openStore({ dataDir });
  const simulator = await startSimulator({ host: '127.0.0.1', port: 0 });
  const site = await startSite();
  let offsetMs = 0;
  const now = (): Date => new Date(Date.now() + offsetMs);
  const budget = createBudget(store.budgetRepository, { monthlyBudgetUsd: 50 });
  const adapters = createProviderLineup(
    resolveLineupSettings({ providerMode: 'demo', providers: {}, models: DEFAULT_MODELS }, simulator.baseUrls),
    // generous: no test here is about provider timeouts, and under a loaded CI machine a demo call took more than 10 s.
    // One quick retry, as the service retries (twice, runtime.ts): on the loaded CI machine of 2026-11-28 a few
    // demo calls of two runs here failed at once, without a timeout, and left the map short of answers.
    { timeoutMs: 30_000, maxRetries: 1, retry: { baseDelayMs: 50, maxDelayMs: 200 }, maxConcurrentPerProvider: 4 },
  );
  const lineup = new Map([...adapters].map(([id, provider]) => [id, withBudget(provider, budget)] as const));
  const runs: VisibilityRunDependencies = {
    lineup,
    budget,
    mode: 'demo',
    auditRepository: store.auditRepository,
    accountRepository: store.accountRepository,
    mapStore: store.mapStore,
    mapRepository: store.mapRepository,
    runRepository: store.mcpRunRepository,
    mailer: undefined,
    baseUrl: 'http://visibility.test',
    crawlHostMap: new Map([...SITE_HOSTS.map((host) => [host, site.origin] as const), [UNREACHABLE_HOST, 'http://127.0.0.1:1'] as const]),
    runner: createBuyerQuestionMapRunner({ concurrencyPerProvider: 4 }),
    rateLimiter: createRateLimiter(store.rateLimitRepository, { policies: buildLimitPolicies(), now }),
    tracker: createVisibilityRunTracker({ progressStore: store.mcpRunRepository }),
    logger: createLogger({ level: 'silent' }),
    now,
  };
  const clients: Client[] = [];
  return {
    runs,
    store,
    simulator,
    advanceDays(days) {
      offsetMs += days * 24 * 60 * 60 * 1000;
    },
    async connect(callerKey = '203.0.113.1') {
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await createMcpServer({ runs, callerKey, serverVersion: '0.0.0-test', reportUrl: testReportUrl }).connect(serverTransport);
      const client = new Client({ name: 'mcp-tool-test', version: '1.0.0' });
      await client.connect(clientTransport);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.allSettled(clients.map((client) => client.close()));
      await Promise.all([runs.tracker.stop(1_000), runs.runner.stop(1_000)]);
      await simulator.close();
      await new Promise<void>((resolve) => site.server.close(() => resolve()));
      store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startSite(): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/robots.txt') response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    else if (path === '/' || path === '/pricing') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SITE_HTML);
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
