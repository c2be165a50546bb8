import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/** Resolves a host name to every address it has; injectable so tests simulate DNS without touching it. */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The system resolver (getaddrinfo), asked for every address so each one can be checked. */
export const systemLookup: HostLookup = async (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type HostCheck = { ok: true } | { ok: false; reason: string };

export type AddressCheck =
  | { ok: true; addresses: readonly ResolvedAddress[] }
  /** `blocked`: an address is not public; `unresolved`: DNS gave no usable answer. */
  | { ok: false; code: 'blocked' | 'unresolved'; reason: string };

/**
 * Name suffixes that only ever mean "inside some private network" (RFC 6761/6762/8375 and common
 * corporate conventions). They are refused up front so the answer does not depend on the resolver the
 * server happens to use.
 */
const INTERNAL_SUFFIXES = ['localhost', 'local', 'internal', 'intranet', 'lan', 'home', 'corp', 'localdomain', 'home.arpa', 'arpa'];

// Global unicast IPv6 (2000::/3): everything outside it is loopback, local, multicast, mapped, or unassigned.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/** Why an IP address is not a public unicast address, or undefined when it is public. */
export function nonPublicAddressReason(address: string): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // Zone ids (fe80::1%eth0) only exist on link-local addresses; refusing them outright is simpler than parsing.
  if (bare.includes('%')) return `${address} is a scoped (link-local) address`;
  // parse() also accepts IPv4 shorthand (127.1, 0x7f.1, 2130706433): whatever the spelling, the range
  // check below applies to the value the socket would really connect to.
  if (!ipaddr.isValid(bare)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') {
    const range = (parsed as ipaddr.IPv4).range();
    // Only plain unicast passes: private, loopback, link-local (cloud metadata), CGNAT, multicast,
    // broadcast, unspecified, reserved, documentation and benchmark ranges all fail.
    return range === 'unicast' ? undefined : `${address} is in the ${range} range`;
  }
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) {
    // ::ffff:a.b.c.d reaches the IPv4 address itself, so it is judged as that address.
    const reason = nonPublicAddressReason(v6.toIPv4Address().toString());
    return reason === undefined ? undefined : `${address} maps to IPv4: ${reason}`;
  }
  if (v6.match(NAT64_WELL_KNOWN)) {
    // 64:ff9b::a.b.c.d is how DNS64 on an IPv6-only network spells an IPv4 site: judge the IPv4 inside.
    const [high = 0, low = 0] = v6.parts.slice(6);
    const reason = nonPublicAddressReason(`${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`);
    return reason === undefined ? undefined : `${address} is NAT64 for a non-public address: ${reason}`;
  }
  const range = v6.range();
  if (range !== 'unicast') return `${address} is in the IPv6 ${range} range`;
  // ipaddr.js calls anything it has no name for "unicast" (e.g. the deprecated ::a.b.c.d form); only the
  // global unicast block is actually routed on the internet.
  if (!v6.match(GLOBAL_UNICAST_V6)) return `${address} is outside IPv6 global unicast space`;
  return undefined;
}

/** True when the address is a public unicast IPv4 or IPv6 address. */
export function isPublicAddress(address: string): boolean {
  return nonPublicAddressReason(address) === undefined;
}

/** True when the URL host (as `URL.hostname` spells it) is an IP literal rather than a name. */
export function isIpLiteral(hostname: string): boolean {
  if (hostname.startsWith('[')) return true;
  return ipaddr.IPv4.isValidFourPartDecimal(hostname);
}

/**
 * Checks a URL host name without resolving it: IP literals must be public; names must have a dot, must not
 * be localhost or an internal-only suffix, and must look like DNS labels. `URL` has already turned numeric,
 * hex and octal IPv4 spellings into dotted decimal, so those are judged by their real value here.
 */
export function checkHostname(hostname: string): HostCheck {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === '') return { ok: false, reason: 'the URL has no host' };
  if (isIpLiteral(host)) {
    const reason = nonPublicAddressReason(host);
    return reason === undefined ? { ok: true } : { ok: false, reason: `not a public address: ${reason}` };
  }
  for (const suffix of INTERNAL_SUFFIXES) {
    if (host === suffix || host.endsWith(`.${suffix}`)) {
      return { ok: false, reason: host === suffix ? `"${host}" is not a public host` : `"${host}" is an internal name (.${suffix}), not a public host` };
    }
  }
  // DNS names are at most 253 characters (RFC 1035); a longer one is not a real site and is not sent to the resolver.
  if (host.length > 253) return { ok: false, reason: `the host name is longer than 253 characters` };
  const labels = host.split('.');
  if (labels.length < 2) return { ok: false, reason: `"${host}" is a single-label name, not a public domain` };
  if (!labels.every((label) => /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/.test(label) && label.length <= 63)) {
    return { ok: false, reason: `"${host}" is not a valid host name` };
  }
  // URL refuses names whose last label is numeric but not a valid IPv4; kept for callers passing raw names.
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return { ok: false, reason: `"${host}" looks like a numeric address` };
  return { ok: true };
}

/** Resolves a host and accepts it only when EVERY address is public (one private answer is enough to refuse). */
export async function resolvePublicAddresses(hostname: string, lookup: HostLookup = systemLookup): Promise<AddressCheck> {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (isIpLiteral(hostname)) {
    const reason = nonPublicAddressReason(host);
    if (reason !== undefined) return { ok: false, code: 'blocked', reason };
    return { ok: true, addresses: [{ address: host, family: host.includes(':') ? 6 : 4 }] };
  }
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await lookup(host);
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
    return { ok: false, code: 'unresolved', reason: `could not resolve ${host}${code === undefined ? '' : ` (${code})`}` };
  }
  if (addresses.length === 0) return { ok: false, code: 'unresolved', reason: `${host} has no addresses` };
  for (const { address } of addresses) {
    const reason = nonPublicAddressReason(address);
    if (reason !== undefined) return { ok: false, code: 'blocked', reason: `${host} resolves to a non-public address: ${reason}` };
  }
  return { ok: true, addresses };
}
