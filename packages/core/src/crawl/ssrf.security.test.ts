import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGuardedLookup } from './connect-guard.js';
import { crawlSite } from './crawl-site.js';
import { normalizeWebsite } from './normalize-website.js';
import type { ResolvedAddress } from './public-host.js';
import { safeFetch, SafeFetchError, type SafeFetchErrorCode } from './safe-fetch.js';
import { scriptedLookup, startFixtureServer, v4, v6, type FixtureServer } from './test-support/fixture-server.js';

// SSRF security suite (issue 8, part 4). It complements hostile-urls.test.ts: every case ends with nothing
// fetched from anywhere private. The tripwire listens on [::] (dual stack), so a leak to 127.0.0.1, 127.x,
// ::1, ::ffff:127.0.0.1 or 0.0.0.0 on its port lands there and is counted: blocked cases need ZERO
// connections. Addresses that cannot be tripwired (10/8, 169.254.169.254, …) must fail with the guard's own
// code (blocked_host / blocked_address), never with a network error or a timeout, which proves no
// connection was attempted. DNS is scripted (no real resolver), and no test connects to a public address.

type Tripwire = { port: number; connections: () => number; requests: string[]; close: () => Promise<void> };

async function startDualStackTripwire(): Promise<Tripwire> {
  let connections = 0;
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(`${request.headers.host ?? ''} ${request.url ?? ''}`);
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html><title>internal</title><body>instance secret</body></html>');
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '::', ipv6Only: false }, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let tripwire: Tripwire;
/** The "public" site (reached through the host map as acme.example and cdn.acme.example). */
let site: FixtureServer;
/** Per-path behaviour of the public site: a redirect Location, or a page. */
const routes = new Map<string, { location: string; status?: number } | { body: string; type?: string }>();

beforeAll(async () => {
  tripwire = await startDualStackTripwire();
  site = await startFixtureServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const route = routes.get(`${request.headers.host ?? ''}${path}`) ?? routes.get(path);
    if (route === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    if ('location' in route) {
      response.writeHead(route.status ?? 302, { location: route.location });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': route.type ?? 'text/html; charset=utf-8' });
    response.end(route.body);
  });
});

afterAll(async () => {
  await tripwire.close();
  await site.close();
});

beforeEach(() => {
  routes.clear();
  site.requests.length = 0;
});

const hostMap = (): Map<string, string> =>
  new Map([
    ['acme.example', site.origin],
    ['cdn.acme.example', site.origin],
  ]);

/** `P` in a template is the tripwire's port. */
const withPort = (template: string): string => template.replaceAll('{P}', String(tripwire.port));

async function expectTripwireUntouched(before: number): Promise<void> {
  // A leaked connection gets a moment to land before counting.
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(tripwire.connections()).toBe(before);
  expect(tripwire.requests).toEqual([]);
}

async function fetchFailure(url: string, options: Parameters<typeof safeFetch>[1]): Promise<SafeFetchError> {
  const outcome = await safeFetch(url, { timeoutMs: 3_000, ...options }).then(
    (response) => new Error(`fetched ${response.url} (${response.status}) instead of refusing`),
    (error: unknown) => error,
  );
  if (!(outcome instanceof SafeFetchError)) throw outcome instanceof Error ? outcome : new Error(String(outcome));
  return outcome;
}

// ---------------------------------------------------------------------------------------------------------
// 1. Redirects from a public site to private targets. Each is followed by hand and re-checked at the hop.
// ---------------------------------------------------------------------------------------------------------

