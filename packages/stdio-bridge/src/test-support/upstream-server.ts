import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** What the upstream saw, so a test can tell what the bridge really forwarded. */
export interface UpstreamRecord {
  calls: Array<{ tool: string; progressToken: string | number | undefined }>;
  cancelled: string[];
  userAgents: string[];
  /** The Cookie header of every request ('' without one). */
  cookies: string[];
  sessionsOpened: number;
}

export interface RunningUpstream {
  readonly url: string;
  readonly port: number;
  readonly record: UpstreamRecord;
  stop(): Promise<void>;
}

export const UPSTREAM_INSTRUCTIONS = 'Test upstream: call echo, count_slowly or wait_for_cancel.';

/**
 * A real streamable-HTTP MCP server (the SDK's McpServer, stateful sessions) on 127.0.0.1, standing
 * in for the service's /mcp: tools with schemas, progress notifications and cancellation.
 */
export async function startUpstream(port = 0, record: UpstreamRecord = emptyRecord()): Promise<RunningUpstream> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const http: HttpServer = createServer((request, response) => {
    void (async () => {
      record.userAgents.push(request.headers['user-agent'] ?? '');
      record.cookies.push(request.headers.cookie ?? '');
      const body = request.method === 'POST' ? await readJson(request) : undefined;
      const sessionId = request.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (transport === undefined) {
        if (sessionId !== undefined || !isInitializeRequest(body)) {
          response.writeHead(sessionId === undefined ? 400 : 404, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
          return;
        }
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, created);
            record.sessionsOpened += 1;
          },
        });
        created.onclose = () => {
          if (created.sessionId !== undefined) sessions.delete(created.sessionId);
        };
        await createUpstreamMcpServer(record).connect(created);
        transport = created;
      }
      await transport.handleRequest(request, response, body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const boundPort = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${boundPort}/mcp`,
    port: boundPort,
    record,
    async stop() {
      await Promise.all([...sessions.values()].map((transport) => transport.close().catch(() => undefined)));
      sessions.clear();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

export function emptyRecord(): UpstreamRecord {
  return { calls: [], cancelled: [], userAgents: [], cookies: [], sessionsOpened: 0 };
}

/** The upstream's MCP server on its own, for a direct (in-memory) client to compare the bridge with. */
export function createUpstreamMcpServer(record: UpstreamRecord): McpServer {
  const server = new McpServer({ name: 'test-upstream', version: '9.9.9' }, { instructions: UPSTREAM_INSTRUCTIONS });

  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Answers the text it was given.',
      inputSchema: { text: z.string().min(1) },
      outputSchema: { echoed: z.string() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ text }, extra) => {
      record.calls.push({ tool: 'echo', progressToken: extra._meta?.progressToken });
      return { content: [{ type: 'text', text: `echo: ${text}` }], structuredContent: { echoed: text } };
    },
  );

  server.registerTool(
    'count_slowly',
    { title: 'Count slowly', description: 'Counts to `to`, reporting progress on the way.', inputSchema: { to: z.number().int().min(1).max(5) } },
    async ({ to }, extra) => {
      const progressToken = extra._meta?.progressToken;
      record.calls.push({ tool: 'count_slowly', progressToken });
      for (let step = 1; step <= to; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (progressToken !== undefined) {
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: step, total: to, message: `step ${step} of ${to}` } });
        }
      }
      return { content: [{ type: 'text', text: `counted to ${to}` }] };
    },
  );

  server.registerTool('wait_for_cancel', { description: 'Waits until the call is cancelled.' }, async (extra) => {
    record.calls.push({ tool: 'wait_for_cancel', progressToken: extra._meta?.progressToken });
    await new Promise<void>((resolve) => {
      if (extra.signal.aborted) resolve();
      extra.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    record.cancelled.push(String(extra.requestId));
    return { content: [{ type: 'text', text: 'cancelled' }] };
  });

  return server;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
