import { readFileSync } from 'node:fs';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, type TestService } from '../test-support/service.js';
import { outboxFiles, startSecurityService } from './test-support/harness.js';

// Spoofed forwarding headers must not dodge the per-IP limits. Without TRUST_PROXY the caller is the socket
// address whatever the headers say; with TRUST_PROXY only the configured hops are believed, so a client
// rotating the part of X-Forwarded-For it controls still counts as the address the proxy saw. The probe is
// POST /auth/sign-in (5 an hour per IP; a new address each time, so the per-address limit never decides)
// and POST /api/check (6 an hour per IP).

const SPOOFS: Array<Record<string, string>> = [
  { 'x-forwarded-for': '203.0.113.1' },
  { 'x-forwarded-for': '203.0.113.2, 198.51.100.2' },
  { forwarded: 'for=203.0.113.3;proto=https' },
  { 'x-real-ip': '203.0.113.4' },
  { 'true-client-ip': '203.0.113.5', 'cf-connecting-ip': '203.0.113.5' },
  { 'x-client-ip': '203.0.113.6', 'x-cluster-client-ip': '203.0.113.6', 'fastly-client-ip': '203.0.113.6' },
  { 'x-forwarded-for': '::1' },
  { 'x-forwarded-for': 'unknown' },
];

let unset: TestService;
let oneHop: TestService;
let otherProxy: TestService;
let loopbackProxy: TestService;

beforeAll(async () => {
  [unset, oneHop, otherProxy, loopbackProxy] = await Promise.all([
    startSecurityService({}),
    startSecurityService({ TRUST_PROXY: '1' }),
    startSecurityService({ TRUST_PROXY: '10.0.0.0/8' }),
    startSecurityService({ TRUST_PROXY: 'loopback' }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([unset, oneHop, otherProxy, loopbackProxy].map((service) => service?.stop()));
});

let mailbox = 0;
const signIn = (service: TestService, headers: Record<string, string>) =>
  postJson(`${service.url}/auth/sign-in`, { email: `user${(mailbox += 1)}@acme.example` }, { headers });

/** Statuses of sign-ins sent with each header set in turn. */
async function signInStatuses(service: TestService, headerSets: Array<Record<string, string>>): Promise<number[]> {
  const statuses: number[] = [];
  for (const headers of headerSets) statuses.push((await signIn(service, headers)).status);
  return statuses;
}

describe('TRUST_PROXY unset: forwarding headers are ignored', () => {
  it('limits sign-in to 5 an hour however X-Forwarded-For, Forwarded, X-Real-IP and friends are spoofed', async () => {
    const statuses = await signInStatuses(unset, SPOOFS.slice(0, 7));
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 429]);
    const refused = await signIn(unset, { 'x-forwarded-for': '192.0.2.200' });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });

  it('limits /api/check to 6 an hour per socket address, spoofed headers or not', async () => {
    const statuses: number[] = [];
    for (const headers of SPOOFS) {
      const answer = await postJson(`${unset.url}/api/check`, { brand: 'HubSpot', category: 'CRM software' }, { headers });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });
});

describe('TRUST_PROXY set: only the configured hops are believed', () => {
  it('TRUST_PROXY=1: the entry the proxy appended decides; rotating the spoofable entries to its left changes nothing', async () => {
    const behindProxy = (spoofed: string, client = '203.0.113.77') => ({ 'x-forwarded-for': `${spoofed}, ${client}`, 'x-real-ip': spoofed, forwarded: `for=${spoofed}` });
    const statuses = await signInStatuses(oneHop, ['10.0.0.1', '10.0.0.2', '127.0.0.1', '198.51.100.9', '::1', '203.0.113.1', '8.8.8.8'].map((spoofed) => behindProxy(spoofed)));
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 429]);
    // Another real client behind the same proxy has its own allowance: the hop really is what is counted.
    expect((await signIn(oneHop, behindProxy('10.9.9.9', '203.0.113.78'))).status).toBe(202);
  });

  it('TRUST_PROXY=1: an IPv6 client rotating addresses inside its /64 shares one allowance', async () => {
    const statuses = await signInStatuses(
      oneHop,
      Array.from({ length: 6 }, (_, index) => ({ 'x-forwarded-for': `2001:db8:aaaa:bbbb::${(index + 1).toString(16)}` })),
    );
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    expect((await signIn(oneHop, { 'x-forwarded-for': '2001:db8:aaaa:cccc::1' })).status).toBe(202);
  });

  it('TRUST_PROXY=10.0.0.0/8: a connection from anywhere else is not a trusted proxy, so its X-Forwarded-For is ignored', async () => {
    const statuses = await signInStatuses(
      otherProxy,
      Array.from({ length: 6 }, (_, index) => ({ 'x-forwarded-for': `203.0.113.${index + 1}` })),
    );
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('TRUST_PROXY=loopback: only loopback hops are skipped; the first untrusted address from the right is the caller', async () => {
    const headerSets = ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4', '198.51.100.5', '198.51.100.6'].map((spoofed) => ({
      'x-forwarded-for': `${spoofed}, 203.0.113.90`,
    }));
    expect(await signInStatuses(loopbackProxy, headerSets)).toEqual([202, 202, 202, 202, 202, 429]);
    // Spoofed loopback entries are skipped like the proxy itself, which still leaves the same caller.
    expect((await signIn(loopbackProxy, { 'x-forwarded-for': '198.51.100.7, 203.0.113.90, 127.0.0.1' })).status).toBe(429);
  });

  it('builds the mailed sign-in link from BASE_URL, never from a spoofed Host or X-Forwarded-Host', async () => {
    const before = outboxFiles(oneHop.dataDir).length;
    const answer = await signIn(oneHop, {
      'x-forwarded-for': '203.0.113.150',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
      forwarded: 'host=evil.example;proto=https',
    });
    expect(answer.status).toBe(202);
    const files = outboxFiles(oneHop.dataDir);
    expect(files.length).toBe(before + 1);
    const mail = await simpleParser(readFileSync(files.at(-1) ?? ''));
    expect(mail.text).toMatch(/^http:\/\/visibility\.test\/auth\/callback\?token=[A-Za-z0-9_-]{43}$/m);
    expect(`${mail.text ?? ''}${typeof mail.html === 'string' ? mail.html : ''}`).not.toContain('evil.example');
  });
});