const REDIRECT_CASES: Array<[label: string, status: number, location: string]> = [
  ['302 → http://127.0.0.1', 302, 'http://127.0.0.1:{P}/'],
  ['301 → cloud metadata 169.254.169.254', 301, 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'],
  ['307 → http://[::1]', 307, 'http://[::1]:{P}/'],
  ['308 → http://0x7f000001 (hex dword)', 308, 'http://0x7f000001:{P}/'],
  ['303 → http://localhost:port', 303, 'http://localhost:{P}/admin'],
  ['302 → decimal dword 2130706433', 302, 'http://2130706433:{P}/'],
  ['302 → octal 0177.0.0.1', 302, 'http://0177.0.0.1:{P}/'],
  ['302 → shorthand 127.1', 302, 'http://127.1:{P}/'],
  ['302 → protocol-relative //127.0.0.1', 302, '//127.0.0.1:{P}/'],
  ['302 → backslashes \\\\127.0.0.1', 302, '\\\\127.0.0.1:{P}\\'],
  ['302 → http:\\\\127.0.0.1 (scheme plus backslashes)', 302, 'http:\\\\127.0.0.1:{P}/'],
  ['302 → IPv4-mapped [::ffff:127.0.0.1]', 302, 'http://[::ffff:127.0.0.1]:{P}/'],
  ['302 → [0:0:0:0:0:0:0:1] long-form loopback', 302, 'http://[0:0:0:0:0:0:0:1]:{P}/'],
  ['302 → [::] unspecified (connects locally on Linux)', 302, 'http://[::]:{P}/'],
  ['302 → 0.0.0.0', 302, 'http://0.0.0.0:{P}/'],
  ['302 → percent-encoded circled digits ①②⑦.⓪.⓪.①', 302, 'http://%E2%91%A0%E2%91%A1%E2%91%A6.%E2%93%AA.%E2%93%AA.%E2%91%A0:{P}/'],
  ['302 → ideographic full stops 127。0。0。1', 302, 'http://127%E3%80%820%E3%80%820%E3%80%821:{P}/'],
  ['302 → localhost. with a trailing dot', 302, 'http://localhost.:{P}/'],
  ['302 → metadata.google.internal. with a trailing dot', 302, 'http://metadata.google.internal./computeMetadata/v1/'],
  ['302 → credentials hiding loopback (acme.example@127.0.0.1)', 302, 'http://acme.example@127.0.0.1:{P}/'],
  ['302 → fragment trick 127.0.0.1#@acme.example', 302, 'http://127.0.0.1:{P}#@acme.example/'],
  ['302 → file:///etc/passwd', 302, 'file:///etc/passwd'],
  ['302 → gopher: smuggling to loopback', 302, 'gopher://127.0.0.1:{P}/_GET%20/%20HTTP/1.0%0d%0a'],
  ['302 → ftp:', 302, 'ftp://127.0.0.1:{P}/'],
  ['302 → dict:', 302, 'dict://127.0.0.1:{P}/info'],
  ['302 → data: HTML', 302, 'data:text/html,<script>alert(1)</script>'],
  ['302 → javascript:', 302, 'javascript:alert(document.domain)'],
  ['302 → ws: to loopback', 302, 'ws://127.0.0.1:{P}/'],
  ['302 → CGNAT 100.64.0.1', 302, 'http://100.64.0.1/'],
  ['302 → benchmark 198.18.0.1', 302, 'http://198.18.0.1/'],
  ['302 → NAT64 [64:ff9b::7f00:1]', 302, 'http://[64:ff9b::7f00:1]:{P}/'],
  ['302 → 6to4 [2002:7f00:1::]', 302, 'http://[2002:7f00:1::]:{P}/'],
];

// ---------------------------------------------------------------------------------------------------------
// 2. Multi-hop chains: public hops (through the host map) that end somewhere private.
// ---------------------------------------------------------------------------------------------------------

const CHAIN_CASES: Array<[label: string, hops: Array<[path: string, location: string]>, start: string, publicHops: number]> = [
  [
    'three public hops across two mapped hosts, then 127.0.0.1',
    [
      ['/c1/a', 'http://cdn.acme.example/c1/b'],
      ['/c1/b', '/c1/c'],
      ['/c1/c', 'http://127.0.0.1:{P}/internal'],
    ],
    'http://acme.example/c1/a',
    3,
  ],
  [
    'four public hops, then cloud metadata',
    [
      ['/c2/a', '/c2/b'],
      ['/c2/b', 'http://cdn.acme.example/c2/c'],
      ['/c2/c', 'http://acme.example/c2/d'],
      ['/c2/d', 'http://169.254.169.254/latest/meta-data/'],
    ],
    'http://acme.example/c2/a',
    4,
  ],
  [
    'two public hops, then [::1]',
    [
      ['/c3/a', 'https://cdn.acme.example/c3/b'],
      ['/c3/b', 'http://[::1]:{P}/'],
    ],
    'http://acme.example/c3/a',
    2,
  ],
  [
    'two public hops, then file:',
    [
      ['/c4/a', '/c4/b'],
      ['/c4/b', 'file:///proc/self/environ'],
    ],
    'http://acme.example/c4/a',
    2,
  ],
  [
    'five public hops, the sixth (private) is never requested: too_many_redirects',
    [
      ['/c5/1', '/c5/2'],
      ['/c5/2', '/c5/3'],
      ['/c5/3', '/c5/4'],
      ['/c5/4', '/c5/5'],
      ['/c5/5', '/c5/6'],
      ['/c5/6', 'http://127.0.0.1:{P}/'],
    ],
    'http://acme.example/c5/1',
    6,
  ],
];

// ---------------------------------------------------------------------------------------------------------
// 3. Literal hosts typed as the website: refused before any DNS or connection.
// ---------------------------------------------------------------------------------------------------------

const LITERAL_CASES: Array<[label: string, website: string]> = [
  ['IPv6 loopback long form [0:0:0:0:0:0:0:1]', 'http://[0:0:0:0:0:0:0:1]:{P}/'],
  ['IPv4-mapped loopback ::ffff:127.0.0.1', 'http://[::ffff:127.0.0.1]:{P}/'],
  ['IPv4-mapped loopback in hex ::ffff:7f00:1', 'http://[::ffff:7f00:1]:{P}/'],
  ['IPv4-mapped metadata in hex ::ffff:a9fe:a9fe', 'http://[::ffff:a9fe:a9fe]/'],
  ['IPv4-compatible (deprecated) ::a9fe:a9fe', 'http://[::a9fe:a9fe]/'],
  ['IPv4-translated ::ffff:0:7f00:1 (RFC 6145)', 'http://[::ffff:0:7f00:1]:{P}/'],
  ['link-local fe80::', 'http://[fe80::]/'],
  ['unique-local fc00::', 'http://[fc00::]/'],
  ['AWS IMDS IPv6 fd00:ec2::254', 'http://[fd00:ec2::254]/latest/meta-data/'],
  ['NAT64 64:ff9b::7f00:1', 'http://[64:ff9b::7f00:1]:{P}/'],
  ['NAT64 of metadata 64:ff9b::a9fe:a9fe', 'http://[64:ff9b::a9fe:a9fe]/'],
  ['local-use NAT64 64:ff9b:1::7f00:1', 'http://[64:ff9b:1::7f00:1]:{P}/'],
  ['6to4 2002:7f00:1::', 'http://[2002:7f00:1::]:{P}/'],
  ['Teredo 2001:0::', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'],
  ['discard-only 100::1', 'http://[100::1]/'],
  ['decimal dword 2130706433', 'http://2130706433:{P}/'],
  ['octal 0177.0.0.1', 'http://0177.0.0.1:{P}/'],
  ['hex shorthand 0x7f.1', 'http://0x7f.1:{P}/'],
  ['shorthand 127.1', 'http://127.1:{P}/'],
  ['octal dword 017700000001', 'http://017700000001:{P}/'],
  ['zero-padded 127.000.000.001', 'http://127.000.000.001:{P}/'],
  ['hex per octet 0x7F.0x00.0x00.0x01', 'http://0x7F.0x00.0x00.0x01:{P}/'],
  ['trailing dot 127.0.0.1.', 'http://127.0.0.1.:{P}/'],
  ['hex dword with a trailing dot', 'https://0x7f000001./'],
  ['unspecified 0.0.0.0', 'http://0.0.0.0:{P}/'],
  ['CGNAT lower bound 100.64.0.0', 'http://100.64.0.0/'],
  ['CGNAT upper bound 100.127.255.255', 'http://100.127.255.255/'],
  ['benchmark 198.18.0.0/15 lower bound', 'http://198.18.0.0/'],
  ['benchmark 198.18.0.0/15 upper bound 198.19.255.255', 'http://198.19.255.255/'],
  ['multicast 224.0.0.1', 'http://224.0.0.1/'],
  ['broadcast 255.255.255.255', 'http://255.255.255.255/'],
  ['broadcast as dword 4294967295', 'http://4294967295/'],
  ['IETF protocol assignments 192.0.0.170', 'http://192.0.0.170/'],
  ['6to4 relay anycast 192.88.99.1', 'http://192.88.99.1/'],
  ['circled digits ①②⑦.⓪.⓪.①', 'http://①②⑦.⓪.⓪.①:{P}/'],
  ['ideographic full stops 127。0。0。1', 'http://127。0。0。1:{P}/'],
  ['credentials user:pass@ on a public name', 'http://user:pass@example.com/'],
  ['credentials with an empty password user:@', 'http://user:@example.com/'],
  ['credentials port-like 127.0.0.1:80@ hiding a host', 'http://127.0.0.1:80@example.com/'],
  ['trailing-dot internal name metadata.google.internal.', 'http://metadata.google.internal./'],
  ['trailing-dot *.localhost name', 'http://api.localhost.:{P}/'],
  ['very long host name (over 253 characters)', `http://${Array.from({ length: 70 }, () => 'abc').join('.')}.com/`],
  ['a label over 63 characters', `http://${'a'.repeat(64)}.example.com/`],
  ['ws: scheme', 'ws://example.com/'],
  ['wss: scheme', 'wss://example.com/'],
  ['ldap: scheme', 'ldap://127.0.0.1:{P}/'],
  ['dict: scheme', 'dict://127.0.0.1:{P}/'],
  ['sftp: scheme', 'sftp://example.com/'],
  ['blob: scheme', 'blob:http://example.com/uuid'],
  ['view-source: scheme', 'view-source:http://127.0.0.1:{P}/'],
];

// ---------------------------------------------------------------------------------------------------------
// 4. Names whose DNS answer is (or becomes) private: refused at connect time, every address checked.
// ---------------------------------------------------------------------------------------------------------

const P_LOOPBACK = v4('127.0.0.1');
const PUBLIC_A = v4('93.184.216.34');
const PUBLIC_B = v4('8.8.8.8');
const PUBLIC_V6 = v6('2606:4700:4700::1111');

const DNS_CASES: Array<[label: string, host: string, answers: ResolvedAddress[][]]> = [
  ['rebinding: public at the early check, 127.0.0.1 at connect', 'rebind-a.example', [[PUBLIC_A], [P_LOOPBACK]]],
  ['rebinding: public, then [::1]', 'rebind-b.example', [[PUBLIC_A], [v6('::1')]]],
  ['rebinding: public, then ::ffff:127.0.0.1', 'rebind-c.example', [[PUBLIC_A], [v6('::ffff:127.0.0.1')]]],
  ['rebinding: public, then 0.0.0.0', 'rebind-d.example', [[PUBLIC_A], [v4('0.0.0.0')]]],
  ['rebinding: public, then cloud metadata', 'rebind-e.example', [[PUBLIC_A], [v4('169.254.169.254')]]],
  ['rebinding: public, then public plus one private among them', 'rebind-f.example', [[PUBLIC_A], [PUBLIC_A, PUBLIC_B, P_LOOPBACK]]],
  ['several addresses, the private one first', 'multi-a.example', [[P_LOOPBACK, PUBLIC_A]]],
  ['several addresses, the private one last', 'multi-b.example', [[PUBLIC_A, PUBLIC_B, v4('127.0.0.2')]]],
  ['public IPv4 plus IPv6 loopback', 'multi-c.example', [[PUBLIC_A, v6('::1')]]],
  ['public IPv6 plus unique-local IPv6', 'multi-d.example', [[PUBLIC_V6, v6('fc00::1')]]],
  ['resolves to 0.0.0.0', 'zero.example', [[v4('0.0.0.0')]]],
  ['resolves to 127.53.0.1 (elsewhere in 127/8)', 'lo53.example', [[v4('127.53.0.1')]]],
  ['resolves to CGNAT 100.127.255.254', 'cgnat2.example', [[v4('100.127.255.254')]]],
  ['resolves to benchmark 198.18.0.1', 'bench.example', [[v4('198.18.0.1')]]],
  ['resolves to multicast 224.0.0.1', 'mcast.example', [[v4('224.0.0.1')]]],
  ['resolves to broadcast 255.255.255.255', 'bcast.example', [[v4('255.255.255.255')]]],
  ['resolves to private 172.31.255.1', 'rfc1918.example', [[v4('172.31.255.1')]]],
  ['resolves to NAT64 64:ff9b::7f00:1', 'nat64.example', [[v6('64:ff9b::7f00:1')]]],
  ['resolves to 6to4 2002:7f00:1::1', 'sixtofour.example', [[v6('2002:7f00:1::1')]]],
  ['resolves to link-local fe80::1', 'll.example', [[v6('fe80::1')]]],
  ['resolves to a scoped address fe80::1%lo', 'scoped.example', [[v6('fe80::1%lo')]]],
  ['resolves to IPv4-compatible ::7f00:1', 'compat.example', [[v6('::7f00:1')]]],
  ['resolves to the IPv6 unspecified ::', 'unspec6.example', [[v6('::')]]],
  ['a trailing-dot name resolving to loopback', 'internal-api.example.', [[P_LOOPBACK]]],
];

// ---------------------------------------------------------------------------------------------------------
// 5. Hostile content on a public site that points the crawler at private addresses.
// ---------------------------------------------------------------------------------------------------------

const page = (head: string, body = ''): string => `<!doctype html><html lang="en"><head><title>Acme CRM</title>${head}</head><body><h1>Acme</h1>${body}</body></html>`;

const CONTENT_CASES: Array<[label: string, pages: Record<string, { location: string } | { body: string; type?: string }>]> = [
  ['homepage links to pages on 127.0.0.1', { '/': { body: page('', '<a href="http://127.0.0.1:{P}/pricing">Pricing</a> <a href="http://127.0.0.1:{P}/about">About</a>') } }],
  ['homepage links to localhost and [::1]', { '/': { body: page('', '<a href="http://localhost:{P}/features">Features</a> <a href="//[::1]:{P}/compare">Compare</a>') } }],
  ['homepage links with credentials that hide loopback', { '/': { body: page('', '<a href="http://acme.example@127.0.0.1:{P}/pricing">Pricing</a>') } }],
  ['meta refresh, canonical, og:image and JSON-LD url at loopback', {
    '/': {
      body: page(
        '<meta http-equiv="refresh" content="0;url=http://127.0.0.1:{P}/"><link rel="canonical" href="http://127.0.0.1:{P}/"><meta property="og:image" content="http://127.0.0.1:{P}/og.png"><script type="application/ld+json">{"@type":"Organization","url":"http://127.0.0.1:{P}/","logo":"http://[::1]:{P}/logo.png"}</script>',
        '<img src="http://127.0.0.1:{P}/pixel.gif"><iframe src="http://127.0.0.1:{P}/frame"></iframe>',
      ),
    },
  }],
  ['robots.txt lists a sitemap on 127.0.0.1', { '/': { body: page('') }, '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\nSitemap: http://127.0.0.1:{P}/sitemap.xml\n' } }],
  ['robots.txt lists a sitemap on cloud metadata', { '/': { body: page('') }, '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\nSitemap: http://169.254.169.254/latest/meta-data/\n' } }],
  ['robots.txt redirects to loopback', { '/': { body: page('') }, '/robots.txt': { location: 'http://127.0.0.1:{P}/robots.txt' } }],
  ['llms.txt and llms-full.txt redirect to localhost and [::ffff:7f00:1]', {
    '/': { body: page('') },
    '/llms.txt': { location: 'http://localhost:{P}/llms.txt' },
    '/llms-full.txt': { location: 'http://[::ffff:7f00:1]:{P}/llms-full.txt' },
  }],
  ['sitemap.xml redirects to file:', { '/': { body: page('') }, '/sitemap.xml': { location: 'file:///etc/passwd' } }],
  ['an internal page redirects to 0x7f000001', { '/': { body: page('', '<a href="/pricing">Pricing</a>') }, '/pricing': { location: 'http://0x7f000001:{P}/pricing' } }],
  ['an internal page redirects through the second mapped host to 0.0.0.0', {
    '/': { body: page('', '<a href="/about">About us</a>') },
    '/about': { location: 'http://cdn.acme.example/about-2' },
    '/about-2': { location: 'http://0.0.0.0:{P}/' },
  }],
];

