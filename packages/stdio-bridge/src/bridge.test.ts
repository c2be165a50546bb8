import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError, ToolListChangedNotificationSchema, type JSONRPCMessage, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { PassThrough } from 'node:stream';
import { startBridge } from './bridge.js';
import { createLog } from './log.js';
import { parseBridgeCommand } from './options.js';
import { createUpstreamMcpServer, emptyRecord, startUpstream, UPSTREAM_INSTRUCTIONS, type RunningUpstream } from './test-support/upstream-server.js';

/**
 * The bridge's JSON-RPC code for "remote unavailable", pinned here as public behaviour. (Not imported:
 * errors.ts loads the SDK's HTTP client, whose eventsource-parser dependency the root vitest config
 * resolves to TypeScript source through the "source" condition, which Node cannot load.)
 */
const REMOTE_UNAVAILABLE = -32000;

/** The built bin, run the way an MCP client runs it: `node bin/visibility-mcp.js`. */
const BIN = fileURLToPath(new URL('../bin/visibility-mcp.js', import.meta.url));
const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

interface BridgeSession {
  client: Client;
  stderr: () => string;
}

const openSessions: Client[] = [];

/**
 * Starts the bridge in this process on a pair of pipes (startBridge with its own stdin and stdout, from
 * the command line and environment as the bin parses them) and connects the SDK client to it with
 * newline-delimited JSON-RPC, the stdio wire format. The bin itself, its stdout discipline and its exit
 * codes are tested spawned (runBin and connectSpawnedBridge below).
 */
async function connectBridge(commandLine: string[], environment: Record<string, string> = {}): Promise<BridgeSession> {
  const command = parseBridgeCommand(commandLine, environment);
  if (command.kind !== 'serve') throw new Error(`not a serve command line: ${commandLine.join(' ')}`);
  let stderr = '';
  const toBridge = new PassThrough();
  const fromBridge = new PassThrough();
  const bridge = await startBridge({
    url: command.url,
    version: PACKAGE_VERSION,
    log: createLog({ write: (text: string) => (stderr += text) }, { debug: command.debug }),
    stdin: toBridge,
    stdout: fromBridge,
    headers: command.headers,
  });
  const client = new Client({ name: 'bridge-test', version: '1.0.0' });
  await client.connect(pipeTransport(toBridge, fromBridge, () => void bridge.close()));
  openSessions.push(client);
  return { client, stderr: () => stderr };
}

/** A client transport over two streams, speaking stdio's framing (one JSON-RPC message per line). */
function pipeTransport(output: PassThrough, input: PassThrough, onClose: () => void): Transport {
  const buffer = new ReadBuffer();
  const transport: Transport = {
    async start() {
      input.on('data', (chunk: Buffer) => {
        buffer.append(chunk);
        for (let message = buffer.readMessage(); message !== null; message = buffer.readMessage()) transport.onmessage?.(message);
      });
    },
    async send(message: JSONRPCMessage) {
      output.write(serializeMessage(message));
    },
    async close() {
      output.end();
      onClose();
      transport.onclose?.();
    },
  };
  return transport;
}

/** Launches the built bin over stdio with the SDK's own client transport, as Claude Desktop would. */
async function connectSpawnedBridge(commandLine: string[], environment: Record<string, string> = {}): Promise<BridgeSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...commandLine],
    env: { ...getDefaultEnvironment(), ...environment },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'bridge-test', version: '1.0.0' });
  await client.connect(transport);
  openSessions.push(client);
  return { client, stderr: () => stderr };
}

