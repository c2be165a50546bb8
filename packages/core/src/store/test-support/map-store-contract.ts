import { describe, expect, it } from 'vitest';
import type { MapCellRecord, NewMapJob } from '../map-repository.js';
import type { AccountStore, AuditStore, MapStore } from '../ports.js';
import { contractAudit } from './audit-store-contract.js';

/** Two handles on one store (two instances), and the audits and accounts ports of the same store. */
export interface MapStoreHandles {
  first: MapStore;
  second: MapStore;
  audits: AuditStore;
  accounts: AccountStore;
}

const OWNER = 'owner@pipedrive.test';

function newJob(auditId: string, chargedEmail?: string): NewMapJob {
  return {
    auditId,
    mode: 'demo',
    brand: 'Pipedrive',
    website: 'https://pipedrive.test/',
    competitors: ['HubSpot'],
    questions: ['Which CRM?', 'Which cheap CRM?'],
    providers: [
      { provider: 'openai', model: 'demo-gpt' },
      { provider: 'anthropic', model: 'demo-claude' },
    ],
    chargedEmail,
    createdAt: '2026-11-01T00:00:00.000Z',
  };
}

function cell(auditId: string, questionIndex: number, answer: string, overrides: Partial<MapCellRecord> = {}): MapCellRecord {
  return {
    auditId,
    generation: 1,
    questionIndex,
    provider: 'openai',
    ok: true,
    model: 'demo-gpt-2025',
    answer,
    brands: ['Pipedrive', 'HubSpot'],
    named: true,
    position: 1,
    failureKind: null,
    failureMessage: null,
    answeredAt: '2026-11-01T00:01:00.000Z',
    ...overrides,
  };
}

async function newAudit(audits: AuditStore): Promise<string> {
  const audit = contractAudit({ email: OWNER });
  await audits.insertAudit(audit);
  return audit.id;
}

