import { describe, expect, it } from 'vitest';
import type { NewMcpRun } from '../mcp-run-repository.js';
import type { RunStore } from '../ports.js';

let runs = 0;
function newRun(domain: string, createdAt = '2026-03-10T12:00:00.000Z', mode = 'demo'): NewMcpRun {
  runs += 1;
  return { id: `run-${runs}-${Math.random().toString(36).slice(2, 8)}`, domain, mode, brand: 'Acme', website: `https://${domain}/`, category: 'CRM', request: { brand: 'Acme' }, createdAt };
}
const WINDOW_START = '2026-02-08T12:00:00.000Z';

/** What opening an adapter gives the contract: two handles on one store, and an audit id it accepts. */
export interface RunStoreFixture {
  first: RunStore;
  second: RunStore;
  auditId(): Promise<string>;
}

/** The runs port's contract: every adapter passes it (two handles stand for two instances). */
export function runStoreContract(name: string, open: () => Promise<RunStoreFixture>): void {
  describe(`runs port contract: ${name}`, () => {
    it('creates one run per domain in the window, whichever instance claims, even all at once', async () => {
      const { first, second } = await open();
      const claims = await Promise.all(Array.from({ length: 8 }, (_unused, index) => (index % 2 === 0 ? first : second).claimRun(newRun('acme.com'), WINDOW_START)));
      expect(claims.filter((claim) => claim.outcome === 'created')).toHaveLength(1);
      expect(new Set(claims.map((claim) => claim.run.id)).size).toBe(1);
      expect(claims[0]?.run).toMatchObject({ status: 'queued', domain: 'acme.com', request: { brand: 'Acme' }, auditId: undefined, errorCode: undefined, finishedAt: undefined });
    });

    it('lets a failed run, a run older than the window and a run of the other lineup leave the quota free', async () => {
      const { first: repository } = await open();
      const failed = (await repository.claimRun(newRun('failed.com'), WINDOW_START)).run;
      expect(await repository.markFailed(failed.id, 'server_error', 'boom', '2026-03-10T12:01:00.000Z')).toBe(true);
      expect((await repository.claimRun(newRun('failed.com'), WINDOW_START)).outcome).toBe('created');

      await repository.claimRun(newRun('old.com', '2026-02-08T11:59:59.999Z'), WINDOW_START);
      expect(await repository.findQuotaRun('old.com', 'demo', WINDOW_START)).toBeUndefined();
      expect((await repository.claimRun(newRun('old.com'), WINDOW_START)).outcome).toBe('created');

      await repository.claimRun(newRun('mode.com'), WINDOW_START);
      expect((await repository.claimRun(newRun('mode.com', undefined, 'live'), WINDOW_START)).outcome).toBe('created');
    });

    it('moves a run only forward: queued, auditing, mapping, done; failed from any unfinished state', async () => {
      const { first: repository, second, auditId: newAuditId } = await open();
      const at = '2026-03-10T12:05:00.000Z';
      const auditId = await newAuditId();
      const run = (await repository.claimRun(newRun('flow.com'), WINDOW_START)).run;
      expect(await repository.markMapping(run.id, auditId, at)).toBe(false);
      expect(await repository.markAuditing(run.id, at)).toBe(true);
      expect(await second.markAuditing(run.id, at)).toBe(false);
      expect(await repository.markMapping(run.id, auditId, at)).toBe(true);
      expect(await repository.markDone(run.id, auditId, at)).toBe(true);
      expect(await second.markFailed(run.id, 'interrupted', 'late', at)).toBe(false);
      expect(await second.getRun(run.id)).toMatchObject({ status: 'done', auditId, finishedAt: at, errorCode: undefined });

      const failing = (await repository.claimRun(newRun('fail.com'), WINDOW_START)).run;
      await repository.markAuditing(failing.id, at);
      expect(await second.markFailed(failing.id, 'interrupted', 'interrupted by a restart', at)).toBe(true);
      expect(await repository.getRun(failing.id)).toMatchObject({ status: 'failed', errorCode: 'interrupted', error: 'interrupted by a restart', finishedAt: at });
    });

    it("stores a run's latest progress where every instance reads it, and never lets its percent go back", async () => {
      const { first: repository, second, auditId: newAuditId } = await open();
      const run = (await repository.claimRun(newRun('progress.com'), WINDOW_START)).run;
      expect(run.progress).toBeUndefined();
      const answers = { stage: 'answers', completed: 12, total: 81, percent: 16, message: 'answers 12/81' };
      expect(await repository.recordProgress(run.id, answers)).toBe(true);
      expect((await second.getRun(run.id))?.progress).toEqual(answers);
      // the same percent with a newer message is stored (12/81 and 13/81 round alike); a lower one is refused
      const next = { ...answers, completed: 13, message: 'answers 13/81' };
      expect(await second.recordProgress(run.id, next)).toBe(true);
      expect(await repository.recordProgress(run.id, { stage: 'crawl', completed: 1, total: 1, percent: 5, message: 'site crawled' })).toBe(false);
      expect((await repository.getRun(run.id))?.progress).toEqual(next);
      // only what a progress is: fields beyond the five are not stored
      expect(await repository.recordProgress(run.id, { ...answers, percent: 20, extra: 'x' } as typeof answers)).toBe(true);
      expect((await second.getRun(run.id))?.progress).toEqual({ ...answers, percent: 20 });

      // a state change keeps the progress; the final progress is stored after the final state
      const at = '2026-03-10T12:05:00.000Z';
      await repository.markAuditing(run.id, at);
      await repository.markMapping(run.id, await newAuditId(), at);
      expect((await second.getRun(run.id))?.progress).toMatchObject({ percent: 20 });
      await repository.markFailed(run.id, 'interrupted', 'interrupted by a restart', at);
      const failed = { stage: 'failed', completed: 1, total: 1, percent: 100, message: 'interrupted by a restart' };
      expect(await second.recordProgress(run.id, failed)).toBe(true);
      expect(await repository.getRun(run.id)).toMatchObject({ status: 'failed', progress: failed });
      expect(await repository.recordProgress('no-such-run', answers)).toBe(false);
    });

    it('lists the runs in one state, oldest first', async () => {
      const { first: repository } = await open();
      const at = '2026-03-10T12:05:00.000Z';
      const later = (await repository.claimRun(newRun('b.com', '2026-03-10T12:00:02.000Z'), WINDOW_START)).run;
      const earlier = (await repository.claimRun(newRun('a.com', '2026-03-10T12:00:01.000Z'), WINDOW_START)).run;
      const auditing = (await repository.claimRun(newRun('c.com'), WINDOW_START)).run;
      await repository.markAuditing(auditing.id, at);
      expect((await repository.runsWithStatus('queued')).map((run) => run.id)).toEqual([earlier.id, later.id]);
      expect((await repository.runsWithStatus('auditing')).map((run) => run.id)).toEqual([auditing.id]);
      expect(await repository.getRun('no-such-run')).toBeUndefined();
    });
  });
}
