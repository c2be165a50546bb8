import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { createGuardedLookup } from './connect-guard.js';
import { scriptedLookup, v4, v6 } from './test-support/fixture-server.js';

type Outcome = { error: (Error & { code?: string }) | null; address: string | LookupAddress[]; family: number | undefined };

function run(guard: ReturnType<typeof createGuardedLookup>, hostname: string, options: Parameters<ReturnType<typeof createGuardedLookup>['lookup']>[1]): Promise<Outcome> {
  return new Promise((resolve) => guard.lookup(hostname, options, (error, address, family) => resolve({ error, address, family })));
}

describe('createGuardedLookup (what the socket is handed at connect time)', () => {
  const dns = scriptedLookup({ 'site.example': [v4('93.184.216.34'), v6('2606:2800:220:1::1')], 'bad.example': [v4('93.184.216.34'), v4('127.0.0.1')] });

  it('hands every checked address when Node asks for all of them', async () => {
    const outcome = await run(createGuardedLookup(dns.lookup), 'site.example', { all: true });
    expect(outcome.error).toBeNull();
    expect(outcome.address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
  });

  it('hands one address of the requested family otherwise', async () => {
    expect(await run(createGuardedLookup(dns.lookup), 'site.example', {})).toMatchObject({ error: null, address: '93.184.216.34', family: 4 });
    expect(await run(createGuardedLookup(dns.lookup), 'site.example', { family: 6 })).toMatchObject({ error: null, address: '2606:2800:220:1::1', family: 6 });
  });

  it('refuses the whole answer when one address is private, and says why', async () => {
    const guard = createGuardedLookup(dns.lookup);
    const outcome = await run(guard, 'bad.example', { all: true });
    expect(outcome.error?.code).toBe('EBLOCKED');
    expect(guard.failure()).toMatchObject({ code: 'blocked', reason: expect.stringContaining('127.0.0.1') });
  });

  it('reports DNS failures as unresolved, not blocked', async () => {
    const guard = createGuardedLookup(dns.lookup);
    const outcome = await run(guard, 'nowhere.example', { all: true });
    expect(outcome.error?.code).toBe('ENOTFOUND');
    expect(guard.failure()?.code).toBe('unresolved');
  });
});
