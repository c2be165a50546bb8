import type { Readable, Writable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  McpError,
  ResultSchema,
  type CallToolResult,
  type ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import { forwardRemoteError, JsonRpcError, REMOTE_UNAVAILABLE, RemoteUnavailableError } from './errors.js';
import type { Log } from './log.js';
import { RemoteConnection } from './remote.js';

/** The bridge's own name towards the MCP client and, as its client name, towards the remote. */
export const BRIDGE_NAME = 'visibility-stdio-bridge';

/**
 * A measurement takes about a minute and `get_visibility_check` may wait for it, so a call gets
 * far longer than the SDK's 60 s default; progress from the remote restarts the clock.
 */
const TOOL_CALL_TIMEOUT_MS = 180_000;
const LIST_TIMEOUT_MS = 30_000;
const PROGRESS_SEPARATION_MS = 25;

export interface BridgeOptions {
  url: URL;
  version: string;
  log: Log;
  /** Defaults to process.stdin / process.stdout. */
  stdin?: Readable;
  stdout?: Writable;
  connectTimeoutMs?: number;
  /** Extra headers for every request to the remote (--header). */
  headers?: Readonly<Record<string, string>>;
  /** How long start-up waits for the remote, so its instructions can reach the client; it never fails start-up. */
  startupWaitMs?: number;
}

export interface RunningBridge {
  readonly remote: RemoteConnection;
  /** Resolves when the MCP client goes away (stdin ends) or close() is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** Serves MCP over stdio and forwards tools/list and tools/call to the remote streamable-HTTP endpoint. */
export async function startBridge(options: BridgeOptions): Promise<RunningBridge> {
  const { url, version, log } = options;
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;

  let server: Server | undefined;
  const remote = new RemoteConnection({
    url,
    clientInfo: { name: BRIDGE_NAME, version },
    connectTimeoutMs: options.connectTimeoutMs ?? 15_000,
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    log,
    onToolsChanged: () => {
      void server?.sendToolListChanged().catch(() => undefined);
    },
  });

  // stdin is not read yet, so the client's first messages wait in the pipe meanwhile.
  const early = await settleWithin(remote.connect(), options.startupWaitMs ?? 3_000);
  server = createBridgeServer(remote, version, early?.getInstructions());

  const transport = new StdioServerTransport(stdin, stdout);
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      stdin.off('end', close);
      stdin.off('close', close);
      await server?.close().catch(() => undefined);
      await remote.close();
      resolveClosed();
    })();
    return closing;
  };
  // The SDK's stdio transport does not watch for the end of stdin: that is how a client says goodbye.
  stdin.once('end', close);
  stdin.once('close', close);
  server.onerror = (error) => log.debug(`stdio: ${error.message}`);
  await server.connect(transport);
  log.info(`serving MCP over stdio, forwarding to ${url.href}`);
  return { remote, closed, close };
}

/** The low-level server the MCP client talks to; each tools request is answered by the remote. */
export function createBridgeServer(remote: RemoteConnection, version: string, instructions?: string): Server {
  const server = new Server(
    { name: BRIDGE_NAME, title: 'AI Visibility (stdio bridge)', version },
    { capabilities: { tools: { listChanged: true } }, ...(instructions === undefined ? {} : { instructions }) },
  );

  server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    try {
      // ResultSchema keeps every field of the remote's answer, so nothing a newer server adds is lost.
      const result = await remote.run(
        (client) => client.request({ method: 'tools/list', params: request.params }, ResultSchema, { signal: extra.signal, timeout: LIST_TIMEOUT_MS }),
        // Listing changes nothing on the remote, so any connection failure is worth one more try.
        () => true,
      );
      return result as ListToolsResult;
    } catch (error) {
      throw asJsonRpcError(error);
    }
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const progressToken = request.params._meta?.progressToken;
    const options: RequestOptions = { signal: extra.signal, timeout: TOOL_CALL_TIMEOUT_MS, resetTimeoutOnProgress: true };
    const relayed: Array<Promise<void>> = [];
    let lastRelayAt = 0;
    if (progressToken !== undefined) {
      // The SDK gives the remote its own token for this request; the client gets progress under the token it chose.
      options.onprogress = (progress) => {
        lastRelayAt = Date.now();
        relayed.push(extra.sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken } }).catch(() => undefined));
      };
    }
    try {
      const result = await remote.run((client: Client) => client.request({ method: 'tools/call', params: request.params }, CallToolResultSchema, options));
      // Progress the remote sent before its result must reach the client before the result does:
      // the client drops progress for a request that has already been answered.
      await Promise.all(relayed);
      await separateFromLastProgress(lastRelayAt);
      return result;
    } catch (error) {
      await Promise.all(relayed);
      if (error instanceof RemoteUnavailableError) {
        // A tool result, not a protocol error: the model reads it and can tell the user what to do.
        return { isError: true, content: [{ type: 'text', text: error.message }] };
      }
      throw asJsonRpcError(error);
    }
  });

  return server;
}

function asJsonRpcError(error: unknown): JsonRpcError {
  if (error instanceof McpError) return forwardRemoteError(error);
  if (error instanceof RemoteUnavailableError) return new JsonRpcError(REMOTE_UNAVAILABLE, error.message, { url: error.url });
  return new JsonRpcError(REMOTE_UNAVAILABLE, error instanceof Error ? error.message : String(error));
}

/**
 * The SDK's client dispatches a notification a tick later than a response, so a progress update
 * read in the same chunk as the result is dropped. A short pause after a recent update puts the
 * result in a later read.
 */
async function separateFromLastProgress(lastRelayAt: number): Promise<void> {
  const wait = PROGRESS_SEPARATION_MS - (Date.now() - lastRelayAt);
  if (lastRelayAt > 0 && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** The value if the promise fulfils within the time, else undefined; never rejects. */
async function settleWithin<T>(promise: Promise<T>, milliseconds: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), milliseconds);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
