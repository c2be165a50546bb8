import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SAAS_SITE, startFixtureSite, type FixtureSite } from '../test-support/fixture-site.js';
import { startTestService, type TestService } from '../test-support/service.js';

// The workspace package the registry manifest names; run from the checkout as npx would run it once published.
const BRIDGE_PACKAGE_DIR = new URL('../../../../packages/stdio-bridge/', import.meta.url);

// The manifest test needs service.ts to mount discoveryRoutes; both need a built bridge (`npx tsc -b`).
const mounted = readFileSync(new URL('../service.ts', import.meta.url), 'utf8').includes('discoveryRoutes(');

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

describe('the stdio bridge in front of the real service', () => {
  let site: FixtureSite;
  let running: TestService;
  let baseUrl: string;
  beforeAll(async () => {
    site = await startFixtureSite(SAAS_SITE);
    const port = await freePort();
    // BASE_URL is the address the test reaches, so the manifests point at this very process.
    baseUrl = `http://127.0.0.1:${port}`;
    running = await startTestService({ PORT: String(port), BASE_URL: baseUrl, CRAWL_HOST_MAP: `pipedrive.test=${site.origin}` });
  });
  afterAll(async () => {
    await running.stop();
    await site.close();
  });

  /** The bridge from the checkout, launched over stdio the way an MCP client launches it. */
  async function connectBridge(mcpUrl: string): Promise<Client> {
    const bridgeManifest = JSON.parse(readFileSync(new URL('package.json', BRIDGE_PACKAGE_DIR), 'utf8')) as { bin: Record<string, string> };
    expect(existsSync(fileURLToPath(new URL('dist/cli.js', BRIDGE_PACKAGE_DIR))), 'run `npx tsc -b` first').toBe(true);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [fileURLToPath(new URL(Object.values(bridgeManifest.bin)[0] ?? '', BRIDGE_PACKAGE_DIR))],
      env: { ...getDefaultEnvironment(), VISIBILITY_MCP_URL: mcpUrl },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'manifest-follower', version: '1.0.0' });
    await client.connect(transport);
    return client;
  }

  it.skipIf(!mounted)('follows /.well-known/mcp: runs the npm package it names, preset to this deployment, and gets the tools /.well-known/mcp.json lists', async () => {
    const server = (await (await fetch(`${baseUrl}/.well-known/mcp`)).json()) as {
      packages: Array<{ identifier: string; environmentVariables: Array<{ name: string; default: string }> }>;
    };
    const [npmPackage] = server.packages;
    const bridgeManifest = JSON.parse(readFileSync(new URL('package.json', BRIDGE_PACKAGE_DIR), 'utf8')) as { name: string };
    expect(npmPackage?.identifier).toBe(bridgeManifest.name);
    const urlVariable = npmPackage?.environmentVariables.find((variable) => variable.name === 'VISIBILITY_MCP_URL');
    expect(urlVariable?.default).toBe(`${baseUrl}/mcp`);

    const client = await connectBridge(urlVariable?.default ?? '');
    try {
      const discovery = (await (await fetch(`${baseUrl}/.well-known/mcp.json`)).json()) as { serverInfo: { name: string }; instructions?: string; tools: unknown[] };
      const listed = (await client.listTools()).tools.map(({ execution: _execution, ...tool }) => tool);
      // The manifest, built from the definitions, and the live /mcp behind the bridge describe the same tools.
      expect(listed).toEqual(discovery.tools);
      expect(client.getInstructions()).toBe(discovery.instructions);

      // A call goes through to the real server: it answers about the run id, not the bridge about the network.
      const answer = await client.callTool({ name: 'get_visibility_check', arguments: { runId: randomUUID() } });
      const text = (answer.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? '').join(' ');
      expect(text).not.toContain('could not be reached');
      expect(text).not.toContain('answered, but not with MCP');
      expect(text.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('measures a brand through the bridge, relaying the real server progress until the result', async () => {
    const client = await connectBridge(`${baseUrl}/mcp`);
    try {
      const progress: Array<{ progress: number; total?: number }> = [];
      const started = await client.callTool({ name: 'start_visibility_check', arguments: { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' } });
      expect(started.isError).not.toBe(true);
      const runId = (started.structuredContent as { runId: string }).runId;
      const finished = await client.callTool({ name: 'get_visibility_check', arguments: { runId, waitSeconds: 45 } }, undefined, {
        onprogress: (update) => progress.push(update),
        timeout: 70_000,
      });
      expect(finished.structuredContent).toMatchObject({ runId, status: 'done', mode: 'demo' });
      expect(progress.length).toBeGreaterThan(1);
      expect(progress.map((update) => update.progress)).toEqual([...progress.map((update) => update.progress)].sort((a, b) => a - b));
      expect(progress.at(-1)).toMatchObject({ progress: progress.at(-1)?.total });
    } finally {
      await client.close();
    }
  }, 180_000);
});
