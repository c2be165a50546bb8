import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERRUPTED_REASON, openStore } from '@visibility/core';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from '../test-support/fixture-site.js';
import { startTestService, type TestService } from '../test-support/service.js';
import { SERVICE_VERSION } from '../version.js';
import { initializeBody, initializeRaw, parseSseEvents, POST_HEADERS, rawRequest, readSseUntil } from './test-support/raw-http.js';

let site: FixtureSite;
let running: TestService;
let mcpUrl: string;
const clients: Client[] = [];

beforeAll(async () => {
  site = await startFixtureSite(SAAS_SITE);
  running = await startTestService({ CRAWL_HOST_MAP: `pipedrive.test=${site.origin},www.pipedrive.test=${site.origin}` });
  mcpUrl = `${running.url}/mcp`;
});
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await running?.stop();
  await site?.close();
});

/** The SDK client over streamable HTTP, as Claude Desktop or an IDE agent connects. */
async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl));
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const textOf = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe('a session over streamable HTTP', () => {
  it('initializes with the newest protocol version, the server info and instructions for the model', async () => {
    const { client, transport } = await connect();
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerVersion()).toMatchObject({ name: 'ai-visibility', version: SERVICE_VERSION });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/start_visibility_check.*get_visibility_check/s);
  });

  it.each([
    ['an older version it supports, which it keeps', '2025-03-26', '2025-03-26'],
    ['a version it does not know, answered with its newest', '1999-01-01', LATEST_PROTOCOL_VERSION],
  ])('negotiates %s', async (_name, asked, answered) => {
    const { result } = await initializeRaw(mcpUrl, asked);
    expect(result.protocolVersion).toBe(answered);
  });

  it('lists the two tools; their schemas are public API, so a change must update this snapshot', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    await expect(`${JSON.stringify(tools, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/tools-list.json');
  });

  it('starts a check with progress, then waits for its result with get_visibility_check', async () => {
    const { client } = await connect();
    await client.listTools();
    const startProgress: Progress[] = [];
    const started = (await client.callTool(
      { name: 'start_visibility_check', arguments: { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software', competitors: 'HubSpot' } },
      undefined,
      { onprogress: (event) => startProgress.push(event) },
    )) as CallToolResult;
    expect(started.isError, textOf(started)).not.toBe(true);
    const runId = (started.structuredContent as { runId: string }).runId;
    expect(started.structuredContent).toMatchObject({ reused: false, status: 'auditing', mode: 'demo' });
    expect(startProgress.length).toBeGreaterThanOrEqual(1);

    const waitProgress: Progress[] = [];
    const got = (await client.callTool({ name: 'get_visibility_check', arguments: { runId, waitSeconds: 50 } }, undefined, {
      onprogress: (event) => waitProgress.push(event),
      timeout: 70_000,
    })) as CallToolResult;
    const result = got.structuredContent as Record<string, any>;
    expect(result).toMatchObject({ runId, status: 'done', mode: 'demo' });
    // reportUrl is the report's own page, with the site's signed private key: it opens without signing in.
    expect(result['reportUrl']).toMatch(new RegExp(`^http://visibility\\.test/report/${result['auditId']}\\?key=[A-Za-z0-9_-]{32}$`));
    const report = await fetch(`${running.url}${new URL(result['reportUrl']).pathname}${new URL(result['reportUrl']).search}`);
    expect(report.status).toBe(200);
    expect(await report.text()).toContain('Pipedrive');
    const unsigned = await fetch(`${running.url}${new URL(result['reportUrl']).pathname}?key=${'x'.repeat(32)}`);
    expect(unsigned.status).toBe(404);
    expect(result['buyerQuestionsTotal']).toBeGreaterThan(0);
    expect(result['buyerQuestionsWon']).toBeLessThanOrEqual(result['buyerQuestionsTotal']);
    expect(result['providersAnswered']).toHaveLength(3);
    expect(waitProgress.length).toBeGreaterThan(3);
    expect(waitProgress.at(-1)).toMatchObject({ progress: 100, total: 100 });
    expect(textOf(got)).toContain('Note: These are demo answers from the built-in simulator, not from real AI models');
    expect(await running.service.store.mcpRunRepository.getRun(runId)).toMatchObject({ status: 'done', domain: 'pipedrive.test' });

    // The same domain within 30 days, from another session: the same run, nothing measured again.
    const requests = running.service.simulator?.requests().length;
    const other = await connect();
    const again = (await other.client.callTool({
      name: 'start_visibility_check',
      arguments: { brand: 'Pipedrive', website: 'https://www.pipedrive.test/', category: 'CRM software' },
    })) as CallToolResult;
    expect(again.structuredContent).toMatchObject({ runId, reused: true, status: 'done', measuredAt: result['finishedAt'] });
    expect(textOf(again)).toMatch(/^Reused: pipedrive\.test was already checked/);
    expect(running.service.simulator?.requests().length).toBe(requests);
  });

  it('keeps the server stream open on GET', async () => {
    // A raw session: the SDK client opens its own GET stream right after initialize.
    const { sessionId } = await initializeRaw(mcpUrl, LATEST_PROTOCOL_VERSION);
    const abort = new AbortController();
    const response = await fetch(mcpUrl, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    abort.abort();
  });

  it('primes streams for 2025-11-25 clients and replays what a broken stream missed after Last-Event-ID', async () => {
    const { sessionId } = await initializeRaw(mcpUrl, LATEST_PROTOCOL_VERSION);
    const session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    const listed = await rawRequest(mcpUrl, { headers: { ...POST_HEADERS, ...session }, body: JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/list' }) });
    const [priming, answer] = parseSseEvents(listed.text);
    expect(priming).toMatchObject({ id: expect.any(String), retry: '1000', data: '' });
    expect(JSON.parse(answer?.data ?? '{}')).toMatchObject({ id: 11 });
    // As if the stream had broken right after the priming event: the answer comes again on resume.
    const resumed = await readSseUntil(mcpUrl, { accept: 'text/event-stream', ...session, 'last-event-id': priming?.id ?? '' }, (event) => event.data.includes('"id":11'));
    expect(resumed.id).toBe(answer?.id);
    expect(JSON.parse(resumed.data)).toMatchObject({ id: 11, result: { tools: expect.any(Array) } });
  });

  it('ends the session on DELETE; the id is then unknown (404)', async () => {
    const { transport } = await connect();
    const sessionId = transport.sessionId ?? '';
    await transport.terminateSession();
    const after = await rawRequest(mcpUrl, {
      headers: { ...POST_HEADERS, 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    expect(after.json).toEqual({ jsonrpc: '2.0', error: { code: -32001, message: expect.stringMatching(/initialize/) }, id: null });
  });
});

describe('refusals are JSON-RPC errors with the right status, never ApiErrors', () => {
  const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });

  it.each(['POST', 'GET', 'DELETE'])('answers %s with an unknown session id 404, so the client initialises again', async (method) => {
    const reply = await rawRequest(mcpUrl, {
      method,
      headers: { ...POST_HEADERS, accept: 'application/json, text/event-stream', 'mcp-session-id': randomUUID() },
      ...(method === 'POST' ? { body: toolsList } : {}),
    });
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 }, id: null });
  });

  it.each([
    ['a request other than initialize without a session', 'POST', { ...POST_HEADERS }, toolsList, 400, -32000],
    ['GET without a session', 'GET', { accept: 'text/event-stream' }, undefined, 400, -32000],
    ['DELETE without a session', 'DELETE', {}, undefined, 400, -32000],
    ['broken JSON', 'POST', { ...POST_HEADERS }, '{"jsonrpc": "2.0", "id": 1, "method": ', 400, -32700],
    ['JSON that is no JSON-RPC message', 'POST', { ...POST_HEADERS }, '{"hello": "world"}', 400, -32600],
    ['an empty batch', 'POST', { ...POST_HEADERS }, '[]', 400, -32600],
    ['a body that is not JSON', 'POST', { ...POST_HEADERS, 'content-type': 'text/plain' }, 'hello', 415, -32000],
    ['a body over 64 KB', 'POST', { ...POST_HEADERS }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70_000) } }), 413, -32000],
    ['another method', 'PUT', { ...POST_HEADERS }, toolsList, 405, -32000],
  ])('answers %s', async (_name, method, headers, body, status, code) => {
    const reply = await rawRequest(mcpUrl, { method, headers, ...(body === undefined ? {} : { body }) });
    expect(reply.status).toBe(status);
    expect(reply.headers['content-type']).toContain('application/json');
    expect(reply.json).toEqual({ jsonrpc: '2.0', error: { code, message: expect.any(String) }, id: null });
  });

  it('answers an initialize with a Host other than BASE_URL or loopback 403 (DNS-rebinding protection)', async () => {
    const refused = await rawRequest(mcpUrl, { headers: { ...POST_HEADERS, host: 'evil.example' }, body: initializeBody('2025-06-18') });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    for (const host of ['visibility.test', 'localhost:3000', '127.0.0.1']) {
      const allowed = await rawRequest(mcpUrl, { headers: { ...POST_HEADERS, host }, body: initializeBody('2025-06-18') });
      expect(allowed.status, host).toBe(200);
    }
  });

  it('answers an unsupported MCP-Protocol-Version header 400 and a second GET stream 409, as the SDK transport does', async () => {
    const { sessionId } = await initializeRaw(mcpUrl);
    const badVersion = await rawRequest(mcpUrl, {
      headers: { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '1999-01-01' },
      body: toolsList,
    });
    expect(badVersion.status).toBe(400);
    expect(badVersion.json).toMatchObject({ error: { code: -32000, message: expect.stringContaining('Unsupported protocol version') } });

    const abort = new AbortController();
    const first = await fetch(mcpUrl, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId }, signal: abort.signal });
    expect(first.status).toBe(200);
    const second = await rawRequest(mcpUrl, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId } });
    expect(second.status).toBe(409);
    abort.abort();
  });

  it('answers a CORS preflight so browser clients can read the session id', async () => {
    const reply = await rawRequest(mcpUrl, { method: 'OPTIONS', headers: { origin: 'https://client.example', 'access-control-request-method': 'POST' } });
    expect(reply.status).toBe(204);
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(String(reply.headers['access-control-allow-headers'])).toContain('Mcp-Session-Id');
    const initialized = await rawRequest(mcpUrl, { headers: { ...POST_HEADERS, origin: 'https://client.example' }, body: initializeBody('2025-06-18') });
    expect(String(initialized.headers['access-control-expose-headers'])).toContain('Mcp-Session-Id');
  });

  it('answers a browser opening /mcp with a page saying what the address is, and MCP clients as before', async () => {
    const page = await rawRequest(mcpUrl, { method: 'GET', headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('MCP server');
    // The address to add is the public one, BASE_URL + /mcp.
    expect(page.text).toContain('claude mcp add --transport http visibility http://visibility.test/mcp');
    expect(page.text).not.toContain('jsonrpc');
    const client = await rawRequest(mcpUrl, { method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(client.status).toBe(400);
    expect(client.json).toMatchObject({ jsonrpc: '2.0' });
  });

  it('leaves paths under /mcp to the 404 of the rest of the site (the ApiError for a JSON client)', async () => {
    const reply = await rawRequest(`${mcpUrl}/other`, { method: 'GET', headers: { accept: 'application/json' } });
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ code: 'not_found' });
  });
});

