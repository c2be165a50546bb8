import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { crawlSite, type HostLookup } from '@visibility/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, type TestService } from '../test-support/service.js';
import { startSecurityService, startTripwire, type Tripwire } from './test-support/harness.js';
import { startFakeOpenAi, type FakeProvider } from './test-support/hostile.js';

type ResolvedAddress = Awaited<ReturnType<HostLookup>>[number];

// SSRF end to end through POST /api/audit: a website that is, resolves to, or redirects to a private address.
// The audit still answers (400 invalid_website when the address is visible up front; otherwise 200 with the
// crawl degraded), and the tripwire (an "internal service" on [::], dual stack) sees no connection. DNS is
// scripted through the crawl seam of startService, so no real resolver is involved.

const API_ERROR = { error: expect.any(String), code: 'invalid_website', hint: expect.any(String), docs: 'http://visibility.test/developers' };

let tripwire: Tripwire;
let redirector: { origin: string; close: () => Promise<void> };
let redirectorHits = 0;
let running: TestService;
let provider: FakeProvider;
const lookups: string[] = [];
const served = new Map<string, number>();

/** Scripted DNS: a list of answers per name, served one per call (the last one repeating). */
const DNS: Record<string, ResolvedAddress[][]> = {
  'internal.brand-a.com': [[{ address: '127.0.0.1', family: 4 }]],
  'rebind.brand-b.com': [[{ address: '93.184.216.34', family: 4 }], [{ address: '127.0.0.1', family: 4 }]],
  'multi.brand-c.com': [[{ address: '93.184.216.34', family: 4 }, { address: '::1', family: 6 }]],
  'metadata.brand-d.com': [[{ address: '169.254.169.254', family: 4 }]],
};

const scriptedLookup: HostLookup = async (hostname) => {
  lookups.push(hostname);
  const answers = DNS[hostname];
  if (answers === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  const index = served.get(hostname) ?? 0;
  served.set(hostname, index + 1);
  return answers[Math.min(index, answers.length - 1)] ?? [];
};

beforeAll(async () => {
  tripwire = await startTripwire();
  provider = await startFakeOpenAi('1. **HubSpot** — popular.\n2. **Salesforce** — enterprise.');
  // The brand's "public" site (reached through CRAWL_HOST_MAP) redirects every page into loopback.
  const server = http.createServer((request, response) => {
    const target = request.url === '/' ? `http://127.0.0.1:${tripwire.port}/latest/meta-data/` : `http://[::ffff:7f00:1]:${tripwire.port}${request.url ?? '/'}`;
    redirectorHits += 1;
    response.writeHead(302, { location: target });
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  redirector = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  running = await startSecurityService(
    {
      CRAWL_HOST_MAP: `redirects.brand-e.com=${redirector.origin}`,
      TRUST_PROXY: 'loopback',
      // One fast local provider keeps five concurrent audits within a couple of seconds.
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: provider.baseUrl,
      PROVIDER_CONCURRENCY: '16',
    },
    { crawl: (website, options) => crawlSite(website, { ...options, lookup: scriptedLookup, fetchTimeoutMs: 3_000 }) },
  );
}, 60_000);

afterAll(async () => {
  await running?.stop();
  await redirector?.close();
  await tripwire?.close();
  await provider?.close();
});

let caller = 0;
const audit = (website: string) =>
  postJson(
    `${running.url}/api/audit`,
    { brand: 'Acme', website, category: 'CRM software' },
    { headers: { 'x-forwarded-for': `198.51.100.${(caller += 1)}` } },
  );

describe('POST /api/audit with a website that is a private address', () => {
  it.each([
    ['loopback with the tripwire port', 'http://127.0.0.1:{P}/'],
    ['IPv4-mapped IPv6 loopback', 'http://[::ffff:7f00:1]:{P}/'],
    ['decimal dword loopback', 'http://2130706433:{P}/'],
    ['localhost with a port (bare)', 'localhost:{P}'],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['credentials hiding loopback', 'http://brand.com@127.0.0.1:{P}/'],
    ['a gopher: URL', 'gopher://127.0.0.1:{P}/_INFO'],
  ])('answers 400 invalid_website for %s, connecting nowhere', async (_label, template) => {
    const before = tripwire.connections();
    const result = await audit(template.replaceAll('{P}', String(tripwire.port)));
    expect(result.status).toBe(400);
    expect(result.body).toEqual(API_ERROR);
    expect(result.headers.get('x-ratelimit-remaining')).toBeNull();
    expect(tripwire.connections()).toBe(before);
  });
});

describe('POST /api/audit with a website whose address only turns out private later', () => {
  it('still answers 200 for names resolving privately, rebinding, mixed answers and redirects into loopback, with no connection made', async () => {
    const before = tripwire.connections();
    const cases = [
      { website: `http://internal.brand-a.com:${tripwire.port}/`, code: 'blocked_address' },
      { website: `http://rebind.brand-b.com:${tripwire.port}/`, code: 'blocked_address' },
      { website: `http://multi.brand-c.com:${tripwire.port}/`, code: 'blocked_address' },
      { website: 'metadata.brand-d.com', code: 'blocked_address' },
      { website: 'http://redirects.brand-e.com/', code: 'blocked_host' },
    ];
    // All at once: the guard has no shared state a concurrent audit could disturb.
    const results = await Promise.all(cases.map((entry) => audit(entry.website)));
    for (const [index, result] of results.entries()) {
      const entry = cases[index];
      expect(result.status, entry?.website).toBe(200);
      expect(result.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(result.body.audit.website).toBeDefined();
      // The crawl degraded into a next step that says why, and the audit still measured the providers.
      const unreachable = (result.body.personalizedNextSteps as Array<{ id: string; why: string }>).find((step) => step.id === 'site-unreachable');
      expect(unreachable, entry?.website).toBeDefined();
      expect(unreachable?.why).toMatch(entry?.code === 'blocked_host' ? /redirect refused/ : /non-public address/);
      expect(result.body.providerFindings.length).toBeGreaterThan(0);
    }
    // Each name was resolved through the injected resolver (the rebinding one more than once).
    expect(lookups.filter((name) => name === 'rebind.brand-b.com').length).toBeGreaterThanOrEqual(2);
    // The redirecting site itself was reached (through the map); its Location never was.
    expect(redirectorHits).toBeGreaterThan(0);
    expect(new Set(lookups)).toEqual(new Set(['internal.brand-a.com', 'rebind.brand-b.com', 'multi.brand-c.com', 'metadata.brand-d.com']));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tripwire.connections()).toBe(before);
  });
});