// ---------------------------------------------------------------------------------------------------------
// 6. The connect-time lookup itself (the seam safeFetch hands to node:http).
// ---------------------------------------------------------------------------------------------------------

const GUARD_CASES: Array<[label: string, answer: ResolvedAddress[], request: { all?: boolean; family?: number }, expected: 'EBLOCKED' | ResolvedAddress[]]> = [
  ['all: true with one private address among public ones is refused', [PUBLIC_A, P_LOOPBACK, PUBLIC_B], { all: true }, 'EBLOCKED'],
  ['a single-address request is refused when any answer is private, even if the first is public', [PUBLIC_A, v6('::1')], {}, 'EBLOCKED'],
  ['a family-4 request is refused when the (unused) IPv6 answer is private', [PUBLIC_A, v6('fd00::1')], { family: 4 }, 'EBLOCKED'],
  ['all: true hands the socket exactly the addresses it checked', [PUBLIC_A, PUBLIC_V6], { all: true }, [PUBLIC_A, PUBLIC_V6]],
  ['family 6 hands over only the checked IPv6 address', [PUBLIC_A, PUBLIC_V6], { family: 6 }, [PUBLIC_V6]],
];

const TOTAL_CASES =
  REDIRECT_CASES.length + CHAIN_CASES.length + LITERAL_CASES.length + DNS_CASES.length + CONTENT_CASES.length + GUARD_CASES.length + 2;