describe('after a restart', () => {
  it('reports a run a killed process left auditing as failed, "interrupted by a restart", and frees its domain', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'visibility-mcp-restart-'));
    try {
      const store = openStore({ dataDir });
      const runId = randomUUID();
      const at = new Date().toISOString();
      await store.mcpRunRepository.claimRun(
        { id: runId, domain: 'pipedrive.test', mode: 'demo', brand: 'Pipedrive', website: 'https://pipedrive.test/', category: 'CRM software', request: {}, createdAt: at },
        at,
      );
      await store.mcpRunRepository.markAuditing(runId, at);
      store.close();

      const restarted = await startTestService({ CRAWL_HOST_MAP: `pipedrive.test=${site.origin}` }, dataDir);
      try {
        const client = new Client({ name: 'mcp-restart-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${restarted.url}/mcp`)));
        const got = (await client.callTool({ name: 'get_visibility_check', arguments: { runId } })) as CallToolResult;
        expect(got.structuredContent).toMatchObject({ status: 'failed', error: { code: 'interrupted', message: INTERRUPTED_REASON } });
        const again = (await client.callTool({
          name: 'start_visibility_check',
          arguments: { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' },
        })) as CallToolResult;
        expect(again.structuredContent).toMatchObject({ reused: false });
        expect((again.structuredContent as { runId: string }).runId).not.toBe(runId);
        await client.callTool({ name: 'get_visibility_check', arguments: { runId: (again.structuredContent as { runId: string }).runId, waitSeconds: 50 } }, undefined, {
          timeout: 70_000,
        });
        await client.close();
      } finally {
        await restarted.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('sessions are shared fairly between callers', () => {
  let capped: TestService;
  let cappedUrl: string;
  beforeAll(async () => {
    // 60 sessions in all, the default 50 per caller; callers told apart by X-Forwarded-For.
    capped = await startTestService({ MCP_MAX_SESSIONS: '60', TRUST_PROXY: 'true' });
    cappedUrl = `${capped.url}/mcp`;
  });
  afterAll(async () => capped?.stop());

  /** A raw initialize from one client address, as a client that never closes its sessions sends it. */
  const initializeFrom = (caller: string) =>
    rawRequest(cappedUrl, { headers: { ...POST_HEADERS, 'x-forwarded-for': caller }, body: initializeBody('2025-06-18') });
  const listToolsIn = (sessionId: string, caller: string) =>
    rawRequest(cappedUrl, {
      headers: { ...POST_HEADERS, 'x-forwarded-for': caller, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }),
    });

  it("50 sessions one caller never closes do not lock out a second caller; the first caller's 51st replaces its own oldest", async () => {
    const first: string[] = [];
    for (let index = 0; index < 50; index += 1) {
      const reply = await initializeFrom('198.51.100.7');
      expect(reply.status).toBe(200);
      first.push(String(reply.headers['mcp-session-id']));
    }
    // A second caller connects as Claude Desktop or an IDE would, and uses its session.
    const client = new Client({ name: 'second-caller', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(cappedUrl), { requestInit: { headers: { 'x-forwarded-for': '203.0.113.8' } } }));
    clients.push(client);
    expect((await client.listTools()).tools).toHaveLength(3);

    // The first caller at its cap: a new session opens, its least recently used one is closed.
    const fiftyFirst = await initializeFrom('198.51.100.7');
    expect(fiftyFirst.status).toBe(200);
    expect((await listToolsIn(first[0] as string, '198.51.100.7')).status).toBe(404);
    expect((await listToolsIn(first[1] as string, '198.51.100.7')).status).toBe(200);
    expect(capped.logLines.some((line) => line.includes('MCP session evicted to make room'))).toBe(true);
  });

  it('when every slot is taken by sessions used within the minute, answers 503 sessions_full as an ApiError with a truthful Retry-After', async () => {
    // 51 open now (50 + the second caller's); fill the other 9 from a third address.
    for (let index = 0; index < 9; index += 1) expect((await initializeFrom('192.0.2.9')).status).toBe(200);
    const refused = await initializeFrom('192.0.2.10');
    expect(refused.status).toBe(503);
    expect(refused.json).toEqual({ error: expect.stringContaining('60 sessions open'), code: 'sessions_full', hint: expect.any(String), docs: 'http://visibility.test/developers' });
    // Every session was used within the last minute, so the first becomes evictable within 60 s.
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // A caller with idle sessions of its own still gets in: its own oldest makes the room.
    expect((await initializeFrom('192.0.2.9')).status).toBe(200);
  });
});
