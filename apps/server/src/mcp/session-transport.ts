import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { InitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpSessionRecord } from '@visibility/core';

// The /mcp sessions run on the SDK's Web-standard transport (WebStandardStreamableHTTPServerTransport)
// rather than its Node wrapper (StreamableHTTPServerTransport), for one reason: a session another
// instance opened is rebuilt here by replaying its initialize into a fresh transport (below), and only
// the Web-standard transport takes a request that did not come from a socket. The Node wrapper is these
// same few lines around it (the SDK's server/streamableHttp.js), so every request is handled as before.

/** Hands one Express/Node request to the transport, converting it as the SDK's Node wrapper does. */
export async function handleNodeRequest(
  transport: WebStandardStreamableHTTPServerTransport,
  request: IncomingMessage,
  response: ServerResponse,
  parsedBody?: unknown,
): Promise<void> {
  // overrideGlobalObjects: false leaves the global Response alone, as the SDK's wrapper does.
  const listener = getRequestListener((webRequest) => transport.handleRequest(webRequest, { parsedBody }), { overrideGlobalObjects: false });
  await listener(request, response);
}

/** The initialize a client sent, as the store keeps it: what a rebuilt session replays. */
export function initializeOf(record: Pick<McpSessionRecord, 'protocolVersion' | 'clientInfo' | 'clientCapabilities'>): InitializeRequest {
  return {
    method: 'initialize',
    params: {
      protocolVersion: record.protocolVersion,
      capabilities: record.clientCapabilities,
      clientInfo: record.clientInfo as InitializeRequest['params']['clientInfo'],
    },
  };
}

/**
 * Makes a fresh transport (created with `sessionIdGenerator: () => record.id`, its server connected) the
 * session `record` describes, through the transport's public entry point: the client's own initialize
 * is replayed to it, so the transport takes the stored id and counts as initialised, and the server
 * learns the client's info and capabilities and negotiates the same protocol version. The answer was
 * already given to the client by the instance that opened the session; this one is read and dropped.
 * The SDK has no call to restore a session (its sessions are meant to live in one process); this is the
 * smallest use of its public API that does it.
 */
export async function replayInitialize(transport: WebStandardStreamableHTTPServerTransport, record: McpSessionRecord): Promise<void> {
  const initialize = { jsonrpc: '2.0' as const, id: `rebuild-${record.id}`, ...initializeOf(record) };
  const replayed = await transport.handleRequest(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    }),
    { parsedBody: initialize },
  );
  // Read to its end: the stream closes once the initialize result is written.
  const text = await replayed.text();
  if (replayed.status !== 200 || transport.sessionId !== record.id) {
    throw new Error(`Rebuilding MCP session ${record.id} failed: the replayed initialize answered ${replayed.status} ${text.slice(0, 200)}`);
  }
}