/** A client straight to the upstream's own MCP server (in memory): what the bridge must answer too. */
async function connectDirect(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createUpstreamMcpServer(emptyRecord()).connect(serverSide);
  const direct = new Client({ name: 'direct', version: '1.0.0' });
  await direct.connect(clientSide);
  openSessions.push(direct);
  return direct;
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const address = probe.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function eventually(check: () => void, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/**
 * Runs the built bridge to completion with these stdin lines; resolves its exit code and raw output. Stdin is closed at once, or, with `closeWhen`, as
 * soon as what the bridge wrote to stdout satisfies it (never on a timer: a loaded machine would
 * close it before the answers came).
 */
function runBin(commandLine: string[], stdinLines: string[] = [], environment: Record<string, string> = {}, closeWhen?: (stdout: string) => boolean) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...commandLine], { env: { ...getDefaultEnvironment(), ...environment }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    let closed = false;
    const closeStdin = () => {
      if (closed) return;
      closed = true;
      child.stdin.end();
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (closeWhen?.(stdout)) closeStdin();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bridge did not exit\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    for (const line of stdinLines) child.stdin.write(`${line}\n`);
    if (!closeWhen) closeStdin();
  });
}

beforeAll(() => {
  if (!existsSync(fileURLToPath(new URL('../dist/cli.js', import.meta.url)))) {
    throw new Error('The bridge is not built: run `npx tsc -b` at the repository root first.');
  }
});

afterEach(async () => {
  await Promise.all(openSessions.splice(0).map((client) => client.close().catch(() => undefined)));
});