describe(`SSRF security suite: ${TOTAL_CASES} cases (at least 40 required); the tripwire must see 0 connections`, () => {
  it(`counts ${TOTAL_CASES} distinct cases`, () => {
    expect(TOTAL_CASES).toBeGreaterThanOrEqual(40);
    const labels = [...REDIRECT_CASES, ...CHAIN_CASES, ...LITERAL_CASES, ...DNS_CASES, ...CONTENT_CASES, ...GUARD_CASES].map(([label]) => label);
    expect(new Set(labels).size).toBe(labels.length);
  });

  describe(`redirects from a public site to a private target (${REDIRECT_CASES.length} cases)`, () => {
    it.each(REDIRECT_CASES)('%s', async (label, status, template) => {
      const path = `/r/${label.replace(/[^a-z0-9]+/gi, '-')}`;
      routes.set(path, { status, location: withPort(template) });
      const before = tripwire.connections();
      const dns = scriptedLookup({});

      const failure = await fetchFailure(`http://acme.example${path}`, { hostMap: hostMap(), lookup: dns.lookup });
      expect(['blocked_host', 'invalid_url']).toContain(failure.code);
      // The public hop was made; nothing after it, and no name was even resolved.
      expect(site.requests.map((request) => request.path)).toEqual([path]);
      expect(dns.calls).toEqual([]);

      // The same through the whole crawler: a report, not an exception, and the hop is refused.
      const report = await crawlSite(`http://acme.example${path}`, { hostMap: hostMap(), lookup: dns.lookup, fetchTimeoutMs: 3_000 });
      expect(report.ok).toBe(false);
      expect(['blocked_host', 'invalid_url']).toContain(report.failureCode);
      expect(dns.calls).toEqual([]);
      await expectTripwireUntouched(before);
    });
  });

  describe(`multi-hop redirect chains ending somewhere private (${CHAIN_CASES.length} cases)`, () => {
    it.each(CHAIN_CASES)('%s', async (_label, hops, start, publicHops) => {
      for (const [path, location] of hops) routes.set(path, { location: withPort(location) });
      const before = tripwire.connections();
      const failure = await fetchFailure(start, { hostMap: hostMap(), lookup: scriptedLookup({}).lookup });
      const expected: SafeFetchErrorCode = publicHops > 5 ? 'too_many_redirects' : 'blocked_host';
      expect(failure.code).toBe(expected);
      expect(site.requests).toHaveLength(Math.min(publicHops, 6));
      await expectTripwireUntouched(before);
    });
  });

  describe(`literal hosts and schemes typed as the website (${LITERAL_CASES.length} cases)`, () => {
    it.each(LITERAL_CASES)('%s', async (_label, template) => {
      const website = withPort(template);
      const before = tripwire.connections();
      const dns = scriptedLookup({});
      expect(normalizeWebsite(website).ok).toBe(false);
      const report = await crawlSite(website, { lookup: dns.lookup });
      expect(report.ok).toBe(false);
      expect(report.failureCode).toBe('blocked_host');
      expect(report.fetches).toBe(0);
      expect(dns.calls).toEqual([]);
      // Fetched directly, past normalizeWebsite, it is refused just the same (URL parsing may already fail).
      const direct = await safeFetch(website, { lookup: dns.lookup, timeoutMs: 3_000 }).catch((error: unknown) => error);
      expect(direct).toBeInstanceOf(SafeFetchError);
      expect(['blocked_host', 'blocked_address', 'invalid_url']).toContain((direct as SafeFetchError).code);
      expect(dns.calls).toEqual([]);
      await expectTripwireUntouched(before);
    });
  });

  describe(`names whose DNS answer is or becomes private (${DNS_CASES.length} cases)`, () => {
    it.each(DNS_CASES)('%s', async (_label, host, answers) => {
      const before = tripwire.connections();
      const dns = scriptedLookup({ [host]: answers });
      const report = await crawlSite(`http://${host}:${tripwire.port}/`, { lookup: dns.lookup, fetchTimeoutMs: 3_000 });
      expect(report.ok).toBe(false);
      expect(report.failureCode).toBe('blocked_address');
      // Every lookup was for this name (the early check, then one per connection attempt).
      expect(dns.calls.length).toBeGreaterThanOrEqual(1);
      expect(new Set(dns.calls)).toEqual(new Set([host]));
      if (answers.length > 1) {
        // Rebinding: the early check saw only public addresses; the refusal came from the connect-time lookup.
        expect(dns.calls.length).toBeGreaterThanOrEqual(2);
      }

      // safeFetch on its own (no early check): refused by the connect-time lookup, with that reason.
      const connectTime = scriptedLookup({ [host]: [answers.at(-1) ?? []] });
      const failure = await fetchFailure(`http://${host}:${tripwire.port}/`, { lookup: connectTime.lookup });
      expect(failure.code).toBe('blocked_address');
      expect(connectTime.calls).toEqual([host]);
      await expectTripwireUntouched(before);
    });
  });

  describe(`hostile content pointing the crawler at private addresses (${CONTENT_CASES.length} cases)`, () => {
    it.each(CONTENT_CASES)('%s', async (_label, pages) => {
      for (const [path, route] of Object.entries(pages)) {
        routes.set(path, 'location' in route ? { location: withPort(route.location) } : { ...route, body: withPort(route.body) });
      }
      const before = tripwire.connections();
      const dns = scriptedLookup({});
      const report = await crawlSite('http://acme.example/', { hostMap: hostMap(), lookup: dns.lookup, fetchTimeoutMs: 3_000 });
      // The homepage itself is public and readable: the crawl succeeds, it just never goes anywhere private.
      expect(report.ok).toBe(true);
      expect(report.homepage?.title).toBe('Acme CRM');
      expect(dns.calls).toEqual([]);
      for (const request of site.requests) expect(request.host).toMatch(/^(cdn\.)?acme\.example$/);
      await expectTripwireUntouched(before);
    });
  });

  describe(`the connect-time lookup checks every address it hands to the socket (${GUARD_CASES.length} cases)`, () => {
    it.each(GUARD_CASES)('%s', async (_label, answer, request, expected) => {
      const dns = scriptedLookup({ 'guarded.example': answer });
      const guard = createGuardedLookup(dns.lookup);
      const result = await new Promise<{ error: NodeJS.ErrnoException | null; addresses: ResolvedAddress[] }>((resolve) => {
        const options = { ...(request.all === true ? { all: true } : {}), ...(request.family === undefined ? {} : { family: request.family }) };
        guard.lookup('guarded.example', options as never, ((error: NodeJS.ErrnoException | null, address: unknown, family?: number) => {
          if (error !== null) resolve({ error, addresses: [] });
          else if (Array.isArray(address)) resolve({ error: null, addresses: address as ResolvedAddress[] });
          else resolve({ error: null, addresses: [{ address: String(address), family: family ?? 0 }] });
        }) as never);
      });
      if (expected === 'EBLOCKED') {
        expect(result.error?.code).toBe('EBLOCKED');
        expect(guard.failure()?.code).toBe('blocked');
      } else {
        expect(result.error).toBeNull();
        expect(result.addresses).toEqual(expected);
      }
    });

    it('asks the resolver again for every connection, so an answer cached from an earlier check is never reused', async () => {
      // The early check in crawlSite and each of the two homepage fetches resolve separately.
      const dns = scriptedLookup({ 'fresh.example': [[PUBLIC_A], [P_LOOPBACK]] });
      const before = tripwire.connections();
      const report = await crawlSite(`http://fresh.example:${tripwire.port}/`, { lookup: dns.lookup });
      expect(report.failureCode).toBe('blocked_address');
      expect(dns.calls).toEqual(['fresh.example', 'fresh.example', 'fresh.example']);
      await expectTripwireUntouched(before);
    });

    it('an injected resolver that throws gives dns_failed and no connection', async () => {
      const before = tripwire.connections();
      const failure = await fetchFailure(`http://nxdomain.example:${tripwire.port}/`, {
        lookup: async () => {
          throw Object.assign(new Error('getaddrinfo ENOTFOUND nxdomain.example'), { code: 'ENOTFOUND' });
        },
      });
      expect(failure.code).toBe('dns_failed');
      await expectTripwireUntouched(before);
    });
  });
});
