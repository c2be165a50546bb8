// The stdio bridge as it would be published: `npm pack` (which runs its prepack build), the tarball
// installed into an empty folder, and its installed bin launched by the SDK's stdio client, as an MCP
// client launches `npx -y @visibility/stdio-bridge`, against the real service on a local port.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STDIO_BRIDGE_PACKAGE } from '../discovery/identity.js';
import { SAAS_SITE, startFixtureSite, type FixtureSite } from '../test-support/fixture-site.js';
import { startTestService, type TestService } from '../test-support/service.js';

const run = promisify(execFile);
const BRIDGE_DIR = fileURLToPath(new URL('../../../../packages/stdio-bridge/', import.meta.url));

/** npm's own settings from an outer `npm test` (workspace, prefix, …) must not reach the inner npm. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

describe('the packed stdio bridge', () => {
  let folder: string;
  let installDir: string;
  let tarball: string;
  let site: FixtureSite;
  let running: TestService;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'visibility-packed-bridge-'));
    const packDir = join(folder, 'pack');
    installDir = join(folder, 'empty');
    mkdirSync(packDir);
    mkdirSync(installDir);
    const environment = cleanEnvironment();
    const packed = await run('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: BRIDGE_DIR, env: environment, timeout: 120_000 });
    const [summary] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string }>;
    tarball = join(packDir, summary?.filename ?? '');
    // From npm's cache (npm ci filled it); the registry only for what is missing there.
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--omit=dev', tarball], { cwd: installDir, env: environment, timeout: 150_000 });
    site = await startFixtureSite(SAAS_SITE);
    running = await startTestService({ CRAWL_HOST_MAP: `pipedrive.test=${site.origin}` });
  }, 300_000);

  afterAll(async () => {
    await running?.stop();
    await site?.close();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it('holds the built bin, LICENSE, README and server.json, and no sources or build state', () => {
    const installed = join(installDir, 'node_modules', '@visibility', 'stdio-bridge');
    for (const file of ['LICENSE', 'README.md', 'server.json', 'package.json', 'bin/visibility-mcp.js', 'dist/cli.js']) {
      expect(existsSync(join(installed, file)), file).toBe(true);
    }
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(readdirSync(join(installed, 'dist')).filter((file) => file.includes('test') || file.endsWith('.tsbuildinfo'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, any>;
    const serverJson = JSON.parse(readFileSync(join(installed, 'server.json'), 'utf8')) as Record<string, any>;
    expect(manifest).toMatchObject({ name: STDIO_BRIDGE_PACKAGE.identifier, version: STDIO_BRIDGE_PACKAGE.version, license: 'MIT', engines: { node: '>=20.19' } });
    expect(manifest['repository']).toMatchObject({ type: 'git', directory: 'packages/stdio-bridge' });
    // The registry checks that the npm package names the server it is published for.
    expect(serverJson['name']).toBe(manifest['mcpName']);
    expect(serverJson['version']).toBe(manifest['version']);
    expect(serverJson['packages']).toEqual([
      expect.objectContaining({ registryType: 'npm', identifier: manifest['name'], version: manifest['version'], transport: { type: 'stdio' } }),
    ]);
    expect(serverJson['remotes']).toEqual([{ type: 'streamable-http', url: 'https://aivisibility.dev/mcp' }]);
  });

  it('serves the tools over stdio from the installed bin: start, then one get with defaults, answers the finished check', async () => {
    const bin = join(installDir, 'node_modules', '.bin', 'visibility-mcp');
    const transport = new StdioClientTransport({ command: bin, args: ['--url', `${running.url}/mcp`], env: getDefaultEnvironment(), stderr: 'pipe', cwd: installDir });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'packed-bridge-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.version).toBe(STDIO_BRIDGE_PACKAGE.version);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['start_visibility_check', 'get_visibility_check', 'get_visibility_history']);
      const started = (await client.callTool({ name: 'start_visibility_check', arguments: { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' } })) as CallToolResult;
      expect(started.isError, JSON.stringify(started)).not.toBe(true);
      const runId = (started.structuredContent as { runId: string }).runId;
      const got = (await client.callTool({ name: 'get_visibility_check', arguments: { runId } }, undefined, { timeout: 70_000 })) as CallToolResult;
      expect(got.structuredContent).toMatchObject({ runId, status: 'done', mode: 'demo', reportUrl: expect.stringContaining('/report/') });
    } finally {
      await client.close();
    }
    expect(stderr).toContain(`forwarding to ${running.url}/mcp`);
  });
});
