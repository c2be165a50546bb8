import { beforeEach, describe, expect, it } from 'vitest';
import { insertAudit } from '../map/test-support/map-fixtures.js';
import type { NewMcpRun } from './mcp-run-repository.js';
import type { Store } from './store.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('mcp-run-repository');
let store: Store;
let other: Store;
beforeEach(() => {
  store = stores.open();
  // A second connection to the same file: what SQLite enforces holds across processes, not just in memory.
  other = stores.open();
});

let runs = 0;
function newRun(domain: string, createdAt = '2026-03-10T12:00:00.000Z', mode = 'demo'): NewMcpRun {
  runs += 1;
  return { id: `run-${runs}`, domain, mode, brand: 'Acme', website: `https://${domain}/`, category: 'CRM', request: { brand: 'Acme' }, createdAt };
}
const WINDOW_START = '2026-02-08T12:00:00.000Z';

describe('McpRunRepository', () => {
  it('creates one run per domain in the window, whichever connection claims', () => {
    const claims = Array.from({ length: 6 }, (_unused, index) => (index % 2 === 0 ? store : other).mcpRunRepository.claimRun(newRun('acme.com'), WINDOW_START));
    expect(claims.filter((claim) => claim.outcome === 'created')).toHaveLength(1);
    expect(new Set(claims.map((claim) => claim.run.id)).size).toBe(1);
    expect(claims[0]?.run).toMatchObject({ status: 'queued', domain: 'acme.com', request: { brand: 'Acme' }, auditId: undefined });
  });

  it('lets a failed run, a run older than the window and a run of the other lineup leave the quota free', () => {
    const repository = store.mcpRunRepository;
    const failed = repository.claimRun(newRun('failed.com'), WINDOW_START).run;
    expect(repository.markFailed(failed.id, 'server_error', 'boom', '2026-03-10T12:01:00.000Z')).toBe(true);
    expect(repository.claimRun(newRun('failed.com'), WINDOW_START).outcome).toBe('created');

    repository.claimRun(newRun('old.com', '2026-02-08T11:59:59.999Z'), WINDOW_START);
    expect(repository.findQuotaRun('old.com', 'demo', WINDOW_START)).toBeUndefined();
    expect(repository.claimRun(newRun('old.com'), WINDOW_START).outcome).toBe('created');

    repository.claimRun(newRun('mode.com'), WINDOW_START);
    expect(repository.claimRun(newRun('mode.com', undefined, 'live'), WINDOW_START).outcome).toBe('created');
  });

  it('moves a run only forward: queued, auditing, mapping, done; failed from any unfinished state', () => {
    const repository = store.mcpRunRepository;
    const at = '2026-03-10T12:05:00.000Z';
    const auditId = insertAudit(store);
    const run = repository.claimRun(newRun('flow.com'), WINDOW_START).run;
    expect(repository.markMapping(run.id, auditId, at)).toBe(false);
    expect(repository.markAuditing(run.id, at)).toBe(true);
    expect(repository.markAuditing(run.id, at)).toBe(false);
    expect(repository.markMapping(run.id, auditId, at)).toBe(true);
    expect(repository.markDone(run.id, auditId, at)).toBe(true);
    expect(repository.markFailed(run.id, 'interrupted', 'late', at)).toBe(false);
    expect(repository.getRun(run.id)).toMatchObject({ status: 'done', auditId, finishedAt: at, errorCode: undefined });
  });

  it('fails the runs left queued or auditing, and leaves those mapping to their map', () => {
    const repository = store.mcpRunRepository;
    const at = '2026-03-10T12:05:00.000Z';
    const queued = repository.claimRun(newRun('queued.com'), WINDOW_START).run;
    const auditing = repository.claimRun(newRun('auditing.com'), WINDOW_START).run;
    repository.markAuditing(auditing.id, at);
    const mapping = repository.claimRun(newRun('mapping.com'), WINDOW_START).run;
    repository.markAuditing(mapping.id, at);
    repository.markMapping(mapping.id, insertAudit(store), at);

    expect(other.mcpRunRepository.failUnfinishedAudits('interrupted', 'interrupted by a restart', at)).toBe(2);
    expect(repository.getRun(queued.id)).toMatchObject({ status: 'failed', errorCode: 'interrupted', error: 'interrupted by a restart' });
    expect(repository.getRun(auditing.id)?.status).toBe('failed');
    expect(repository.runsWithStatus('mapping').map((run) => run.id)).toEqual([mapping.id]);
  });
});
