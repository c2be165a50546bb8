import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { crawlSite } from './crawl-site.js';
import { normalizeWebsite } from './normalize-website.js';
import { safeFetch, SafeFetchError } from './safe-fetch.js';
import { scriptedLookup, startFixtureServer, startTripwire, v4, v6, type FixtureServer, type ScriptedLookup } from './test-support/fixture-server.js';

// Every case here must end with nothing fetched from anywhere private: the tripwire server (the stand-in for
// an internal service, on 127.0.0.1) sees no connection, and for refusals made before any DNS the injected
// resolver is never called either.

let tripwire: FixtureServer;
let redirector: FixtureServer;
const redirects = new Map<string, string>();

beforeAll(async () => {
  tripwire = await startTripwire();
  // The "public" site, reached through the host map, that redirects wherever the test says.
  redirector = await startFixtureServer((request, response) => {
    const path = request.url ?? '/';
    const loop = /^\/loop\/(\d+)$/.exec(path);
    const location = loop !== null ? `/loop/${Number(loop[1]) + 1}` : redirects.get(path);
    if (location === undefined) {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><title>fine</title></html>');
      return;
    }
    response.writeHead(302, { location });
    response.end();
  });
});

afterAll(async () => {
  await tripwire.close();
  await redirector.close();
});

beforeEach(() => {
  tripwire.requests.length = 0;
  redirector.requests.length = 0;
});

const hostMap = (): Map<string, string> => new Map([['acme.example', redirector.origin]]);

/** A resolver with no answers that records every call: the refusals below must never reach it. */
function spyLookup(): ScriptedLookup {
  return scriptedLookup({});
}

async function expectNothingFetched(tripwireConnectionsBefore: number): Promise<void> {
  // Give a leaked connection time to land before counting.
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(tripwire.connections()).toBe(tripwireConnectionsBefore);
  expect(tripwire.requests).toHaveLength(0);
}

