import { describe, expect, it } from 'vitest';
import { mappedOrigin } from './host-map.js';
import { normalizeWebsite } from './normalize-website.js';
import { checkHostname, isPublicAddress, nonPublicAddressReason, resolvePublicAddresses } from './public-host.js';
import { scriptedLookup, v4, v6 } from './test-support/fixture-server.js';

describe('normalizeWebsite', () => {
  it.each([
    ['acme.io', 'https://acme.io/'],
    ['  Acme.IO  ', 'https://acme.io/'],
    ['acme.io/pricing', 'https://acme.io/pricing'],
    ['acme.io:8443', 'https://acme.io:8443/'],
    ['http://acme.io', 'http://acme.io/'],
    ['HTTPS://www.Acme.io/es/#top', 'https://www.acme.io/es/'],
    ['//acme.io', 'https://acme.io/'],
    ['http://8.8.8.8/', 'http://8.8.8.8/'],
    ['93.184.216.34', 'https://93.184.216.34/'],
    ['http://[2606:4700:4700::1111]/', 'http://[2606:4700:4700::1111]/'],
    ['bücher.example', 'https://xn--bcher-kva.example/'],
  ])('accepts %s as %s', (input, expected) => {
    expect(normalizeWebsite(input)).toEqual({ ok: true, url: expected });
  });

  it('gives a reason and a code when it refuses', () => {
    expect(normalizeWebsite('')).toMatchObject({ ok: false, code: 'invalid_url' });
    expect(normalizeWebsite('http://exa mple.com')).toMatchObject({ ok: false, code: 'invalid_url' });
    expect(normalizeWebsite('http://localhost/')).toMatchObject({ ok: false, code: 'blocked_host', reason: expect.stringContaining('localhost') });
    expect(normalizeWebsite('ftp://acme.io/')).toMatchObject({ ok: false, reason: expect.stringContaining('ftp') });
  });

  it('lets the host map through (and only the host map)', () => {
    const hostMap = new Map([['staging.internal', 'http://127.0.0.1:4100']]);
    expect(normalizeWebsite('http://staging.internal/', { hostMap })).toEqual({ ok: true, url: 'http://staging.internal/' });
    expect(normalizeWebsite('http://staging.internal/').ok).toBe(false);
    // The map never excuses credentials or a non-http scheme.
    expect(normalizeWebsite('http://user:pw@staging.internal/', { hostMap }).ok).toBe(false);
    expect(normalizeWebsite('ftp://staging.internal/', { hostMap }).ok).toBe(false);
  });

  it('honours a host:port key only on that port, and a bare host key on any port', () => {
    const withPort = new Map([['acme.example:8080', 'http://127.0.0.1:4100']]);
    expect(mappedOrigin(new URL('http://acme.example:8080/x'), withPort)?.href).toBe('http://127.0.0.1:4100/');
    expect(mappedOrigin(new URL('http://acme.example:9090/x'), withPort)).toBeUndefined();
    const bare = new Map([['acme.example', 'http://127.0.0.1:4100']]);
    expect(mappedOrigin(new URL('https://ACME.example./'), bare)?.href).toBe('http://127.0.0.1:4100/');
    expect(mappedOrigin(new URL('https://www.acme.example/'), bare)).toBeUndefined();
  });
});

describe('public addresses', () => {
  it.each(['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808'])('%s is public', (address) => {
    expect(nonPublicAddressReason(address)).toBeUndefined();
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.127.0.1', 'carrierGradeNat'],
    ['0.1.2.3', 'unspecified'],
    ['239.255.255.250', 'multicast'],
    ['203.0.113.9', 'reserved'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['::ffff:192.168.1.1', 'private'],
    ['64:ff9b::a00:1', 'NAT64'],
    ['64:ff9b:1::1', 'rfc6052'],
    ['2002:7f00:1::1', '6to4'],
    ['fe80::1%eth0', 'scoped'],
    ['not-an-ip', 'not an IP'],
  ])('%s is refused (%s)', (address, why) => {
    expect(nonPublicAddressReason(address)).toContain(why);
  });

  it('accepts ordinary names and refuses internal ones without resolving', () => {
    expect(checkHostname('www.acme.io')).toEqual({ ok: true });
    expect(checkHostname('acme.io.')).toEqual({ ok: true });
    expect(checkHostname('kubernetes.default.svc.cluster.local').ok).toBe(false);
    expect(checkHostname('bad_label-.acme.io').ok).toBe(false);
  });

  it('requires every resolved address to be public', async () => {
    const dns = scriptedLookup({ 'ok.example': [v4('93.184.216.34'), v6('2606:2800:220:1::1')], 'mixed.example': [v4('8.8.8.8'), v6('fd00::1')], 'none.example': [] });
    expect(await resolvePublicAddresses('ok.example', dns.lookup)).toMatchObject({ ok: true });
    expect(await resolvePublicAddresses('mixed.example', dns.lookup)).toMatchObject({ ok: false, code: 'blocked' });
    expect(await resolvePublicAddresses('none.example', dns.lookup)).toMatchObject({ ok: false, code: 'unresolved' });
    expect(await resolvePublicAddresses('missing.example', dns.lookup)).toMatchObject({ ok: false, code: 'unresolved', reason: expect.stringContaining('ENOTFOUND') });
  });
});
