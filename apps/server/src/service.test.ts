import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, loadConfig } from '@visibility/core';
import { startService, type RunningService } from './service.js';

let dataDir: string;
let service: RunningService;
const logLines: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'visibility-service-'));
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, BASE_URL: 'https://visibility.example' });
  service = await startService(config, createLogger({ level: 'info', write: (line) => logLines.push(line) }));
});

afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the service in the demo lineup', () => {
  it('answers the health check with the demo lineup and demo model ids', async () => {
    const response = await fetch(`${service.url}/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; mode: string; providers: Array<{ provider: string; model: string }> };
    expect(body.status).toBe('ok');
    expect(body.mode).toBe('demo');
    expect(body.providers.map((entry) => entry.provider).sort()).toEqual(['anthropic', 'gemini', 'openai']);
    for (const entry of body.providers) expect(entry.model.startsWith('demo-')).toBe(true);
  });

  it('logs one demo-lineup line that says how to set keys', () => {
    const demoLines = logLines.filter((line) => line.includes('demo lineup'));
    expect(demoLines).toHaveLength(1);
    expect(demoLines[0]).toContain('OPENAI_API_KEY');
  });

  it('asks the simulator through the real SDK adapters, labelled demo, and logs the call', async () => {
    for (const provider of service.lineup.values()) {
      const answer = await provider.ask({ prompt: 'What is the best CRM for a small agency?', purpose: 'test' });
      expect(answer.model.startsWith('demo-')).toBe(true);
      expect(answer.text.length).toBeGreaterThan(40);
    }
    const received = service.simulator?.requests() ?? [];
    expect(new Set(received.map((request) => request.provider))).toEqual(new Set(['openai', 'anthropic', 'gemini']));
    expect(service.store.repository.providerCallTotals(new Date(0)).calls).toBe(3);
  });

  it('answers unknown API paths with the spec ApiError and a request id', async () => {
    const response = await fetch(`${service.url}/api/nope`, { headers: { 'X-Request-Id': 'abc12345-test' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-request-id')).toBe('abc12345-test');
    expect(await response.json()).toEqual({
      error: expect.any(String),
      code: 'endpoint_not_found',
      hint: expect.any(String),
      docs: 'https://visibility.example/developers',
    });
  });

  it('does not echo an unsafe request id', async () => {
    const response = await fetch(`${service.url}/health`, { headers: { 'X-Request-Id': 'x"<script>{"forged":1}' } });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
