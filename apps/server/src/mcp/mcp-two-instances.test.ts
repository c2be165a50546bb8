// MCP across instances: two services on one store (PostgreSQL with DATABASE_URL on the test run's
// throwaway cluster; SQLite with two services on one DATA_DIR), a client whose requests land on either.
// The session opened on one is served by the other (rebuilt from the store), and ended on one it is
// ended on both. The PostgreSQL half is skipped, saying so in its title, when the binaries are missing.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPgPool, type PgPool } from '@visibility/core';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from '../test-support/fixture-site.js';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startTestService, type TestService } from '../test-support/service.js';
import { startRelay } from '../test-support/tcp-relay.js';
import { initializeBody, initializeRaw, POST_HEADERS, rawRequest } from './test-support/raw-http.js';

const PG_TEST_URL = process.env['VISIBILITY_TEST_DATABASE_URL'];
const SKIP_REASON = 'MCP on two PostgreSQL instances skipped: no VISIBILITY_TEST_DATABASE_URL (install postgresql: apt-get install -y postgresql)';
const SESSION_SECRET = 'm'.repeat(40);
const OWNER = 'owner@pipedrive.test';

interface Deployment {
  first: TestService;
  second: TestService;
  /** The stored row of a session: whether it ended, and what its initialize said. */
  storedSession(sessionId: string): Promise<{ endedAt: string | null; callerKey: string; clientInfo: string } | undefined>;
  close(): Promise<void>;
}

/** A host of the fixture site for the progress test: its own domain, so its run is its own (the quota is per domain). */
const HELD_HOST = 'held.pipedrive.test';
/** More provider calls than any check makes: every call waits at the simulator until the test lets them go. */
const HOLD_ALL = Number.MAX_SAFE_INTEGER;

interface RunProgress {
  stage: string;
  completed: number;
  total: number;
  percent: number;
  message: string;
}

const textOf = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
const rebuiltLines = (running: TestService): string[] => running.logLines.filter((line) => line.includes('MCP session rebuilt from the store'));

