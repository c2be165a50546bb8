// Helpers shared by the resilience tests (faults, kill -9, concurrency): simulator fault storms, an MCP
// client over streamable HTTP, a server child process run from source, and the store checks every
// scenario ends with (integrity, nothing counted twice).

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { createPriceTable, type ModelPrice, type Store } from '@visibility/core';
import type { FaultSpec } from '@visibility/simulator';

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const PROVIDERS = ['anthropic', 'gemini', 'openai'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * A storm that keeps one provider down: 429s (retry-after 0, so retries come at once), 500s, 503s and,
 * at its head, `hangs` requests that never answer (they end at PROVIDER_TIMEOUT_MS). `rounds` repeats
 * of the pattern; every request the provider gets takes the next fault, so it never answers while the
 * storm lasts.
 */
export function providerStorm(provider: ProviderName, rounds: number, hangs = 0): FaultSpec[] {
  const faults: FaultSpec[] = [];
  if (hangs > 0) faults.push({ kind: 'hang', provider, times: hangs });
  for (let round = 0; round < rounds; round += 1) {
    faults.push(
      { kind: 'rate_limit', provider, retryAfterSeconds: 0 },
      { kind: 'server_error', provider, status: 500 },
      { kind: 'server_error', provider, status: 503 },
    );
  }
  return faults;
}

/** A burst a provider recovers from: `times` 429s then 500s; each call's retry then answers. */
export function transientStorm(provider: ProviderName, times: number): FaultSpec[] {
  return [
    { kind: 'rate_limit', provider, retryAfterSeconds: 0, times },
    { kind: 'server_error', provider, status: 500, times },
  ];
}

/** The SDK client on streamable HTTP, as an MCP host connects; `headers` go with every request (X-Forwarded-For). */
export async function connectMcp(mcpUrl: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'resilience-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers } }));
  return client;
}

export const textOf = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

/** Calls a tool and returns its structured content (failing the test with the text when it is a tool error). */
export async function callTool(client: Client, name: string, args: Record<string, unknown>, timeout = 60_000): Promise<Record<string, any>> {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout })) as CallToolResult;
  expect(result.isError, textOf(result)).not.toBe(true);
  return result.structuredContent as Record<string, any>;
}

/** Waits with get_visibility_check until the run is done or failed (several waits of up to `waitSeconds`). */
export async function waitForRun(client: Client, runId: string, deadlineMs = 60_000, waitSeconds = 10): Promise<Record<string, any>> {
  const deadline = Date.now() + deadlineMs;
  let view: Record<string, any> = {};
  while (Date.now() < deadline) {
    view = await callTool(client, 'get_visibility_check', { runId, waitSeconds });
    if (view['status'] === 'done' || view['status'] === 'failed') return view;
  }
  throw new Error(`run ${runId} did not finish within ${deadlineMs} ms: ${JSON.stringify(view)}`);
}

/**
 * Stores an audit of Pipedrive (https://pipedrive.test/) with the given buyer questions, as POST /api/audit
 * would, without running one: for tests of the map, where the audit's own measurement is not the subject.
 */
export async function insertAuditWithQuestions(store: Store, questions: readonly string[], email?: string): Promise<string> {
  const id = randomUUID();
  await store.auditRepository.insertAudit({
    id,
    createdAt: new Date().toISOString(),
    brand: 'Pipedrive',
    brandKey: 'pipedrive',
    website: 'https://pipedrive.test/',
    category: 'CRM software',
    categoryKey: 'crm software',
    email,
    mode: 'demo',
    measured: true,
    score: 50,
    response: { id, productFanout: { questions: [...questions], language: 'en' }, competitors: [] },
  });
  return id;
}

/** SQLite's own check of the file: pages, indexes and constraints. */
export function expectIntact(store: Store): void {
  expect(store.database.pragma('integrity_check', { simple: true })).toBe('ok');
  expect(store.database.pragma('foreign_key_check')).toEqual([]);
}

/**
 * Nothing paid twice: the month's settled spend is exactly the cost of the calls the call log recorded as
 * answered (each at the price of the model that answered), and every settled reservation is one logged
 * call (budget refusals are logged but never reserved). Returns the numbers for further checks.
 */
