// One counter per caller and operation, whatever the door (REST, the site's forms, MCP), and every refusal
// says the limit, its window and when it resets, with Retry-After.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, textOf } from '../resilience/support.js';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from '../test-support/fixture-site.js';
import { postJson, startTestService, type TestService } from '../test-support/service.js';

const LIMIT_TEXT = /You have reached the limit for (quick checks|audits): 6 per hour per caller\. It resets at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\./u;

describe('limits across doors', () => {
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

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const siteCheck = (caller: string) =>
    fetch(`${running.url}/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': caller, origin: 'http://visibility.test' },
      body: form({ brand: 'HubSpot', category: 'CRM software' }),
    });
  const restCheck = (caller: string) => postJson(`${running.url}/api/check`, { brand: 'HubSpot', category: 'CRM software' }, { headers: { 'X-Forwarded-For': caller } });

  it('REST door: the site form\'s quick checks count against the same counter, and the 429 says limit, window and reset', async () => {
    const caller = '203.0.113.71';
    for (let call = 0; call < 6; call += 1) expect((await siteCheck(caller)).status).toBe(200);
    const refused = await restCheck(caller);
    expect(refused.status).toBe(429);
    const body = refused.body as { code: string; error: string; hint: string };
    expect(body.code).toBe('rate_limited');
    const match = LIMIT_TEXT.exec(body.error);
    expect(match, body.error).not.toBeNull();
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(body.hint).toBe(`Wait ${retryAfter} seconds (until ${match?.[2]}) and try again.`);
  });

  it('site door: REST quick checks count against the form\'s counter, and the page says limit, window and reset with Retry-After', async () => {
    const caller = '203.0.113.72';
    for (let call = 0; call < 6; call += 1) expect((await restCheck(caller)).status).toBe(200);
    const refused = await siteCheck(caller);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const page = await refused.text();
    expect(page).toMatch(LIMIT_TEXT);
    expect(page).toMatch(/Wait \d+ seconds \(until \d{4}-/u);
  });

  it('MCP door: an audit started over REST counts against start_visibility_check, whose refusal says the same', async () => {
    const caller = '203.0.113.73';
    const audit = await postJson(`${running.url}/api/audit`, { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' }, { headers: { 'X-Forwarded-For': caller } });
    expect(audit.status).toBe(200);
    expect(audit.headers.get('x-ratelimit-remaining')).toBe('5');
    // Four more audits by the same caller (through the same limiter REST and the site use), then MCP.
    for (let call = 0; call < 5; call += 1) expect((await running.service.rateLimiter.consume('startVisibilityAudit', caller)).allowed).toBe(true);
    const client = await connectMcp(`${running.url}/mcp`, { 'X-Forwarded-For': caller });
    try {
      const result = (await client.callTool({
        name: 'start_visibility_check',
        arguments: { brand: 'Acme', website: 'acme-other.test', category: 'CRM software' },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toMatch(/^rate_limited: /u);
      expect(text).toMatch(LIMIT_TEXT);
      expect(text).toMatch(/Wait \d+ seconds \(until /u);
    } finally {
      await client.close();
    }
    // And REST refuses that caller too, with the same words.
    const refused = await postJson(`${running.url}/api/audit`, { brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software' }, { headers: { 'X-Forwarded-For': caller } });
    expect(refused.status).toBe(429);
    expect((refused.body as { error: string }).error).toMatch(LIMIT_TEXT);
  });
});