/** An SDK client with its own session on one instance. */
async function connectTo(running: TestService): Promise<Client> {
  const client = new Client({ name: 'two-instances-progress-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)));
  return client;
}

/** The run as one instance answers it at once (waitSeconds 0). */
async function runOn(client: Client, runId: string): Promise<{ status: string; progress?: RunProgress }> {
  const result = (await client.callTool({ name: 'get_visibility_check', arguments: { runId, waitSeconds: 0 } })) as CallToolResult;
  expect(result.isError, textOf(result)).not.toBe(true);
  return result.structuredContent as { status: string; progress?: RunProgress };
}

function twoInstances(name: string, deploy: (site: FixtureSite) => Promise<Deployment>): void {
  describe(name, () => {
    let site: FixtureSite;
    let deployment: Deployment;
    beforeAll(async () => {
      site = await startFixtureSite(SAAS_SITE);
      deployment = await deploy(site);
    });
    afterAll(async () => {
      await deployment?.close();
      await site?.close();
    });

    it('serves a session initialised on one instance from the other: tools/list, start and get; DELETE on one ends it on both', async () => {
      const { first, second } = deployment;
      // The load balancer: every request of the client goes where `target` points when it is sent. The
      // owner's sign-in cookie reaches the first instance only: the second must know the owner from the store.
      let target = first;
      const balanced = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const url = new URL(input instanceof Request ? input.url : input);
        url.host = new URL(target.url).host;
        const headers = new Headers(init?.headers);
        if (target === second) headers.delete('cookie');
        return fetch(url, { ...init, headers });
      };
      const client = new Client({ name: 'two-instances-test', version: '3.1.4' });
      const transport = new StreamableHTTPClientTransport(new URL(`${first.url}/mcp`), {
        fetch: balanced,
        requestInit: { headers: { cookie: `${SESSION_COOKIE}=${createSessionToken(OWNER, SESSION_SECRET)}` } },
      });
      try {
        await client.connect(transport);
        const sessionId = transport.sessionId as string;
        expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
        // Recorded in the store before the client got its id, with what its initialize said.
        const stored = await deployment.storedSession(sessionId);
        expect(stored).toMatchObject({ endedAt: null, callerKey: expect.any(String) });
        expect(JSON.parse(stored?.clientInfo ?? '{}')).toEqual({ name: 'two-instances-test', version: '3.1.4' });
        expect(rebuiltLines(second)).toHaveLength(0);

        // The other instance never saw this session: two requests arriving together rebuild it once.
        target = second;
        const [listed, listedAgain] = await Promise.all([client.listTools(), client.listTools()]);
        expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['get_visibility_check', 'get_visibility_history', 'start_visibility_check']);
        expect(listedAgain.tools).toEqual(listed.tools);
        expect(rebuiltLines(second)).toHaveLength(1);
        expect(rebuiltLines(second)[0]).toContain(stored?.callerKey);
        // The rebuilt session's tools act for the owner who opened it (no cookie reached this instance):
        // an unknown watch is "not found" for a signed-in owner, where a session without one is "unauthorized".
        const history = (await client.callTool({ name: 'get_visibility_history', arguments: { brand: 'No Such Brand' } })) as CallToolResult;
        expect(textOf(history)).toMatch(/^watch_not_found: /u);

        // A run started through the second instance is read, finished, through the first.
        const started = (await client.callTool({
          name: 'start_visibility_check',
          arguments: { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software', competitors: 'HubSpot' },
        })) as CallToolResult;
        expect(started.isError, textOf(started)).not.toBe(true);
        // a new run answers auditing on every store (docs/mcp.md), never the queued its row was created with
        expect(started.structuredContent).toMatchObject({ reused: false, status: 'auditing', mode: 'demo' });
        const runId = (started.structuredContent as { runId: string }).runId;
        target = first;
        const finished = (await client.callTool({ name: 'get_visibility_check', arguments: { runId, waitSeconds: 50 } }, undefined, { timeout: 70_000 })) as CallToolResult;
        expect(finished.isError, textOf(finished)).not.toBe(true);
        expect(finished.structuredContent).toMatchObject({ runId, status: 'done', domain: 'pipedrive.test' });
        // And the same run, as stored, through the second.
        target = second;
        const again = (await client.callTool({ name: 'get_visibility_check', arguments: { runId, waitSeconds: 0 } })) as CallToolResult;
        expect(again.structuredContent).toEqual(finished.structuredContent);
        // The first instance still held its own copy: it was never rebuilt there.
        expect(rebuiltLines(first)).toHaveLength(0);

        // DELETE lands on the second instance; the first, which opened the session and still holds it, answers 404.
        await transport.terminateSession();
        expect(transport.sessionId).toBeUndefined();
        expect((await deployment.storedSession(sessionId))?.endedAt).toEqual(expect.any(String));
        for (const running of [first, second]) {
          const reply = await rawRequest(`${running.url}/mcp`, {
            headers: { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
          });
          expect(reply.status).toBe(404);
          expect(reply.json).toMatchObject({ error: { code: -32001 } });
        }
        // DELETE again, on the instance that opened it: ended is ended.
        const deleted = await rawRequest(`${first.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
        expect(deleted.status).toBe(404);
      } finally {
        await client.close();
      }
    });

    it('shows a run measured on one instance with the same audit-stage progress on the other, whose wait hears it move and returns when it is done', async () => {
      const { first, second } = deployment;
      const simulator = first.service.simulator;
      if (simulator === undefined) throw new Error('the demo lineup runs a simulator');
      const onFirst = await connectTo(first);
      const onSecond = await connectTo(second);
      try {
        // The check runs on the first instance (it started it): every provider call it makes waits at the
        // first instance's simulator, so the run holds still where the test wants it.
        void simulator.holdAnswersUntil(HOLD_ALL);
        const started = (await onFirst.callTool({
          name: 'start_visibility_check',
          arguments: { brand: 'Pipedrive', website: HELD_HOST, category: 'CRM software' },
        })) as CallToolResult;
        expect(started.isError, textOf(started)).not.toBe(true);
        const runId = (started.structuredContent as { runId: string }).runId;
        // Both instances answer the same progress once the store caught up with the first (within a second).
        const sameOnBoth = (stage: string): Promise<RunProgress> =>
          vi.waitFor(
            async () => {
              const [onA, onB] = [await runOn(onFirst, runId), await runOn(onSecond, runId)];
              expect(onA).toMatchObject({ status: 'auditing', progress: { stage } });
              expect(onB.progress).toEqual(onA.progress);
              return onB.progress as RunProgress;
            },
            { timeout: 20_000, interval: 100 },
          );
        // Held at its first provider calls: the questions are written.
        expect(await sameOnBoth('questions')).toMatchObject({ completed: 1, total: 1, percent: 8 });
        // The calls that waited go through and the next ones wait: held part way through the answers.
        void simulator.holdAnswersUntil(HOLD_ALL);
        const held = await sameOnBoth('answers');
        expect(held.completed).toBeGreaterThan(0);
        expect(held.completed).toBeLessThan(held.total);

        // A wait on the second instance, which does not run the check: its first notification is where the
        // check stands; it hears the check move (from the store) and returns when it is done.
        const heard: Array<{ progress: number; total?: number; message?: string }> = [];
        let onHeard = (): void => undefined;
        const finishing = onSecond.callTool({ name: 'get_visibility_check', arguments: { runId, waitSeconds: 50 } }, undefined, {
          timeout: 70_000,
          onprogress: (progress) => {
            heard.push(progress);
            onHeard();
          },
        });
        await new Promise<void>((resolve) => (onHeard = resolve));
        expect(heard).toEqual([{ progress: held.percent, total: 100, message: held.message }]);
        const moved = new Promise<void>((resolve) => (onHeard = resolve));
        void simulator.holdAnswersUntil(HOLD_ALL);
        await moved;
        expect(heard[1]?.progress).toBeGreaterThan(held.percent);
        simulator.reset();
        const finished = (await finishing) as CallToolResult;
        expect(finished.structuredContent).toMatchObject({ runId, status: 'done', domain: HELD_HOST });
        const percents = heard.map((progress) => progress.progress);
        expect(percents).toEqual([...new Set(percents)].sort((left, right) => left - right));
      } finally {
        simulator.reset();
        await Promise.all([onFirst.close(), onSecond.close()]);
      }
    });

    it('answers 404 on both instances for a session id the store never had', async () => {
      for (const running of [deployment.first, deployment.second]) {
        const reply = await rawRequest(`${running.url}/mcp`, {
          headers: { ...POST_HEADERS, 'mcp-session-id': '00000000-0000-4000-8000-000000000000', 'mcp-protocol-version': '2025-06-18' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        expect(reply.status).toBe(404);
      }
    });
  });
}

twoInstances('MCP on two processes sharing one SQLite DATA_DIR', async (site) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'visibility-mcp-two-'));
  const environment = { SESSION_SECRET, CRAWL_HOST_MAP: `pipedrive.test=${site.origin},${HELD_HOST}=${site.origin}` };
  const first = await startTestService(environment, dataDir, { watchScheduler: false });
  const second = await startTestService(environment, dataDir, { watchScheduler: false });
  return {
    first,
    second,
    async storedSession(sessionId) {
      const store = first.service.store;
      return store.database.prepare('SELECT ended_at AS endedAt, caller_key AS callerKey, client_info AS clientInfo FROM mcp_sessions WHERE id = ?').get(sessionId) as
        | { endedAt: string | null; callerKey: string; clientInfo: string }
        | undefined;
    },
    async close() {
      await Promise.all([first.stop(), second.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

describe.skipIf(PG_TEST_URL === undefined)(PG_TEST_URL === undefined ? SKIP_REASON : 'PostgreSQL (DATABASE_URL)', () => {
  twoInstances('MCP on two instances on one PostgreSQL', async (site) => {
    const admin: PgPool = createPgPool(PG_TEST_URL as string, { max: 1 });
    const databaseName = `vis_mcp_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${databaseName}`);
    const url = new URL(PG_TEST_URL as string);
    url.pathname = `/${databaseName}`;
    const environment = { DATABASE_URL: url.toString(), SESSION_SECRET, CRAWL_HOST_MAP: `pipedrive.test=${site.origin},${HELD_HOST}=${site.origin}` };
    const [first, second] = await Promise.all([
      startTestService(environment, undefined, { watchScheduler: false }),
      startTestService(environment, undefined, { watchScheduler: false }),
    ]);
    const database = createPgPool(url.toString(), { max: 1 });
    return {
      first,
      second,
      async storedSession(sessionId) {
        const { rows } = await database.query<{ endedAt: string | null; callerKey: string; clientInfo: string }>(
          'SELECT ended_at AS "endedAt", caller_key AS "callerKey", client_info AS "clientInfo" FROM mcp_sessions WHERE id = $1',
          [sessionId],
        );
        return rows[0];
      },
      async close() {
        await Promise.all([first.stop(), second.stop()]);
        await database.end();
        await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
        await admin.end();
      },
    };
  });

  it('answers 503 with Retry-After while PostgreSQL is unreachable (no session can be found or opened), and serves the same session when it is back', async () => {
    const admin: PgPool = createPgPool(PG_TEST_URL as string, { max: 1 });
    const databaseName = `vis_mcp_outage_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${databaseName}`);
    const target = new URL(PG_TEST_URL as string);
    const relay = await startRelay(target.hostname, Number(target.port));
    const viaRelay = new URL(PG_TEST_URL as string);
    viaRelay.pathname = `/${databaseName}`;
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String(relay.port);
    const running = await startTestService({ DATABASE_URL: viaRelay.toString(), SESSION_SECRET }, undefined, { watchScheduler: false });
    try {
      const mcpUrl = `${running.url}/mcp`;
      const { sessionId } = await initializeRaw(mcpUrl);
      const listTools = () =>
        rawRequest(mcpUrl, {
          headers: { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
        });
      expect((await listTools()).status).toBe(200);

      await relay.cut();
      // Bounded by the pool's connect deadline (3 s), not timed: without the 503 this would hang or answer 500.
      const refused = await listTools();
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32603, message: expect.stringContaining('unreachable') } });
      const initialize = await rawRequest(mcpUrl, { headers: { ...POST_HEADERS }, body: initializeBody('2025-06-18') });
      expect(initialize.status).toBe(503);
      expect(initialize.headers['mcp-session-id']).toBeUndefined();

      await relay.restore();
      expect((await listTools()).status).toBe(200);
    } finally {
      await running.stop();
      await relay.close();
      await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
      await admin.end();
    }
  });
});