/** The maps port's contract: what one instance writes the other reads, and concurrent starts create one job. */
export function mapStoreContract(name: string, open: () => Promise<MapStoreHandles>): void {
  describe(`maps port contract: ${name}`, () => {
    it('creates the first job once, whichever instance asks, and freezes its grid', async () => {
      const { first, second, audits } = await open();
      const auditId = await newAudit(audits);
      expect(await first.mapReadState(auditId)).toEqual({ auditExists: true, completeGeneration: undefined, runningGeneration: undefined });
      const created = await Promise.all(Array.from({ length: 6 }, (_unused, index) => (index % 2 === 0 ? first : second).createFirstJob(newJob(auditId))));
      expect(created.filter(Boolean)).toHaveLength(1);
      const running = await second.runningJob(auditId);
      expect(running).toEqual({
        ...newJob(auditId),
        competitors: ['HubSpot'],
        generation: 1,
        status: 'running',
        chargedEmail: undefined,
        completedAt: undefined,
        map: undefined,
      });
      expect(await first.job(auditId, 1)).toEqual(running);
      expect(await first.job(auditId, 2)).toBeUndefined();
      expect(await first.latestGeneration(auditId)).toBe(1);
      expect((await second.runningJobs()).map((job) => job.auditId)).toEqual([auditId]);
      expect(await first.mapReadState(auditId)).toEqual({ auditExists: true, completeGeneration: undefined, runningGeneration: 1 });
      expect(await first.mapReadState('00000000-0000-4000-8000-ffffffffffff')).toEqual({ auditExists: false, completeGeneration: undefined, runningGeneration: undefined });
    });

    it('stores each cell once, whichever instance answers, and lists them by question then provider', async () => {
      const { first, second, audits } = await open();
      const auditId = await newAudit(audits);
      await first.createFirstJob(newJob(auditId));
      const failed = cell(auditId, 0, '', { provider: 'anthropic', ok: false, model: null, answer: null, brands: [], named: false, position: null, failureKind: 'timeout', failureMessage: 'no answer in 60 s' });
      const stored = await Promise.all([first.insertCell(cell(auditId, 1, 'second question')), second.insertCell(failed), first.insertCell(cell(auditId, 0, 'first'))]);
      expect(stored).toEqual([true, true, true]);
      expect(await second.insertCell(cell(auditId, 0, 'asked again'))).toBe(false);
      const cells = await second.listCells(auditId, 1);
      expect(cells.map((entry) => [entry.questionIndex, entry.provider, entry.answer])).toEqual([
        [0, 'anthropic', null],
        [0, 'openai', 'first'],
        [1, 'openai', 'second question'],
      ]);
      expect(cells[0]).toEqual(failed);
      expect(cells[1]).toEqual(cell(auditId, 0, 'first'));
      expect(await first.countCells(auditId, 1)).toBe(3);
      expect(await first.countCells(auditId, 2)).toBe(0);
    });

    it('completes a job once; the stored map reads back as the text it was stored as', async () => {
      const { first, second, audits } = await open();
      const auditId = await newAudit(audits);
      await first.createFirstJob(newJob(auditId));
      const map = { zeta: 1, summary: { questions: 2, questionsWon: 1 }, rows: [{ question: '<b>Which CRM?</b> & "why"' }] };
      const completions = await Promise.all([first.completeJob(auditId, 1, map, '2026-11-01T00:05:00.000Z'), second.completeJob(auditId, 1, { other: true }, '2026-11-01T00:06:00.000Z')]);
      expect(completions.filter(Boolean)).toHaveLength(1);
      const winner = completions[0] === true ? map : { other: true };
      expect((await second.latestCompleteJob(auditId))?.map).toEqual(winner);
      expect(await first.runningJob(auditId)).toBeUndefined();
      expect(await first.runningJobs()).toEqual([]);
      expect(await second.latestCompleteMapJson(auditId)).toEqual({ generation: 1, mapJson: JSON.stringify(winner) });
      expect(await first.mapReadState(auditId)).toEqual({ auditExists: true, completeGeneration: 1, runningGeneration: undefined });
    });

    it('starts a re-run and spends its credit together; concurrent re-runs start one and join it', async () => {
      const { first, second, audits, accounts } = await open();
      const auditId = await newAudit(audits);
      await first.createFirstJob(newJob(auditId));
      await first.completeJob(auditId, 1, { summary: { questions: 2, questionsWon: 1 } }, '2026-11-01T00:05:00.000Z');
      await accounts.grantCredits(OWNER, 3);
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, (_unused, index) => (index % 2 === 0 ? first : second).createRerunJob(newJob(auditId, 'Owner@Pipedrive.test') as NewMapJob & { chargedEmail: string })),
      );
      expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(['joined', 'joined', 'joined', 'joined', 'joined', 'started']);
      expect(outcomes.every((outcome) => outcome.outcome !== 'no_credits' && outcome.job.generation === 2)).toBe(true);
      expect((await accounts.getAccount(OWNER))?.credits).toBe(2);
      expect(await second.runningJob(auditId)).toMatchObject({ generation: 2, status: 'running', chargedEmail: OWNER });
      expect((await first.latestCompleteJob(auditId))?.generation).toBe(1);
      expect(await second.mapReadState(auditId)).toEqual({ auditExists: true, completeGeneration: 1, runningGeneration: 2 });

      await first.completeJob(auditId, 2, { summary: { questions: 2, questionsWon: 2 } }, '2026-11-02T00:05:00.000Z');
      expect(await second.completedGenerations(auditId)).toEqual([
        { generation: 2, completedAt: '2026-11-02T00:05:00.000Z', questions: 2, questionsWon: 2 },
        { generation: 1, completedAt: '2026-11-01T00:05:00.000Z', questions: 2, questionsWon: 1 },
      ]);
    });

    it('reads a map without a summary as 0 questions in the list of generations', async () => {
      const { first, audits } = await open();
      const auditId = await newAudit(audits);
      await first.createFirstJob(newJob(auditId));
      await first.completeJob(auditId, 1, { summary: { questions: 'two' } }, '2026-11-01T00:05:00.000Z');
      expect(await first.completedGenerations(auditId)).toEqual([{ generation: 1, completedAt: '2026-11-01T00:05:00.000Z', questions: 0, questionsWon: 0 }]);
    });

    it('writes nothing when the re-run cannot be paid for', async () => {
      const { first, second, audits, accounts } = await open();
      const auditId = await newAudit(audits);
      await first.createFirstJob(newJob(auditId));
      await first.completeJob(auditId, 1, {}, '2026-11-01T00:05:00.000Z');
      expect(await second.createRerunJob({ ...newJob(auditId), chargedEmail: OWNER })).toEqual({ outcome: 'no_credits' });
      await accounts.ensureAccount(OWNER);
      expect(await first.createRerunJob({ ...newJob(auditId), chargedEmail: OWNER })).toEqual({ outcome: 'no_credits' });
      expect(await first.latestGeneration(auditId)).toBe(1);
      expect(await second.runningJob(auditId)).toBeUndefined();
    });

    it('cancels a job that could not start with its cells, and refunds a paid one once', async () => {
      const { first, second, audits, accounts } = await open();
      const free = await newAudit(audits);
      await first.createFirstJob(newJob(free));
      await first.insertCell(cell(free, 0, 'asked before the start failed'));
      expect(await second.cancelJob(free, 1)).toBe(true);
      expect(await first.latestGeneration(free)).toBe(0);
      expect(await first.countCells(free, 1)).toBe(0);

      const paid = await newAudit(audits);
      await first.createFirstJob(newJob(paid));
      await first.completeJob(paid, 1, {}, '2026-11-01T00:05:00.000Z');
      await accounts.grantCredits(OWNER, 1);
      expect((await first.createRerunJob({ ...newJob(paid), chargedEmail: OWNER })).outcome).toBe('started');
      expect((await accounts.getAccount(OWNER))?.credits).toBe(0);
      const cancels = await Promise.all([first.cancelJob(paid, 2), second.cancelJob(paid, 2)]);
      expect(cancels.filter(Boolean)).toHaveLength(1);
      expect((await accounts.getAccount(OWNER))?.credits).toBe(1);
      // A complete job is never cancelled.
      expect(await first.cancelJob(paid, 1)).toBe(false);
      expect((await second.latestCompleteJob(paid))?.generation).toBe(1);
      expect((await accounts.getAccount(OWNER))?.credits).toBe(1);
    });
  });
}