export function expectBudgetMatchesCallLog(store: Store, prices: Readonly<Record<string, ModelPrice>>): { spent: number; calls: number; reserved: number } {
  const table = createPriceTable(prices);
  const calls = store.database
    .prepare('SELECT model, outcome, failure_kind AS failureKind, input_tokens AS inputTokens, output_tokens AS outputTokens FROM provider_calls')
    .all() as Array<{ model: string; outcome: string; failureKind: string | null; inputTokens: number; outputTokens: number }>;
  const expectedSpend = calls
    .filter((call) => call.outcome === 'ok')
    .reduce((sum, call) => sum + table.costMicroUsd(call.model, { inputTokens: call.inputTokens, outputTokens: call.outputTokens }), 0);
  const settledCalls = calls.filter((call) => call.failureKind !== 'budget').length;
  const spend = store.database.prepare('SELECT COALESCE(SUM(spent_micro_usd), 0) AS spent, COALESCE(SUM(calls), 0) AS calls FROM budget_spend').get() as {
    spent: number;
    calls: number;
  };
  const reserved = store.database.prepare('SELECT COUNT(*) AS open FROM budget_reservations').get() as { open: number };
  expect(spend.spent).toBe(expectedSpend);
  expect(spend.calls).toBe(settledCalls);
  return { spent: spend.spent, calls: spend.calls, reserved: reserved.open };
}

/** The environment for a server child: the parent's, without any provider or deployment settings. */
export function childEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(environment)) {
    if (/^(OPENAI|ANTHROPIC|GEMINI)_|^(PROVIDER_|BASE_URL|SESSION_SECRET|TRUST_PROXY|SMTP_URL|MODEL_PRICES|MONTHLY_BUDGET_USD|DEGRADED_AUDIT_RESERVE_PERCENT|CRAWL_HOST_MAP|VITEST)/.test(name)) {
      delete environment[name];
    }
  }
  return { ...environment, PORT: '0', LOG_LEVEL: 'info', ...extra };
}

const LISTENING = /"msg":"listening".*"url":"(http:\/\/localhost:\d+)"/;
const WORKSPACES = ['packages/core', 'packages/mcp', 'packages/simulator', 'apps/server'];

/** True when every source file of the server's workspaces has a build at least as new (so the built CLI is this code). */
export function buildIsFresh(): boolean {
  const fresh = (sourceDir: string, distDir: string): boolean =>
    readdirSync(sourceDir, { withFileTypes: true }).every((entry) => {
      const source = join(sourceDir, entry.name);
      if (entry.isDirectory()) return fresh(source, join(distDir, entry.name));
      if (!entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts') || entry.name.endsWith('.d.ts')) return true;
      const built = join(distDir, entry.name.replace(/\.ts$/u, '.js'));
      return existsSync(built) && statSync(built).mtimeMs >= statSync(source).mtimeMs;
    });
  return WORKSPACES.every((workspace) => fresh(join(ROOT, workspace, 'src'), join(ROOT, workspace, 'dist')));
}

/**
 * `visibility serve` as its own OS process, resolving with its URL once it logs "listening". It runs the
 * built CLI when the build is up to date with the source, else the TypeScript source itself (the
 * `visibility-source` condition, through tsx, slower to start): either way the code under test, never a
 * stale build.
 */
export function startServerProcess(environment: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<{ child: ChildProcess; url: string; lines: string[] }> {
  const entry = "import { main } from './apps/server/src/cli/main.ts'; process.exitCode = await main(['serve']);";
  const args = buildIsFresh()
    ? [join(ROOT, 'apps/server/bin/visibility.js'), 'serve']
    : ['--conditions=visibility-source', '--import', 'tsx', '--input-type=module', '-e', entry];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let buffered = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not listen within ${timeoutMs} ms\n${lines.join('\n')}\n${stderr}`));
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline = buffered.indexOf('\n');
      while (newline !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        lines.push(line);
        const match = LISTENING.exec(line);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve({ child, url: match[1].replace('localhost', '127.0.0.1'), lines });
        }
        newline = buffered.indexOf('\n');
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code ?? signal}) before it listened\n${lines.join('\n')}\n${stderr}`));
    });
  });
}

export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** kill -9, and wait until the process is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  await exited(child);
  expect(child.signalCode).toBe('SIGKILL');
}

/** Polls until `read` gives a value (not undefined), or fails after the deadline. */
export async function until<T>(read: () => T | undefined | Promise<T | undefined>, what: string, deadlineMs = 20_000, everyMs = 10): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
