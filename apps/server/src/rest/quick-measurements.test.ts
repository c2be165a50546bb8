import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckResponseSchema, RepeatResponseSchema } from '@visibility/core';
import { postJson, startTestService, type TestService } from '../test-support/service.js';

const API_ERROR = { error: expect.any(String), code: expect.any(String), hint: expect.any(String), docs: 'http://visibility.test/developers' };

function expectApiError(result: { status: number; headers: Headers; body: unknown }, status: number, code: string): void {
  expect(result.status).toBe(status);
  expect(result.headers.get('content-type')).toMatch(/^application\/json/);
  expect(result.body).toEqual({ ...API_ERROR, code });
}

describe('POST /api/tools/repeat and /api/check in the demo lineup', () => {
  let running: TestService;
  beforeAll(async () => {
    running = await startTestService();
  });
  afterAll(async () => {
    await running.stop();
  });

  it.each([
    ['a body that is not JSON', { raw: '{"question": ', contentType: 'application/json' }, 'bad_body'],
    ['a wrong content type', { raw: 'question=best crm', contentType: 'application/x-www-form-urlencoded' }, 'bad_body'],
    ['an oversize body', { raw: JSON.stringify({ question: 'x'.repeat(40_000) }) }, 'bad_body'],
    ['a JSON array', { raw: '[]' }, 'bad_body'],
    ['a missing question', { raw: '{}' }, 'bad_body'],
    ['a question that is not a string', { raw: '{"question": 42}' }, 'bad_body'],
    ['an empty question', { raw: '{"question": "   \\n  "}' }, 'empty_question'],
    ['a question over 200 characters', { raw: JSON.stringify({ question: 'q'.repeat(201) }) }, 'question_too_long'],
    ['an unknown provider', { raw: '{"question": "best crm?", "provider": "mistral"}' }, 'bad_provider'],
    ['a provider that is not a string', { raw: '{"question": "best crm?", "provider": 3}' }, 'bad_provider'],
  ])('repeat answers %s with 400 and its code, spending nothing', async (_name, options, code) => {
    const before = running.service.simulator?.requests().length;
    const result = await postJson(`${running.url}/api/tools/repeat`, undefined, options);
    expectApiError(result, 400, code);
    expect(running.service.simulator?.requests().length).toBe(before);
  });

  it.each([
    ['a body that is not JSON', { raw: '{"brand"' }],
    ['a wrong content type', { raw: 'brand=Acme', contentType: 'text/plain' }],
    ['a missing brand', { raw: '{"category": "CRM software"}' }],
    ['an empty brand', { raw: '{"brand": "  "}' }],
    ['a brand over 80 characters', { raw: JSON.stringify({ brand: 'b'.repeat(81) }) }],
    ['a category over 120 characters', { raw: JSON.stringify({ brand: 'Acme', category: 'c'.repeat(121) }) }],
  ])('check answers %s with 400 missing_brand', async (_name, options) => {
    const result = await postJson(`${running.url}/api/check`, undefined, options);
    expectApiError(result, 400, 'missing_brand');
  });

  it('repeats a question 5 times, in order, with metrics and the rate-limit headers', async () => {
    const result = await postJson(`${running.url}/api/tools/repeat`, { question: '  What is the best   CRM for a small agency? ' });
    expect(result.status).toBe(200);
    const body = RepeatResponseSchema.parse(result.body);
    expect(body.question).toBe('What is the best CRM for a small agency?');
    expect(body.provider).toBe('openai');
    expect(body.model).toMatch(/^demo-/);
    expect(body.runsRequested).toBe(5);
    expect(body.runs).toHaveLength(5);
    expect(body.metrics.perRun).toEqual(body.runs.map((run) => run.brands));
    expect(body.metrics.okRuns).toBe(5);
    expect(body.metrics.pairs).toBe(10);
    expect(result.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(new Date(result.headers.get('x-ratelimit-reset') ?? '').getTime()).toBeGreaterThan(Date.now());
    // Asked verbatim: the simulator received exactly the normalised question, five times.
    const asked = running.service.simulator?.requests().filter((request) => request.prompt === body.question) ?? [];
    expect(asked).toHaveLength(5);
  });

  it('counts the per-IP limit and ignores a spoofed X-Forwarded-For without TRUST_PROXY', async () => {
    const second = await postJson(`${running.url}/api/tools/repeat`, { question: 'Best note-taking app?', provider: 'gemini' });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('1');
    const third = await postJson(`${running.url}/api/tools/repeat`, { question: 'Best VPN?', provider: 'anthropic' });
    expect(third.headers.get('x-ratelimit-remaining')).toBe('0');
    const fourth = await postJson(`${running.url}/api/tools/repeat`, { question: 'Best VPN?' }, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    expectApiError(fourth, 429, 'rate_limited');
    expect(fourth.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });

  it('checks a brand: recognition, a blind list that never names it in the prompt, a recommendation', async () => {
    const result = await postJson(`${running.url}/api/check`, { brand: 'HubSpot', category: 'CRM software' });
    expect(result.status).toBe(200);
    const body = CheckResponseSchema.parse(result.body);
    expect(body.brand).toBe('HubSpot');
    expect(body.category).toBe('CRM software');
    expect(body.model).toMatch(/^demo-/);
    expect(body.recommendations.length).toBeGreaterThan(0);
    expect(body.recommendations.length).toBeLessThanOrEqual(8);
    if (body.listPosition !== null) expect(body.recommendations[body.listPosition - 1]?.toLowerCase()).toContain('hubspot');
    const verdict = body.score >= 75 ? 'ai_approved' : body.score >= 40 ? 'barely_visible' : 'invisible';
    expect(body.verdict).toBe(verdict);
    const blindListPrompts = running.service.simulator?.requests().filter((request) => request.kind === 'blind_list') ?? [];
    expect(blindListPrompts.length).toBeGreaterThan(0);
    for (const request of blindListPrompts) expect(request.prompt.toLowerCase()).not.toContain('hubspot');
  });

  it('reads a form-encoded body like the JSON one (curl -d brand=…&category=…)', async () => {
    const response = await fetch(`${running.url}/api/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ brand: 'HubSpot', category: 'CRM software' }).toString(),
    });
    expect(response.status).toBe(200);
    const body = CheckResponseSchema.parse(await response.json());
    expect(body).toMatchObject({ brand: 'HubSpot', category: 'CRM software' });
  });

  it('checks a brand without a category: no blind list', async () => {
    const before = running.service.simulator?.requests().length ?? 0;
    const result = await postJson(`${running.url}/api/check`, { brand: 'Zzyzx Quantum Widgets' });
    expect(result.status).toBe(200);
    const body = CheckResponseSchema.parse(result.body);
    expect(body.recommendations).toEqual([]);
    expect(body.listPosition).toBeNull();
    expect(body.category).toBe('');
    const asked = running.service.simulator?.requests().slice(before) ?? [];
    expect(asked.some((request) => request.kind === 'blind_list')).toBe(false);
  });

  it('answers unknown API paths with 404 endpoint_not_found', async () => {
    const response = await fetch(`${running.url}/api/tools/nothing-here`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ ...API_ERROR, code: 'endpoint_not_found' });
  });

  it.each([
    ['PUT', '/api/check', 'POST'],
    ['GET', '/api/audit', 'POST'],
    ['DELETE', '/api/tools/repeat', 'POST'],
    ['DELETE', '/api/audit/00000000-0000-4000-8000-000000000000/fanout-map', 'GET, HEAD, POST'],
    ['POST', '/api/audit/00000000-0000-4000-8000-000000000000', 'GET, HEAD'],
  ])('answers %s %s with 405 method_not_allowed and Allow: %s', async (method, path, allow) => {
    const response = await fetch(`${running.url}${path}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await response.json()).toEqual({ ...API_ERROR, code: 'method_not_allowed' });
  });

  it('allows cross-origin calls to the public API', async () => {
    const preflight = await fetch(`${running.url}/api/check`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    const result = await postJson(`${running.url}/api/check`, undefined, { raw: '{}', headers: { Origin: 'https://elsewhere.example' } });
    expect(result.headers.get('access-control-allow-origin')).toBe('*');
    expect(result.headers.get('access-control-expose-headers')).toContain('Retry-After');
  });
});

describe('limits under concurrency', () => {
  it('lets exactly 6 of 200 concurrent checks from one caller through', async () => {
    const running = await startTestService();
    try {
      const results = await Promise.all(
        Array.from({ length: 200 }, () => postJson(`${running.url}/api/check`, { brand: 'Pipedrive', category: 'CRM software' })),
      );
      const statuses = results.map((result) => result.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(6);
      expect(statuses.filter((status) => status === 429)).toHaveLength(194);
      for (const result of results.filter((entry) => entry.status === 429)) {
        expect(result.body.code).toBe('rate_limited');
        expect(result.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      }
    } finally {
      await running.stop();
    }
  });

  it('counts callers by X-Forwarded-For only when TRUST_PROXY trusts the proxy, and keeps counts across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'visibility-limits-'));
    try {
      const first = await startTestService({ TRUST_PROXY: 'loopback' }, dataDir);
      const asCaller = (address: string) =>
        postJson(`${first.url}/api/check`, { brand: 'Trello' }, { headers: { 'X-Forwarded-For': address } });
      for (let index = 0; index < 6; index += 1) expect((await asCaller('198.51.100.77')).status).toBe(200);
      expectApiError(await asCaller('198.51.100.77'), 429, 'rate_limited');
      expect((await asCaller('198.51.100.78')).status).toBe(200);
      await first.stop();

      const second = await startTestService({ TRUST_PROXY: 'loopback' }, dataDir);
      try {
        const again = await postJson(`${second.url}/api/check`, { brand: 'Trello' }, { headers: { 'X-Forwarded-For': '198.51.100.77' } });
        expectApiError(again, 429, 'rate_limited');
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('shares the repeat daily cap across callers (TRUST_PROXY lets X-Forwarded-For name them)', async () => {
    const running = await startTestService({ TRUST_PROXY: 'loopback', REPEAT_DAILY_CAP: '4' });
    try {
      const results = await Promise.all(
        Array.from({ length: 12 }, (_unused, index) =>
          postJson(`${running.url}/api/tools/repeat`, { question: 'Best CRM?' }, { headers: { 'X-Forwarded-For': `198.51.100.${index + 1}` } }),
        ),
      );
      expect(results.filter((result) => result.status === 200)).toHaveLength(4);
      const refused = results.filter((result) => result.status === 429);
      expect(refused).toHaveLength(8);
      for (const result of refused) expect(result.body.code).toBe('daily_cap');
    } finally {
      await running.stop();
    }
  });

  it('never overspends the monthly budget under concurrent calls, then answers 503 budget', async () => {
    // Demo models are free unless priced: price them so one call reserves about 4 cents.
    const running = await startTestService({
      TRUST_PROXY: 'loopback',
      MONTHLY_BUDGET_USD: '0.5',
      MODEL_PRICES: JSON.stringify({ 'demo-': { input: 40, output: 40 } }),
    });
    try {
      await Promise.all(
        Array.from({ length: 30 }, (_unused, index) =>
          postJson(`${running.url}/api/tools/repeat`, { question: 'Best project management tool?' }, { headers: { 'X-Forwarded-For': `192.0.2.${index + 1}` } }),
        ),
      );
      expect((await running.service.budget.status()).spentMicroUsd).toBeLessThanOrEqual(500_000);
      // Spend what is left, one caller after another, until the service says the budget is gone.
      let refusal: Awaited<ReturnType<typeof postJson>> | undefined;
      for (let index = 0; index < 40 && refusal === undefined; index += 1) {
        const result = await postJson(`${running.url}/api/tools/repeat`, { question: 'Best CRM?' }, { headers: { 'X-Forwarded-For': `192.0.2.${100 + index}` } });
        if (result.status === 503) refusal = result;
        else expect(result.status).toBe(200);
        expect((await running.service.budget.status()).spentMicroUsd).toBeLessThanOrEqual(500_000);
      }
      expect(refusal).toBeDefined();
      expectApiError(refusal as Awaited<ReturnType<typeof postJson>>, 503, 'budget');
      expect(refusal?.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    } finally {
      await running.stop();
    }
  });

  it('answers 503 budget for a check when the budget is zero, asking no provider', async () => {
    const running = await startTestService({ MONTHLY_BUDGET_USD: '0', MODEL_PRICES: JSON.stringify({ 'demo-': { input: 1, output: 1 } }) });
    try {
      const result = await postJson(`${running.url}/api/check`, { brand: 'Asana', category: 'project management tools' });
      expectApiError(result, 503, 'budget');
      expect(result.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(running.service.simulator?.requests()).toHaveLength(0);
    } finally {
      await running.stop();
    }
  });
});

describe('a live lineup with one provider', () => {
  it('answers 400 provider_unavailable for an accepted provider that is not enabled', async () => {
    const demo = await startTestService();
    const simulatorUrl = demo.service.simulator?.baseUrls.openai ?? '';
    const running = await startTestService({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: simulatorUrl });
    try {
      const result = await postJson(`${running.url}/api/tools/repeat`, { question: 'Best CRM?', provider: 'gemini' });
      expectApiError(result, 400, 'provider_unavailable');
      const ok = await postJson(`${running.url}/api/tools/repeat`, { question: 'Best CRM?' });
      expect(ok.status).toBe(200);
      expect(ok.body.model).not.toMatch(/^demo-/);
    } finally {
      await running.stop();
      await demo.stop();
    }
  });
});

describe('internal failures', () => {
  it('answer 500 server_error as an ApiError without a stack trace, and the process keeps serving', async () => {
    const running = await startTestService();
    try {
      // The database going away mid-life is an internal failure the caller cannot fix.
      running.service.store.database.close();
      const result = await postJson(`${running.url}/api/check`, { brand: 'Notion', category: 'note-taking apps' });
      expectApiError(result, 500, 'server_error');
      expect(JSON.stringify(result.body)).not.toMatch(/at .*\.(js|ts):\d+/);
      expect(result.body.hint).toContain(result.headers.get('x-request-id'));
      const health = await fetch(`${running.url}/health`);
      expect(health.status).toBe(200);
      expect(running.logLines.some((line) => line.includes('"level":"error"') && line.includes('unhandled error'))).toBe(true);
    } finally {
      await running.stop().catch(() => undefined);
    }
  });
});
