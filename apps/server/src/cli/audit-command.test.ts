// `visibility audit`, run in-process through main() (test-support/run-cli.ts): the demo lineup auditing a local
// fixture site reached through CRAWL_HOST_MAP, the REST validation's refusals, and a provider failing throughout.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { AuditResponseSchema } from '@visibility/core';
import { SAAS_SITE, startFixtureSite, type FixtureSite } from '../test-support/fixture-site.js';
import { runCliInProcess } from '../test-support/run-cli.js';

const TIMEOUT_MS = 60_000;
/** The REST body without the per-caller `rateLimit`, which the CLI does not have. */
const CliAuditSchema = AuditResponseSchema.omit({ rateLimit: true });
const PROGRESS_LINE = /^ {2}(crawl|questions|answers|findings): /m;

let root: string;
let site: FixtureSite;
let directories = 0;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'visibility-audit-cli-'));
  site = await startFixtureSite(SAAS_SITE);
});
afterAll(async () => {
  await site.close();
  rmSync(root, { recursive: true, force: true });
});

/** No provider keys, no BASE_URL, a fresh DATA_DIR, and pipedrive.test mapped to the fixture site. */
function cliEnv(extra: Record<string, string> = {}): { env: NodeJS.ProcessEnv; dataDir: string } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(OPENAI|ANTHROPIC|GEMINI)_|^PROVIDER_|^(BASE_URL|PORT|MONTHLY_BUDGET_USD|MODEL_PRICES|LOG_LEVEL|SMTP_URL|CRAWL_HOST_MAP)$/.test(name)) delete env[name];
  }
  directories += 1;
  const dataDir = join(root, `data-${directories}`);
  return { env: { ...env, DATA_DIR: dataDir, CRAWL_HOST_MAP: `pipedrive.test=${site.origin}`, ...extra }, dataDir };
}

function run(args: string[], extra: Record<string, string> = {}) {
  return runCliInProcess(['audit', ...args], { env: cliEnv(extra).env });
}

const SITE_ARGS = ['--website', 'pipedrive.test', '--category', 'CRM software'];

describe.concurrent('visibility audit', { timeout: TIMEOUT_MS }, () => {
  it('--json prints one AuditResponse (without rateLimit) with 3 provider findings; the progress goes to stderr only', async ({ expect }) => {
    const result = await run(['Pipedrive', ...SITE_ARGS, '--competitors', 'HubSpot, Salesforce', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const body = CliAuditSchema.parse(JSON.parse(result.stdout));
    expect(body).not.toHaveProperty('rateLimit');
    expect(body.mode).toBe('demo');
    expect(body.audit).toMatchObject({ brand: 'Pipedrive', website: 'https://pipedrive.test/', category: 'CRM software', measured: true });
    expect(body.providerFindings.map((finding) => finding.provider).sort()).toEqual(['anthropic', 'gemini', 'openai']);
    expect(body.providerFindings.every((finding) => String(finding.model).startsWith('demo-'))).toBe(true);
    expect(body.providerErrors).toEqual([]);
    expect(site.requests.some((request) => request.endsWith(' /robots.txt'))).toBe(true);

    expect(result.stdout).not.toMatch(PROGRESS_LINE);
    expect(result.stderr).toContain('  crawl: site crawled\n');
    expect(result.stderr).toMatch(/^ {2}questions: \d+ buyer questions$/m);
    const perProvider = (body.productFanout as { questions: string[] }).questions.length * 3;
    // Off a terminal every answer is its own line; the last one has every provider done.
    expect(result.stderr.match(/^ {2}answers: /gm)).toHaveLength(3 * perProvider);
    expect(result.stderr).toContain(`  answers: openai ${perProvider}/${perProvider}, gemini ${perProvider}/${perProvider}, anthropic ${perProvider}/${perProvider}\n`);
    expect(result.stderr).toMatch(/^ {2}findings: score \d+ \(\w+ risk\)$/m);
  });

  it('prints a readable summary: score with interval, risk, confidence, providers, competitors, questions, next steps, id', async ({ expect }) => {
    const { env, dataDir } = cliEnv();
    const result = await runCliInProcess(['audit', '--brand', 'Acme', ...SITE_ARGS, '--email', 'owner@acme.example'], { env });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/^DEMO: these answers come from the built-in demo simulator, not from a real model\.\n/);
    expect(out).toMatch(/^Score: \d{1,3}\/100 \(95% interval \d+-\d+\)\nRisk: (low|medium|high|critical)\nConfidence: (high|medium|low)\nDegraded: no \(3 samples per question\)$/m);
    for (const provider of ['openai', 'anthropic', 'gemini']) {
      expect(out).toMatch(new RegExp(`^ {2}${provider} \\(demo-[^)]+\\): score \\d+, mention rate \\d+% \\(95% CI \\d+-\\d+%\\), (average position [\\d.]+|never named)$`, 'm'));
    }
    // The demo simulator never names an unknown brand: the competitors are named instead.
    expect(out).toMatch(/^Named instead of Acme:\n {2}1\. \S.*: in \d+ answers without Acme$/m);
    expect(out).toMatch(/^Buyer questions: \d+, each asked 3 times to 3 providers/m);
    expect(out).toMatch(/^Next steps:\n {2}\[high\] Allow assistant-search crawlers in robots\.txt/m);
    expect(out).toMatch(/^Audit id: [0-9a-f-]{36}$/m);
    expect(out).toMatch(/^Email: attached to owner@acme\.example; result mail written to the outbox: /m);
    expect(readdirSync(join(dataDir, 'outbox'))).toHaveLength(1);
    expect(out).not.toMatch(PROGRESS_LINE);
  });

  it.for([
    { args: ['Acme', '--category', 'CRM software'], code: 'missing_required' },
    { args: ['Acme', '--website', 'http://localhost:8080', '--category', 'CRM software'], code: 'invalid_website' },
    { args: ['Acme', ...SITE_ARGS, '--email', 'not-an-address'], code: 'invalid_email' },
  ])('refuses $code with exit 2 and nothing on stdout', async ({ args, code }, { expect }) => {
    const result = await run([...args, '--json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`[${code}]`);
    expect(result.stderr).toMatch(/Usage: visibility audit /);
  });

  it('exits 3 when every provider fails, with the audit on stdout and the provider "not measured"', async ({ expect }) => {
    const server: Server = createServer((request, response) => {
      request.resume();
      response.writeHead(503, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error', param: null, code: null } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await run(['Pipedrive', ...SITE_ARGS], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, PROVIDER_MAX_RETRIES: '0' });
      expect(result.code, result.stderr).toBe(3);
      expect(result.stdout).toMatch(/^Score: NOT MEASURED\. Every provider asked failed/m);
      expect(result.stdout).toMatch(/^ {2}openai \(gpt-[^)]+\): NOT MEASURED: .+ \(all \d+ samples failed; this is not "not mentioned"\)$/m);
      expect(result.stdout).not.toMatch(/^DEMO/m);
      expect(result.stderr).toContain('visibility audit: nothing was measured.');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
