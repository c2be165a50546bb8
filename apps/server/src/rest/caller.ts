import { isIPv6 } from 'node:net';
import type { Request } from 'express';

/**
 * The key limits are counted under: the caller's address as Express reports it (the socket address
 * unless TRUST_PROXY says which proxies to believe). IPv4-mapped IPv6 is folded to IPv4, and IPv6
 * callers are grouped by their /64, since one host usually owns a whole /64 and could otherwise
 * step around a per-IP limit by changing address.
 */
export function callerKey(request: Request): string {
  return callerKeyFromAddress(request.ip ?? request.socket.remoteAddress ?? 'unknown');
}

/** The limit key of one address: IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6 as its /64. */
export function callerKeyFromAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (isIPv6(address)) return `${ipv6Prefix64(address)}::/64`;
  return address;
}

function ipv6Prefix64(address: string): string {
  const withoutZone = address.split('%')[0] ?? address;
  const [head = '', tail = ''] = withoutZone.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  const missing = withoutZone.includes('::') ? 8 - headGroups.length - tailGroups.length : 0;
  const groups = [...headGroups, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups];
  return groups
    .slice(0, 4)
    .map((group) => (Number.parseInt(group || '0', 16) || 0).toString(16))
    .join(':');
}
