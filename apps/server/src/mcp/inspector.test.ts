// The MCP Inspector (0.15.0) in CLI mode against the running server, as a developer or CI would run
// `npx @modelcontextprotocol/inspector --cli {mcp_url} --method tools/list`. The package's own bin is
// spawned with node (what npx runs, without npm's start-up time); no network is needed.

import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from '../test-support/fixture-site.js';
import { startTestService, type TestService } from '../test-support/service.js';

/** `npx @modelcontextprotocol/inspector` runs this bin; `--cli` hands over to the inspector's CLI client. */
const INSPECTOR_BIN = realpathSync(fileURLToPath(new URL('../../../../node_modules/.bin/mcp-inspector', import.meta.url)));
const INSPECTOR_TIMEOUT_MS = 20_000;

let site: FixtureSite;
let running: TestService;

beforeAll(async () => {
  site = await startFixtureSite(SAAS_SITE);
  running = await startTestService({ CRAWL_HOST_MAP: `pipedrive.test=${site.origin}` });
});
afterAll(async () => {
  await running?.stop();
  await site?.close();
});

/** Runs the inspector CLI against /mcp and parses the JSON it prints. */
function inspector(args: string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [INSPECTOR_BIN, '--cli', `${running.url}/mcp`, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), INSPECTOR_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      // The CLI prints a banner line before the JSON result.
      const json = stdout.slice(stdout.indexOf('{'));
      if (code !== 0) {
        reject(new Error(`inspector exited ${code}: ${stderr || stdout}`));
        return;
      }
      try {
        resolve(JSON.parse(json));
      } catch {
        reject(new Error(`inspector printed no JSON: ${stdout} ${stderr}`));
      }
    });
  });
}

describe('the MCP Inspector CLI', () => {
  it('lists the tools with their schemas', async () => {
    const listed = await inspector(['--method', 'tools/list']);
    expect(listed.tools.map((tool: { name: string }) => tool.name)).toEqual(['start_visibility_check', 'get_visibility_check', 'get_visibility_history']);
    expect(listed.tools[0].inputSchema.required).toEqual(['brand', 'website', 'category']);
    expect(listed.tools[1].outputSchema.properties).toHaveProperty('buyerQuestionsWon');
  });

  it('starts a check and reads it back until it is done', async () => {
    const started = await inspector([
      '--method',
      'tools/call',
      '--tool-name',
      'start_visibility_check',
      '--tool-arg',
      'brand=Pipedrive',
      'website=pipedrive.test',
      'category=CRM software',
    ]);
    expect(started.isError).not.toBe(true);
    const runId = started.structuredContent.runId as string;
    expect(started.structuredContent).toMatchObject({ reused: false, mode: 'demo' });

    // The CLI sends every argument as a string, so it polls without waitSeconds, as pollAfterSeconds says.
    let state: any;
    for (let attempt = 0; attempt < 30; attempt += 1) {
      state = await inspector(['--method', 'tools/call', '--tool-name', 'get_visibility_check', '--tool-arg', `runId=${runId}`]);
      if (state.structuredContent?.status === 'done' || state.structuredContent?.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(state.structuredContent).toMatchObject({ runId, status: 'done' });
    expect(state.content[0].text).toContain('Buyer questions won:');
  });

  it('shows an unknown runId as an isError result a model can act on', async () => {
    const result = await inspector(['--method', 'tools/call', '--tool-name', 'get_visibility_check', '--tool-arg', 'runId=00000000-0000-4000-8000-000000000000']);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^run_not_found:/);
  });
});
