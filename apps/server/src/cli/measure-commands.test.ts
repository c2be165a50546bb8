// `visibility repeat` and `visibility check`, run in-process through main() (test-support/run-cli.ts): against
// the demo lineup, and against a stand-in OpenAI endpoint for failures and Ctrl-C.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ApiErrorSchema, CheckResponseSchema, RepeatResponseSchema } from '@visibility/core';
import { runCliInProcess, startCliInProcess } from '../test-support/run-cli.js';

const TIMEOUT_MS = 60_000;
let root: string;
let directories = 0;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'visibility-measure-cli-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** An environment with no provider keys, no BASE_URL (vitest sets it to "/") and a fresh DATA_DIR. */
function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(OPENAI|ANTHROPIC|GEMINI)_|^PROVIDER_|^(BASE_URL|PORT|MONTHLY_BUDGET_USD|MODEL_PRICES|LOG_LEVEL)$/.test(name)) delete env[name];
  }
  directories += 1;
  return { ...env, DATA_DIR: join(root, `data-${directories}`), ...extra };
}

function run(args: string[], extra: Record<string, string> = {}) {
  return runCliInProcess(args, { env: cliEnv(extra) });
}

/** A stand-in OpenAI endpoint; `handle` decides each chat completion by its 1-based arrival number. */
async function startFakeOpenAI(handle: (count: number, request: IncomingMessage, response: ServerResponse) => void) {
  let count = 0;
  const server: Server = createServer((request, response) => {
    count += 1;
    request.resume();
    handle(count, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, PROVIDER_MAX_RETRIES: '0' },
    requests: () => count,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function answerCompletion(response: ServerResponse, text: string): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-4.1-mini-2025-04-14',
      choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
    }),
  );
}

