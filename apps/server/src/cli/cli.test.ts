import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess as runCli } from '../test-support/run-cli.js';
import { startCli } from '../test-support/spawn-cli.js';

// In-process through main() (test-support/run-cli.ts), except `serve`'s start and SIGTERM: the one test that
// spawns the real built bin (run `npx tsc -b` first), so the bin, its stdio and its signals are covered.

const SAMPLE_ANSWER = `Here are three CRMs worth a look for a small agency:

1. **HubSpot CRM** – free to start, with great email tracking.
2. **Pipedrive** – a visual pipeline that salespeople like.
3. **Zoho CRM** – inexpensive and very configurable.

**Bottom line:** start with HubSpot if you want free, Pipedrive if you live in your pipeline.`;

describe('visibility extract-brands', () => {
  it('prints the brands of an answer on stdin as a JSON array', async () => {
    const result = await runCli(['extract-brands'], { stdin: SAMPLE_ANSWER });
    expect(result.code).toBe(0);
    const brands = JSON.parse(result.stdout) as string[];
    expect(brands.map((brand) => brand.toLowerCase())).toEqual(
      expect.arrayContaining([expect.stringContaining('hubspot'), 'pipedrive', expect.stringContaining('zoho')]),
    );
    expect(brands).toHaveLength(3);
    expect(brands.join(' ')).not.toMatch(/Bottom line/i);
  });

  it('does not report the audited brand when the answer does not name it', async () => {
    const result = await runCli(['extract-brands', '--brand', 'Close', '--competitors', 'Salesforce, Pipedrive'], { stdin: SAMPLE_ANSWER });
    expect(result.code).toBe(0);
    const brands = JSON.parse(result.stdout) as string[];
    expect(brands.map((brand) => brand.toLowerCase())).not.toContain('close');
    expect(brands.map((brand) => brand.toLowerCase())).not.toContain('salesforce');
  });

  it('prints an empty array for a refusal', async () => {
    const result = await runCli(['extract-brands'], { stdin: "I'm sorry, I can't help with that request." });
    expect(JSON.parse(result.stdout)).toEqual([]);
  });

  it('rejects unknown options with exit code 2 and nothing on stdout', async () => {
    const result = await runCli(['extract-brands', '--bogus'], { stdin: 'x' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/bogus/);
  });
});

describe('visibility serve', () => {
  it('starts as the real bin, logs the demo lineup, answers health, and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'visibility-cli-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
      for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'PROVIDER_MODE', 'BASE_URL']) delete env[name];
      const { child, lines, match } = await startCli(['serve'], env, /"msg":"listening".*"url":"(http:\/\/localhost:\d+)"/);
      expect(lines.some((line) => line.includes('demo lineup'))).toBe(true);
      const health = await fetch(`${match[1]}/health`);
      expect(((await health.json()) as { mode: string }).mode).toBe('demo');
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses bad configuration with a clear message and exit code 78', async () => {
    const result = await runCli(['serve'], { env: { ...process.env, PORT: 'eighty', DATA_DIR: tmpdir() } });
    expect(result.code).toBe(78);
    expect(result.stderr).toMatch(/PORT/);
  });
});