describe('the bridge against a running streamable-HTTP MCP server', () => {
  let upstream: RunningUpstream;
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => {
    await upstream.stop();
  });

  it('serves exactly the remote tools (schemas, annotations, output schemas) under its own name, with the remote instructions', async () => {
    // The one MCP session with the built bin spawned, as a host runs it; the other sessions run the bridge in process.
    const { client, stderr } = await connectSpawnedBridge(['--url', upstream.url]);
    const direct = await connectDirect();
    const bridged = await client.listTools();
    expect(bridged).toEqual(await direct.listTools());
    expect(bridged.tools.map((tool) => tool.name).sort()).toEqual(['count_slowly', 'echo', 'wait_for_cancel']);
    const echo = bridged.tools.find((tool) => tool.name === 'echo');
    expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'] });
    expect(echo?.outputSchema).toMatchObject({ properties: { echoed: { type: 'string' } } });
    expect(echo?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(client.getServerVersion()).toEqual({ name: 'visibility-stdio-bridge', title: 'AI Visibility (stdio bridge)', version: PACKAGE_VERSION });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect(client.getInstructions()).toBe(UPSTREAM_INSTRUCTIONS);
    expect(upstream.record.userAgents).toContain(`visibility-stdio-bridge/${PACKAGE_VERSION}`);
    expect(stderr()).toContain(`forwarding to ${upstream.url}`);
  });

  it('sends the --header values with every request to the remote (a signed-in session cookie)', async () => {
    const record = emptyRecord();
    const own = await startUpstream(0, record);
    try {
      const { client } = await connectBridge(['--url', own.url, '--header', 'Cookie: sb-access-token=abc.def', '--header=X-Team: growth']);
      expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).structuredContent).toEqual({ echoed: 'hi' });
      expect(record.cookies.length).toBeGreaterThanOrEqual(2);
      expect(record.cookies.every((cookie) => cookie === 'sb-access-token=abc.def')).toBe(true);
    } finally {
      await own.stop();
    }
  });

  it('forwards a call and relays the remote progress to the client under the client token', async () => {
    const { client } = await connectBridge([], { VISIBILITY_MCP_URL: upstream.url });
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'count_slowly', arguments: { to: 3 } }, undefined, { onprogress: (update) => progress.push(update) });
    expect(result).toEqual({ content: [{ type: 'text', text: 'counted to 3' }] });
    // In order and under the client's token (the SDK client would drop any other); the bridge keeps
    // the last update apart from the result so the client does not drop it either.
    expect(progress).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step} of 3` })));
    // The remote was asked for progress (under the bridge's own token for that request).
    expect(upstream.record.calls.at(-1)).toEqual({ tool: 'count_slowly', progressToken: expect.anything() });

    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    expect(echoed).toEqual({ content: [{ type: 'text', text: 'echo: hello' }], structuredContent: { echoed: 'hello' } });
    // No token from the client: none is invented towards the remote.
    expect(upstream.record.calls.at(-1)).toEqual({ tool: 'echo', progressToken: undefined });
  });

  it('answers what the remote answers for a bad call, unchanged', async () => {
    const { client } = await connectBridge(['--url', upstream.url]);
    const direct = await connectDirect();
    const outcome = (target: Client, name: string, toolArguments: Record<string, unknown>) =>
      target.callTool({ name, arguments: toolArguments }).then(
        (value) => ({ value }),
        (error: unknown) => ({ error: error instanceof McpError ? { code: error.code, message: error.message } : String(error) }),
      );
    for (const [name, toolArguments] of [['echo', { text: '' }], ['no_such_tool', {}]] as const) {
      const bridged = await outcome(client, name, toolArguments);
      expect(bridged).toEqual(await outcome(direct, name, toolArguments));
    }
  });

  it('passes a cancellation on to the remote', async () => {
    const { client } = await connectBridge(['--url', upstream.url]);
    const before = upstream.record.cancelled.length;
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait_for_cancel', arguments: {} }, undefined, { signal: controller.signal });
    await eventually(() => expect(upstream.record.calls.at(-1)?.tool).toBe('wait_for_cancel'));
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow();
    await eventually(() => expect(upstream.record.cancelled.length).toBe(before + 1));
  });

  it('writes nothing but JSON-RPC to stdout, relays progress under the token the client chose, and exits 0 when stdin closes', async () => {
    const requests = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'count_slowly', arguments: { to: 2 }, _meta: { progressToken: 'tok-7' } } },
    ].map((message) => JSON.stringify(message));
    const answered = (stdout: string) => stdout.split('\n').slice(0, -1).some((line) => (JSON.parse(line) as { id?: unknown }).id === 3); // whole lines only
    const { code, stdout, stderr } = await runBin(['--url', upstream.url], requests, {}, answered);
    expect(code).toBe(0);
    const lines = stdout.split('\n').filter((line) => line !== '');
    expect(lines.length).toBeGreaterThanOrEqual(5);
    const messages = lines.map((line) => JSON.parse(line) as Record<string, any>);
    for (const message of messages) {
      expect(message.jsonrpc).toBe('2.0');
      expect('id' in message || 'method' in message).toBe(true);
    }
    expect(messages.find((message) => message.id === 1)?.result?.serverInfo?.name).toBe('visibility-stdio-bridge');
    expect(messages.find((message) => message.id === 2)?.result?.tools).toHaveLength(3);
    expect(messages.find((message) => message.id === 3)?.result).toEqual({ content: [{ type: 'text', text: 'counted to 2' }] });
    const progress = messages.filter((message) => message.method === 'notifications/progress').map((message) => message.params);
    const answerAt = messages.findIndex((message) => message.id === 3);
    expect(messages.findLastIndex((message) => message.method === 'notifications/progress')).toBeLessThan(answerAt);
    expect(progress).toEqual([
      { progressToken: 'tok-7', progress: 1, total: 2, message: 'step 1 of 2' },
      { progressToken: 'tok-7', progress: 2, total: 2, message: 'step 2 of 2' },
    ]);
    expect(stderr).toContain('[visibility-mcp]');
  });
});

describe('when the remote is down', () => {
  it('still initializes, explains on tools/list and tools/call how to fix it, stays up, and reconnects once the remote is back', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const started = Date.now();
    const { client, stderr } = await connectBridge(['--url', url]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(client.getServerVersion()?.name).toBe('visibility-stdio-bridge');

    const listed = await client.listTools().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(listed).toBeInstanceOf(McpError);
    expect((listed as McpError).code).toBe(REMOTE_UNAVAILABLE);
    expect((listed as McpError).message).toContain(`could not be reached`);
    expect((listed as McpError).message).toContain(url);
    expect((listed as McpError).message).toContain('--url');
    expect((listed as McpError).message).toContain('VISIBILITY_MCP_URL');

    const called = await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    expect(called.isError).toBe(true);
    expect(called.content).toEqual([{ type: 'text', text: expect.stringContaining(`The AI Visibility MCP server at ${url} could not be reached`) }]);

    await expect(client.ping()).resolves.toEqual({});
    expect(stderr()).toContain('could not be reached');

    let toolsChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      toolsChanged += 1;
    });
    const upstream = await startUpstream(port);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toContain('echo');
      await eventually(() => expect(toolsChanged).toBe(1));
    } finally {
      await upstream.stop();
    }
  });

  it('says what a remote that answers HTTP errors instead of MCP said: an ApiError body, or a 404 for a wrong path', async () => {
    const http = createHttpServer((request, response) => {
      if (request.url === '/mcp') {
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '60' });
        response.end(JSON.stringify({ error: 'The monthly budget is used up.', code: 'budget_exhausted', hint: 'Try again next month.', docs: 'http://x/developers' }));
        return;
      }
      response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not Found</h1></body></html>');
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
    const address = http.address();
    const origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
    try {
      const busy = await connectBridge(['--url', `${origin}/mcp`]);
      const listed = await busy.client.listTools().then(() => undefined, (error: unknown) => error as McpError);
      expect(listed?.code).toBe(REMOTE_UNAVAILABLE);
      expect(listed?.message).toContain(`${origin}/mcp answered, but not with MCP: HTTP 503: The monthly budget is used up. Try again next month.`);

      const wrongPath = await connectBridge(['--url', `${origin}/`]);
      const called = await wrongPath.client.callTool({ name: 'echo', arguments: { text: 'x' } });
      expect(called.isError).toBe(true);
      expect(called.content).toEqual([{ type: 'text', text: expect.stringContaining('HTTP 404 (is this the /mcp endpoint of the service?): Not Found') }]);
    } finally {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    }
  });

  it('opens a new session when the remote restarted, without sending the call twice', async () => {
    const first = await startUpstream();
    // Spawned. In process the next call comes back at once on the pooled keep-alive socket of the stopped
    // remote and fails as UND_ERR_SOCKET ("could not be reached") instead of opening a new session: a race
    // the bin's stdio round trip hides (noted in docs/testing.md).
    const { client } = await connectSpawnedBridge(['--url', first.url]);
    expect((await client.callTool({ name: 'echo', arguments: { text: 'one' } })).structuredContent).toEqual({ echoed: 'one' });
    await first.stop();

    const record = emptyRecord();
    const second = await startUpstream(first.port, record);
    try {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'two' } });
      expect(result.structuredContent).toEqual({ echoed: 'two' });
      expect(record.calls).toEqual([{ tool: 'echo', progressToken: undefined }]);
      expect(record.sessionsOpened).toBe(1);
    } finally {
      await second.stop();
    }
  });
});

describe('the command line', () => {
  it('--help prints the usage on stdout and exits 0', async () => {
    const { code, stdout } = await runBin(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--url <mcp_url>');
    expect(stdout).toContain('VISIBILITY_MCP_URL');
    expect(stdout).toContain('http://localhost:3000/mcp');
  });

  it('--version prints the package version and exits 0', async () => {
    const { code, stdout } = await runBin(['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe(`${PACKAGE_VERSION}\n`);
  });

  it('refuses an unknown flag or a URL that is not http(s) with exit 2 and nothing on stdout', async () => {
    const unknown = await runBin(['--port', '3']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('Unknown argument: --port');

    const badUrl = await runBin([], [], { VISIBILITY_MCP_URL: 'ftp://example.com/mcp' });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stdout).toBe('');
    expect(badUrl.stderr).toContain('VISIBILITY_MCP_URL must be an http(s) URL');
  });
});