function overloaded(response: ServerResponse): void {
  response.writeHead(503, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error', param: null, code: null } }));
}

// Concurrent: each test runs its own commands (own DATA_DIR, own runtime); assertions use the test's own `expect`.
describe.concurrent('visibility repeat and check against the demo lineup', { timeout: TIMEOUT_MS }, () => {
  it('repeat --json prints exactly one RepeatResponse document on stdout and the progress on stderr', async ({ expect }) => {
    const result = await run(['repeat', '  best   CRM for a small agency ', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const body = RepeatResponseSchema.parse(JSON.parse(result.stdout));
    expect(body.question).toBe('best CRM for a small agency');
    expect(body.provider).toBe('openai');
    expect(body.model).toMatch(/^demo-/);
    expect(body.runs).toHaveLength(5);
    expect(body.metrics.okRuns).toBe(5);
    expect(result.stdout).not.toMatch(/\[\d\/5\]/);
    for (let run = 1; run <= 5; run += 1) expect(result.stderr).toContain(`[${run}/5] run `);
    expect(result.stderr).toMatch(/demo simulator, not from a real model/);
  });

  it('repeat prints a readable summary with the model, each run, okRuns, jaccardMean, inAll and once', async ({ expect }) => {
    const result = await run(['repeat', 'best CRM for a small agency', '--provider', 'anthropic']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^DEMO: these answers come from the built-in demo simulator, not from a real model\./);
    expect(result.stdout).toMatch(/Provider: anthropic\nModel: demo-/);
    for (let run = 1; run <= 5; run += 1) expect(result.stdout).toMatch(new RegExp(`^  ${run}\\. \\S`, 'm'));
    expect(result.stdout).toContain('Runs answered (okRuns): 5 of 5');
    expect(result.stdout).toMatch(/Jaccard mean: (0|1)\.\d\d over 10 pairs/);
    expect(result.stdout).toMatch(/Named in every run \(inAll\): \S/);
    expect(result.stdout).toMatch(/Named in only one run \(once\): \S/);
    expect(result.stdout).not.toMatch(/\[\d\/5\]/);
  });

  it('check --json prints one CheckResponse document', async ({ expect }) => {
    const result = await run(['check', 'HubSpot', '--category', 'CRM software', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const body = CheckResponseSchema.parse(JSON.parse(result.stdout));
    expect(body).toMatchObject({ brand: 'HubSpot', category: 'CRM software', knows: true });
    expect(body.model).toMatch(/^demo-/);
    expect(body.recommendations.length).toBeGreaterThan(0);
    expect(result.stderr).toContain('[3/3] ');
  });

  it('check prints the score, verdict, description, blind list with the brand marked, recommendation and model', async ({ expect }) => {
    const result = await run(['check', '--brand', 'HubSpot', '--category', 'CRM software']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^DEMO: /);
    expect(result.stdout).toMatch(/^Score: \d{1,3}\/100\nVerdict: (ai_approved|barely_visible|invisible) /m);
    expect(result.stdout).toMatch(/^Knows the brand: yes\n {2}"HubSpot .+"$/m);
    expect(result.stdout).toMatch(/^Blind list for "CRM software" \(the prompt never names the brand\): HubSpot is #(\d) of \d$/m);
    const position = /HubSpot is #(\d) of/.exec(result.stdout)?.[1];
    expect(result.stdout).toMatch(new RegExp(`^ {2}${position}\\. HubSpot {3}<-- your brand$`, 'm'));
    expect(result.stdout).toMatch(/^Would recommend it: (yes|no|unsure)\n {2}".+"$/m);
    expect(result.stdout).toMatch(/^Model: demo-/m);
  });

  it('check without a category says the blind list was skipped', async ({ expect }) => {
    const result = await run(['check', 'HubSpot']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Blind list: skipped (no category given)');
    expect(result.stderr).toContain('[2/2] ');
  });

  it.for([
    { args: ['repeat', '', '--json'], code: 'empty_question' },
    { args: ['repeat', 'x'.repeat(201), '--json'], code: 'question_too_long' },
    { args: ['repeat', 'best CRM', '--provider', 'mistral', '--json'], code: 'bad_provider' },
    { args: ['check', '--category', 'CRM software', '--json'], code: 'missing_brand' },
  ])('refuses $code with exit 2 and nothing on stdout', async ({ args, code }, { expect }) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`[${code}]`);
    expect(result.stderr).toMatch(/Usage: visibility (repeat|check)/);
  });

  it('exits 3 with code budget when the monthly budget is used up, with the ApiError JSON for --json', async ({ expect }) => {
    const budget = { MONTHLY_BUDGET_USD: '0', MODEL_PRICES: '{"demo-":{"input":1,"output":1}}' };
    const [repeat, check] = await Promise.all([run(['repeat', 'best CRM', '--json'], budget), run(['check', 'Acme'], budget)]);
    expect(repeat.code).toBe(3);
    const error = ApiErrorSchema.parse(JSON.parse(repeat.stdout));
    expect(error).toMatchObject({ code: 'budget', docs: 'http://localhost:3000/developers' });
    expect(repeat.stderr).toMatch(/code: budget\n {2}hint: Try again after /);
    expect(check.code).toBe(3);
    expect(check.stdout).toBe('');
    expect(check.stderr).toContain('code: budget');
  });

  it('exits 78 on bad configuration and 1 on an unexpected failure, with nothing on stdout', async ({ expect }) => {
    const [badConfig, unusableDataDir] = await Promise.all([
      run(['check', 'Acme', '--json'], { MONTHLY_BUDGET_USD: 'lots' }),
      run(['check', 'Acme', '--json'], { DATA_DIR: '/dev/null/data' }),
    ]);
    expect(badConfig.code).toBe(78);
    expect(badConfig.stderr).toMatch(/MONTHLY_BUDGET_USD/);
    expect(badConfig.stdout).toBe('');
    expect(unusableDataDir.code).toBe(1);
    expect(unusableDataDir.stderr).toMatch(/unexpected error/);
    expect(unusableDataDir.stdout).toBe('');
  });
});

describe.concurrent('visibility repeat and check against a live provider endpoint', { timeout: TIMEOUT_MS }, () => {
  it('a repeat where some runs failed exits 0; one where every run failed exits 3 with the RepeatResponse', async ({ expect }) => {
    const partly = await startFakeOpenAI((count, _request, response) =>
      count <= 2 ? overloaded(response) : answerCompletion(response, 'Try **HubSpot** or **Pipedrive**.'),
    );
    const failing = await startFakeOpenAI((_count, _request, response) => overloaded(response));
    try {
      const [some, every] = await Promise.all([
        run(['repeat', 'best CRM', '--json'], partly.env),
        run(['repeat', 'best CRM', '--json'], failing.env),
      ]);
      expect(some.code, some.stderr).toBe(0);
      expect(RepeatResponseSchema.parse(JSON.parse(some.stdout)).metrics.okRuns).toBe(3);
      expect(some.stderr).toContain('2 of 5 runs failed');
      expect(every.code, every.stderr).toBe(3);
      const body = RepeatResponseSchema.parse(JSON.parse(every.stdout));
      expect(body.metrics.okRuns).toBe(0);
      expect(body.runs.every((run) => !run.ok && run.error !== undefined)).toBe(true);
      expect(every.stderr).toContain('no run answered');
    } finally {
      await Promise.all([partly.close(), failing.close()]);
    }
  });

  it('Ctrl-C aborts the provider calls in flight and exits 130', async ({ expect }) => {
    let closed = 0;
    let received!: () => void;
    const firstRequest = new Promise<void>((resolve) => (received = resolve));
    const hanging = await startFakeOpenAI((_count, request) => {
      request.socket.once('close', () => (closed += 1));
      received();
    });
    try {
      const cli = startCliInProcess(['repeat', 'best CRM', '--json'], { env: cliEnv(hanging.env) });
      await firstRequest;
      cli.interrupt();
      const { code, stdout, stderr } = await cli.done;
      expect(code, stderr).toBe(130);
      expect(stdout).toBe('');
      expect(stderr).toContain('interrupted');
      // Every call that reached the endpoint was cancelled, not left to run (and spend) on its own. In-process
      // the command can return before the other runs' requests land, so count until each landed one is closed.
      await expect.poll(() => (closed > 0 && closed === hanging.requests() ? closed : 0)).toBeGreaterThan(0);
    } finally {
      await hanging.close();
    }
  });
});
