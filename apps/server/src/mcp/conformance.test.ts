// The server scenarios of @modelcontextprotocol/conformance (0.1.13: the last release that runs on
// Node 20) against the real service, with the expected-failures file. The results become
// docs/mcp-conformance.md (a file snapshot: a different run fails the test).

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test-support/service.js';
import { parseExpectedFailures, parseScenarioList, readResults, renderConformanceReport } from './test-support/conformance-report.js';

const CONFORMANCE_BIN = realpathSync(fileURLToPath(new URL('../../../../node_modules/.bin/conformance', import.meta.url)));
const CONFORMANCE_VERSION = (
  JSON.parse(readFileSync(new URL('../../../../node_modules/@modelcontextprotocol/conformance/package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const EXPECTED_FAILURES = fileURLToPath(new URL('./conformance-expected-failures.yaml', import.meta.url));
const RUN_TIMEOUT_MS = 60_000;

let running: TestService;
let outputDir: string;

beforeAll(async () => {
  running = await startTestService();
  outputDir = mkdtempSync(join(tmpdir(), 'visibility-conformance-'));
});
afterAll(async () => {
  await running?.stop();
  if (outputDir !== undefined) rmSync(outputDir, { recursive: true, force: true });
});

/** Runs the conformance CLI with node (what `npx conformance` runs) in the output folder. */
function conformance(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CONFORMANCE_BIN, ...args], { cwd: outputDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('MCP conformance', () => {
  it('passes every server scenario that applies to a tools-only server, and fails only the listed ones, each for its reason', async () => {
    expect(CONFORMANCE_VERSION).toBe('0.1.13');
    const listed = await conformance(['list', '--server']);
    const scenarios = parseScenarioList(listed.output);
    expect(scenarios).toContain('tools-list');

    const expectedFailures = parseExpectedFailures(readFileSync(EXPECTED_FAILURES, 'utf8'));
    for (const [scenario, reason] of expectedFailures) {
      expect(scenarios, `${scenario} is not a scenario of this conformance version`).toContain(scenario);
      expect(reason.length, `${scenario} needs a reason`).toBeGreaterThan(20);
    }

    const run = await conformance(['server', '--url', `${running.url}/mcp`, '--suite', 'all', '--expected-failures', EXPECTED_FAILURES, '-o', outputDir]);
    // Exit 0: no failure outside the list, and no listed scenario that passes.
    expect(run.code, run.output.slice(-3_000)).toBe(0);

    const results = readResults(outputDir, scenarios);
    for (const result of results) expect(result.failed > 0, `${result.scenario} failed: ${result.failed > 0}`).toBe(expectedFailures.has(result.scenario));
    for (const scenario of ['server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection']) {
      expect(results.find((result) => result.scenario === scenario)).toMatchObject({ failed: 0, passed: expect.any(Number) });
    }
    await expect(renderConformanceReport(results, expectedFailures, CONFORMANCE_VERSION)).toMatchFileSnapshot('../../../../docs/mcp-conformance.md');
  });
});
