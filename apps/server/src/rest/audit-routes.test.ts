import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditResponseSchema } from '@visibility/core';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from '../test-support/fixture-site.js';
import { postJson, startTestService, type TestService } from '../test-support/service.js';

const API_ERROR = { error: expect.any(String), code: expect.any(String), hint: expect.any(String), docs: 'http://visibility.test/developers' };

describe('POST /api/audit', () => {
  let site: FixtureSite;
  let running: TestService;
  beforeAll(async () => {
    site = await startFixtureSite(SAAS_SITE);
    running = await startTestService({ CRAWL_HOST_MAP: `pipedrive.test=${site.origin}`, TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => {
    await running.stop();
    await site.close();
  });

  const audit = (body: unknown, caller = '203.0.113.10', raw?: string) =>
    postJson(`${running.url}/api/audit`, body, { headers: { 'X-Forwarded-For': caller }, ...(raw === undefined ? {} : { raw }) });

  it.each([
    ['broken JSON', undefined, '{"brand":', 'invalid_body'],
    ['a brand that is not a string', { brand: 1, website: 'pipedrive.test', category: 'CRM' }, undefined, 'invalid_body'],
    ['no category', { brand: 'Pipedrive', website: 'pipedrive.test' }, undefined, 'missing_required'],
    ['a localhost website', { brand: 'Pipedrive', website: 'http://localhost:3000', category: 'CRM' }, undefined, 'invalid_website'],
    ['a private-address website', { brand: 'Pipedrive', website: 'http://10.0.0.8/', category: 'CRM' }, undefined, 'invalid_website'],
    ['a bad email', { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM', email: 'nope' }, undefined, 'invalid_email'],
  ])('answers %s with 400 and its code, crawling and spending nothing', async (_name, body, raw, code) => {
    const before = site.requests.length;
    const result = await audit(body, '203.0.113.99', raw);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ ...API_ERROR, code });
    expect(site.requests.length).toBe(before);
    expect(result.headers.get('x-ratelimit-remaining')).toBeNull();
  });

  it('crawls the site, measures every provider, stores the audit and mails the result', async () => {
    const result = await audit({
      brand: 'Pipedrive',
      website: 'pipedrive.test',
      category: 'CRM software',
      competitors: 'HubSpot, Salesforce',
      email: 'owner@pipedrive.test',
    });
    expect(result.status).toBe(200);
    const body = AuditResponseSchema.parse(result.body);
    expect(body.mode).toBe('demo');
    expect(body.audit.website).toBe('https://pipedrive.test/');
    expect(body.providerFindings.map((finding) => finding.provider).sort()).toEqual(['anthropic', 'gemini', 'openai']);
    expect(result.headers.get('x-ratelimit-remaining')).toBe(String(body.rateLimit?.remaining));
    expect(result.headers.get('x-ratelimit-reset')).toBe(body.rateLimit?.resetAt);
    expect(body.rateLimit?.remaining).toBe(5);
    // The crawl really happened, and the robots.txt findings turned into next steps.
    expect(site.requests.some((line) => line.endsWith(' /robots.txt'))).toBe(true);
    expect(JSON.stringify(body.personalizedNextSteps)).toMatch(/OAI-SearchBot/);
    // Stored, so the map and the badge can find it later.
    expect((await running.service.store.auditRepository.getAudit(body.id))?.brand).toBe('Pipedrive');
    // No buyer question named the brand.
    const buyerPrompts = running.service.simulator?.requests().filter((request) => request.kind !== 'recognition') ?? [];
    for (const request of buyerPrompts) expect(request.prompt.toLowerCase()).not.toContain('pipedrive');
    // The mail is in the outbox, labelled demo.
    const outbox = join(running.dataDir, 'outbox');
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    const mail = readFileSync(join(outbox, files[0] ?? ''), 'utf8');
    expect(mail).toContain('To: owner@pipedrive.test');
    expect(mail).toContain('demo lineup');

    // The report's own page is in the response and in the mail; its key reads the audit again over the API.
    expect(body.reportUrl).toMatch(new RegExp(`^http://visibility\\.test/report/${body.id}\\?key=[A-Za-z0-9_-]{32}$`, 'u'));
    // The outbox keeps the mail quoted-printable: undo the soft line breaks and =XX escapes to read it.
    const readable = Buffer.from(
      mail.replace(/=\r?\n/gu, '').replace(/=([0-9A-F]{2})/gu, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
    expect(readable).toContain(body.reportUrl);
    const [low, high] = body.audit['scoreInterval'] as [number, number];
    expect(readable).toContain(`Score: ${body.audit.score}/100 (risk: ${body.audit.risk}, 95% CI ${low}–${high})`);
    const key = new URL(body.reportUrl ?? '').searchParams.get('key') ?? '';
    const again = await fetch(`${running.url}/api/audit/${body.id}?key=${key}`);
    expect(again.status).toBe(200);
    const stored = AuditResponseSchema.parse(await again.json());
    const { rateLimit: _rateLimit, ...withoutRateLimit } = body;
    expect(stored).toEqual(withoutRateLimit);
    // Without the key (or with another audit's), the same 404 as an unknown id: ids cannot be probed.
    for (const url of [`/api/audit/${body.id}`, `/api/audit/${body.id}?key=${'x'.repeat(32)}`, '/api/audit/00000000-0000-4000-8000-000000000000', '/api/audit/not-a-uuid']) {
      const refused = await fetch(`${running.url}${url}`);
      expect(refused.status, url).toBe(404);
      expect(await refused.json(), url).toEqual({ ...API_ERROR, code: 'audit_not_found' });
    }
  });

  it('answers 503 store_unavailable when saving fails twice, with Retry-After', async () => {
    running.service.store.database.exec(
      "CREATE TRIGGER refuse_audits BEFORE INSERT ON audits BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END;",
    );
    try {
      const result = await audit({ brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' }, '203.0.113.11');
      expect(result.status).toBe(503);
      expect(result.body).toEqual({ ...API_ERROR, code: 'store_unavailable' });
      expect(result.headers.get('retry-after')).toBe('60');
    } finally {
      running.service.store.database.exec('DROP TRIGGER refuse_audits');
    }
  });

  it('lets 6 audits an hour through per caller and answers the 7th with 429', async () => {
    const caller = '203.0.113.12';
    const results = await Promise.all(
      Array.from({ length: 8 }, () => audit({ brand: 'Acme', website: 'pipedrive.test', category: 'CRM software' }, caller)),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(6);
    const refused = results.filter((result) => result.status === 429);
    expect(refused).toHaveLength(2);
    for (const result of refused) {
      expect(result.body.code).toBe('rate_limited');
      expect(result.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    }
  });

  it('keeps a provider that fails throughout out of the findings and reports it as not measured', async () => {
    running.service.simulator?.injectFaults([{ kind: 'server_error', provider: 'gemini', times: 10_000, status: 500 }]);
    try {
      const result = await audit({ brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' }, '203.0.113.13');
      expect(result.status).toBe(200);
      const body = AuditResponseSchema.parse(result.body);
      expect(body.providerFindings.map((finding) => finding.provider).sort()).toEqual(['anthropic', 'openai']);
      expect(body.providerErrors?.map((failure) => failure.provider)).toEqual(['gemini']);
    } finally {
      running.service.simulator?.clearFaults();
    }
  });
});

describe('POST /api/audit when the monthly budget is used up', () => {
  it('asks each provider each question once from the reserve and says so; repeat and check answer 503 budget', async () => {
    const site = await startFixtureSite(SAAS_SITE);
    // $1 a month, a tenth of it (the default) kept for degraded audits; demo models priced so calls cost money.
    const running = await startTestService({
      CRAWL_HOST_MAP: `pipedrive.test=${site.origin}`,
      MONTHLY_BUDGET_USD: '1',
      MODEL_PRICES: JSON.stringify({ 'demo-': { input: 1, output: 1 } }),
    });
    try {
      const { budget, store } = running.service;
      const month = (await budget.status()).month;
      // Ordinary spend has used everything but the reserve.
      store.budgetRepository.addSpend(month, 900_000, 1, new Date());
      expect((await budget.status())).toMatchObject({ exhausted: true, degradedReserveMicroUsd: 100_000, degradedRemainingMicroUsd: 100_000 });

      const result = await postJson(`${running.url}/api/audit`, { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' });
      expect(result.status).toBe(200);
      const body = AuditResponseSchema.parse(result.body);
      expect(body.degraded).toBe(true);
      expect(body.audit).toMatchObject({ degraded: true, samplesPerQuestion: 1, measured: true });
      expect(body.audit.confidence).not.toBe('high');
      const questions = (body.productFanout as { questions: string[] }).questions;
      const requests = running.service.simulator?.requests() ?? [];
      expect(requests).toHaveLength(questions.length * 3);
      for (const provider of ['openai', 'anthropic', 'gemini']) {
        expect(requests.filter((request) => request.provider === provider)).toHaveLength(questions.length);
      }
      expect(body.providerFindings.map((finding) => finding.provider).sort()).toEqual(['anthropic', 'gemini', 'openai']);
      const afterAudit = (await budget.status());
      expect(afterAudit.reservedMicroUsd).toBe(0);
      expect(afterAudit.spentMicroUsd).toBeGreaterThan(900_000);
      expect(afterAudit.spentMicroUsd).toBeLessThanOrEqual(1_000_000);

      // The quick operations have no reserve: 503 budget, and no provider is asked.
      const repeat = await postJson(`${running.url}/api/tools/repeat`, { question: 'Best CRM?', provider: 'openai' });
      const check = await postJson(`${running.url}/api/check`, { brand: 'Pipedrive', category: 'CRM software' });
      for (const refused of [repeat, check]) {
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({ code: 'budget' });
        expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      }
      expect(running.service.simulator?.requests()).toHaveLength(requests.length);

      // Once the reserve is spent too, an audit still answers, asks nobody and says why.
      store.budgetRepository.addSpend(month, 1_000_000 - afterAudit.spentMicroUsd, 0, new Date());
      const empty = await postJson(`${running.url}/api/audit`, { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' });
      expect(empty.status).toBe(200);
      const emptyBody = AuditResponseSchema.parse(empty.body);
      expect(emptyBody.audit).toMatchObject({ degraded: true, measured: false, risk: 'unknown' });
      expect(emptyBody.audit.notMeasuredReason).toMatch(/reserve for degraded audits, is used up/u);
      expect(running.service.simulator?.requests()).toHaveLength(requests.length);
      expect((await budget.status()).spentMicroUsd).toBe(1_000_000);
    } finally {
      await running.stop();
      await site.close();
    }
  });
});