describe('refused before any DNS or connection', () => {
  // `P` is replaced by the tripwire's port, so a leak through the guard would hit the tripwire.
  const cases: [string, string][] = [
    ['loopback', 'http://127.0.0.1:P/'],
    ['loopback elsewhere in 127/8', 'http://127.0.0.2:P/'],
    ['localhost', 'http://localhost:P/'],
    ['LOCALHOST upper case', 'http://LOCALHOST:P/'],
    ['localhost with a trailing dot', 'http://localhost.:P/'],
    ['a *.localhost name', 'http://app.localhost:P/'],
    ['bare localhost with a port (no scheme)', 'localhost:P'],
    ['dword decimal spelling', 'http://2130706433:P/'],
    ['dword hex spelling', 'http://0x7f000001:P/'],
    ['hex shorthand', 'http://0x7f.1:P/'],
    ['octal spelling', 'http://0177.0.0.1:P/'],
    ['octal dword', 'http://017700000001:P/'],
    ['two-part shorthand', 'http://127.1:P/'],
    ['percent-encoded loopback', 'http://%31%32%37.0.0.1:P/'],
    ['full-width digits', 'http://１２７.０.０.１:P/'],
    ['backslashes instead of slashes', 'http:\\\\127.0.0.1:P\\'],
    ['IPv6 loopback', 'http://[::1]:P/'],
    ['IPv4-mapped loopback (dotted)', 'http://[::ffff:127.0.0.1]:P/'],
    ['IPv4-mapped loopback (hex)', 'http://[::ffff:7f00:1]:P/'],
    ['IPv4-mapped private', 'http://[::ffff:10.0.0.1]/'],
    ['IPv4-mapped metadata', 'http://[::ffff:169.254.169.254]/'],
    ['deprecated IPv4-compatible IPv6', 'http://[::127.0.0.1]/'],
    ['NAT64 of loopback', 'http://[64:ff9b::7f00:1]/'],
    ['IPv6 unique-local fc00::/7', 'http://[fc00::1]/'],
    ['IPv6 unique-local fd..', 'http://[fd12:3456::1]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv6 unspecified', 'http://[::]/'],
    ['IPv6 multicast', 'http://[ff02::1]/'],
    ['IPv6 documentation', 'http://[2001:db8::1]/'],
    ['private 10/8', 'http://10.0.0.1/'],
    ['private 172.16/12', 'http://172.16.5.4/'],
    ['private 192.168/16', 'http://192.168.1.1/'],
    ['cloud metadata (link-local)', 'http://169.254.169.254/latest/meta-data/'],
    ['CGNAT 100.64/10', 'http://100.64.0.1/'],
    ['multicast', 'http://224.0.0.1/'],
    ['unspecified 0.0.0.0', 'http://0.0.0.0:P/'],
    ['unspecified as "0"', 'http://0:P/'],
    ['broadcast', 'http://255.255.255.255/'],
    ['documentation range', 'http://192.0.2.10/'],
    ['benchmark range', 'http://198.18.0.1/'],
    ['reserved 240/4', 'http://240.0.0.1/'],
    ['credentials user:pass@', 'http://user:pass@acme.example/'],
    ['credentials user@', 'https://admin@acme.example/'],
    ['credentials hiding loopback', 'http://acme.example@127.0.0.1:P/'],
    ['file scheme', 'file:///etc/passwd'],
    ['ftp scheme', 'ftp://example.com/'],
    ['gopher scheme', 'gopher://example.com:70/_GET'],
    ['data scheme', 'data:text/html,<h1>hi</h1>'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['single-label host', 'http://intranet/'],
    ['.internal name', 'http://metadata.google.internal/computeMetadata/v1/'],
    ['.local name', 'http://printer.local/'],
    ['.lan name', 'http://router.lan/'],
    ['home.arpa name', 'http://nas.home.arpa/'],
  ];

  it.each(cases)('%s: %s', async (_label, template) => {
    const website = template.replaceAll(':P', `:${tripwire.port}`);
    const before = tripwire.connections();
    const dns = spyLookup();
    expect(normalizeWebsite(website, { hostMap: hostMap() }).ok).toBe(false);
    const report = await crawlSite(website, { hostMap: hostMap(), lookup: dns.lookup });
    expect(report.ok).toBe(false);
    expect(report.failureCode).toBe('blocked_host');
    expect(report.fetches).toBe(0);
    expect(dns.calls).toEqual([]);
    await expectNothingFetched(before);
  });

  it('refuses the same URLs when fetched directly, never reaching the resolver', async () => {
    const dns = spyLookup();
    const before = tripwire.connections();
    for (const url of [`http://127.0.0.1:${tripwire.port}/`, `http://2130706433:${tripwire.port}/`, 'http://169.254.169.254/', 'file:///etc/passwd']) {
      await expect(safeFetch(url, { lookup: dns.lookup })).rejects.toBeInstanceOf(SafeFetchError);
    }
    expect(dns.calls).toEqual([]);
    await expectNothingFetched(before);
  });
});

describe('refused by what the name resolves to', () => {
  const cases: [string, string, ReturnType<typeof v4>[]][] = [
    ['a name resolving to loopback', 'evil.example', [v4('127.0.0.1')]],
    ['a name resolving to cloud metadata', 'metadata.example', [v4('169.254.169.254')]],
    ['a name resolving to 10.0.0.1', 'ten.example', [v4('10.0.0.1')]],
    ['a name resolving to CGNAT', 'cgnat.example', [v4('100.64.1.1')]],
    ['a name with several addresses, one private', 'multi.example', [v4('93.184.216.34'), v4('8.8.8.8'), v4('192.168.0.10')]],
    ['a name resolving to IPv6 loopback', 'six.example', [v6('::1')]],
    ['a name resolving to an IPv4-mapped loopback', 'mapped.example', [v6('::ffff:127.0.0.1')]],
    ['a name resolving to IPv6 unique-local', 'ula.example', [v6('fd00::5')]],
  ];

  it.each(cases)('%s', async (_label, host, answer) => {
    const dns = scriptedLookup({ [host]: answer });
    const before = tripwire.connections();
    const report = await crawlSite(`http://${host}:${tripwire.port}/`, { lookup: dns.lookup });
    expect(report.ok).toBe(false);
    expect(report.failureCode).toBe('blocked_address');
    expect(report.fetches).toBe(0);
    expect(dns.calls).toEqual([host]);
    await expectNothingFetched(before);
  });

  it('checks at connect time too: a direct fetch of a name resolving to loopback never connects', async () => {
    const dns = scriptedLookup({ 'evil.example': [v4('127.0.0.1')] });
    const before = tripwire.connections();
    const failure = await safeFetch(`http://evil.example:${tripwire.port}/`, { lookup: dns.lookup }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SafeFetchError);
    expect((failure as SafeFetchError).code).toBe('blocked_address');
    expect(dns.calls).toEqual(['evil.example']);
    await expectNothingFetched(before);
  });

  it('DNS rebinding: public when first asked, loopback at connect time, is refused at connect time', async () => {
    const dns = scriptedLookup({ 'rebind.example': [[v4('93.184.216.34')], [v4('127.0.0.1')]] });
    const before = tripwire.connections();
    const report = await crawlSite(`http://rebind.example:${tripwire.port}/`, { lookup: dns.lookup });
    expect(report.ok).toBe(false);
    expect(report.failureCode).toBe('blocked_address');
    // The early check saw the public answer; the connection's own lookup saw loopback and refused.
    expect(dns.calls.length).toBeGreaterThanOrEqual(2);
    expect(report.reason).toContain('127.0.0.1');
    await expectNothingFetched(before);
  });
});

describe('refused at a redirect hop', () => {
  it('a redirect into loopback is not followed', async () => {
    redirects.set('/', `http://127.0.0.1:${tripwire.port}/`);
    const before = tripwire.connections();
    const dns = spyLookup();
    const report = await crawlSite('http://acme.example/', { hostMap: hostMap(), lookup: dns.lookup });
    expect(report.ok).toBe(false);
    expect(report.failureCode).toBe('blocked_host');
    expect(report.reason).toContain('redirect refused');
    // The public site itself was reached (through the map); the redirect target never was.
    expect(redirector.requests.filter((request) => request.path === '/').length).toBeGreaterThan(0);
    await expectNothingFetched(before);
  });

  it('a redirect chain ending in localhost is stopped at the bad hop', async () => {
    redirects.set('/a', '/b');
    redirects.set('/b', `http://localhost:${tripwire.port}/admin`);
    const before = tripwire.connections();
    const failure = await safeFetch('http://acme.example/a', { hostMap: hostMap() }).catch((error: unknown) => error);
    expect((failure as SafeFetchError).code).toBe('blocked_host');
    expect(redirector.requests.map((request) => request.path)).toEqual(['/a', '/b']);
    await expectNothingFetched(before);
  });

  it('a redirect to a name that resolves to a private address is refused at connect time', async () => {
    redirects.set('/go', `http://internal-api.example:${tripwire.port}/`);
    const dns = scriptedLookup({ 'internal-api.example': [v4('127.0.0.1')] });
    const before = tripwire.connections();
    const failure = await safeFetch('http://acme.example/go', { hostMap: hostMap(), lookup: dns.lookup }).catch((error: unknown) => error);
    expect((failure as SafeFetchError).code).toBe('blocked_address');
    expect(dns.calls).toEqual(['internal-api.example']);
    await expectNothingFetched(before);
  });

  it('a redirect to an IPv4-mapped IPv6 loopback is refused', async () => {
    redirects.set('/v6', `http://[::ffff:7f00:1]:${tripwire.port}/`);
    const before = tripwire.connections();
    const failure = await safeFetch('http://acme.example/v6', { hostMap: hostMap() }).catch((error: unknown) => error);
    expect((failure as SafeFetchError).code).toBe('blocked_host');
    await expectNothingFetched(before);
  });

  it('a redirect to a file: URL is refused', async () => {
    redirects.set('/file', 'file:///etc/passwd');
    const failure = await safeFetch('http://acme.example/file', { hostMap: hostMap() }).catch((error: unknown) => error);
    expect((failure as SafeFetchError).code).toBe('blocked_host');
    expect((failure as SafeFetchError).message).toContain('file');
  });

  it('a redirect that adds credentials, even to the mapped host, is refused', async () => {
    redirects.set('/creds', 'http://user:secret@acme.example/next');
    const failure = await safeFetch('http://acme.example/creds', { hostMap: hostMap() }).catch((error: unknown) => error);
    expect((failure as SafeFetchError).code).toBe('blocked_host');
    expect(redirector.requests.map((request) => request.path)).toEqual(['/creds']);
  });

  it('more than five redirects are not followed', async () => {
    const failure = await safeFetch('http://acme.example/loop/0', { hostMap: hostMap() }).catch((error: unknown) => error);
    expect((failure as SafeFetchError).code).toBe('too_many_redirects');
    // The first request plus five followed hops; the sixth Location is never fetched.
    expect(redirector.requests.map((request) => request.path)).toEqual(['/loop/0', '/loop/1', '/loop/2', '/loop/3', '/loop/4', '/loop/5']);
  });
});
