import type { LookupFunction } from 'node:net';
import { resolvePublicAddresses, type HostLookup } from './public-host.js';

export interface LookupFailure {
  /** `blocked`: an address was not public; `unresolved`: DNS gave no usable answer. */
  code: 'blocked' | 'unresolved';
  reason: string;
}

export interface GuardedLookup {
  /** Passed to http(s).request as `lookup`: the socket connects only to addresses this approved. */
  lookup: LookupFunction;
  /** Why the last lookup refused, so the request error can be reported precisely. */
  failure: () => LookupFailure | undefined;
}

/**
 * A connect-time resolver: resolves with `resolver`, refuses unless EVERY address is public, and hands the
 * socket exactly the addresses it checked, so nothing can change between the check and the connection.
 */
export function createGuardedLookup(resolver: HostLookup): GuardedLookup {
  let failure: LookupFailure | undefined;
  const refuse = (callback: Parameters<LookupFunction>[2], refusal: LookupFailure): void => {
    failure = refusal;
    callback(Object.assign(new Error(refusal.reason), { code: refusal.code === 'blocked' ? 'EBLOCKED' : 'ENOTFOUND' }), '');
  };
  const lookup: LookupFunction = (hostname, options, callback) => {
    resolvePublicAddresses(hostname, resolver).then(
      (checked) => {
        if (!checked.ok) return refuse(callback, checked);
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const usable = checked.addresses.filter((entry) => family === undefined || family === 0 || entry.family === family);
        const first = usable[0];
        if (first === undefined) return refuse(callback, { code: 'unresolved', reason: `${hostname} has no IPv${String(family)} address` });
        // Node asks for every address (`all`) when it races IPv4 and IPv6 (autoSelectFamily), else for one.
        if (options.all === true) callback(null, usable.map((entry) => ({ address: entry.address, family: entry.family })));
        else callback(null, first.address, first.family);
      },
      (error: unknown) => refuse(callback, { code: 'unresolved', reason: error instanceof Error ? error.message : String(error) }),
    );
  };
  return { lookup, failure: () => failure };
}
