import { beforeEach, describe, expect, it } from 'vitest';
import { insertAudit } from '../map/test-support/map-fixtures.js';
import type { MapCellRecord, NewMapJob } from './map-repository.js';
import type { Store } from './store.js';
import { useTempStores } from './test-support/temp-stores.js';

const stores = useTempStores('map-repository');
let store: Store;
let other: Store;
beforeEach(() => {
  store = stores.open();
  // A second connection to the same file: what SQLite enforces holds across processes, not just in memory.
  other = stores.open();
});

function newJob(auditId: string, chargedEmail?: string): NewMapJob {
  return {
    auditId,
    mode: 'demo',
    brand: 'Pipedrive',
    website: 'https://pipedrive.test/',
    competitors: ['HubSpot'],
    questions: ['Which CRM?', 'Which cheap CRM?'],
    providers: [{ provider: 'openai', model: 'demo-gpt' }],
    chargedEmail,
    createdAt: new Date().toISOString(),
  };
}

function cell(auditId: string, questionIndex: number, answer: string): MapCellRecord {
  return {
    auditId,
    generation: 1,
    questionIndex,
    provider: 'openai',
    ok: true,
    model: 'demo-gpt-2025',
    answer,
    brands: ['Pipedrive'],
    named: true,
    position: 1,
    failureKind: null,
    failureMessage: null,
    answeredAt: new Date().toISOString(),
  };
}

describe('MapRepository', () => {
  it('creates the first job once, whichever connection asks', async () => {
    const auditId = await insertAudit(store);
    const created = Array.from({ length: 6 }, (_unused, index) => (index % 2 === 0 ? store : other).mapRepository.createFirstJob(newJob(auditId)));
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(store.mapRepository.runningJob(auditId)).toMatchObject({ generation: 1, status: 'running', questions: ['Which CRM?', 'Which cheap CRM?'] });
  });

  it('stores each cell once: a second answer for a stored cell changes nothing', async () => {
    const auditId = await insertAudit(store);
    store.mapRepository.createFirstJob(newJob(auditId));
    expect(store.mapRepository.insertCell(cell(auditId, 0, 'first'))).toBe(true);
    expect(other.mapRepository.insertCell(cell(auditId, 0, 'second'))).toBe(false);
    expect(store.mapRepository.listCells(auditId, 1).map((stored) => stored.answer)).toEqual(['first']);
    expect(store.mapRepository.countCells(auditId, 1)).toBe(1);
  });

  it('starts a re-run and spends its credit in one transaction; a running job is joined without spending', async () => {
    const auditId = await insertAudit(store);
    store.mapRepository.createFirstJob(newJob(auditId));
    store.mapRepository.completeJob(auditId, 1, { generation: 1 }, new Date().toISOString());
    await store.accountRepository.grantCredits('owner@pipedrive.test', 1);
    const spend = (repositories: Store) => () => repositories.accountRepository.spendCreditNow('owner@pipedrive.test');
    const outcomes = Array.from({ length: 4 }, (_unused, index) => {
      const connection = index % 2 === 0 ? store : other;
      return connection.mapRepository.createRerunJob(newJob(auditId, 'Owner@Pipedrive.test'), spend(connection)).outcome;
    });
    expect(outcomes).toEqual(['started', 'joined', 'joined', 'joined']);
    expect((await store.accountRepository.getAccount('owner@pipedrive.test'))?.credits).toBe(0);
    expect(store.mapRepository.runningJob(auditId)).toMatchObject({ generation: 2, chargedEmail: 'owner@pipedrive.test' });
    expect(store.mapRepository.latestCompleteJob(auditId)?.map).toEqual({ generation: 1 });
  });

  it('writes nothing when the re-run cannot be paid for', async () => {
    const auditId = await insertAudit(store);
    store.mapRepository.createFirstJob(newJob(auditId));
    store.mapRepository.completeJob(auditId, 1, {}, new Date().toISOString());
    expect(store.mapRepository.createRerunJob(newJob(auditId, 'owner@pipedrive.test'), () => false)).toEqual({ outcome: 'no_credits' });
    expect(store.mapRepository.latestGeneration(auditId)).toBe(1);
  });

  it('cancels a job that could not start together with its refund', async () => {
    const auditId = await insertAudit(store);
    store.mapRepository.createFirstJob(newJob(auditId));
    let refunds = 0;
    store.mapRepository.cancelJob(auditId, 1, () => (refunds += 1));
    store.mapRepository.cancelJob(auditId, 1, () => (refunds += 1));
    expect(refunds).toBe(1);
    expect(store.mapRepository.latestGeneration(auditId)).toBe(0);
  });

  it('completes a job once, and lists only running jobs for resume', async () => {
    const first = await insertAudit(store);
    const second = await insertAudit(store);
    store.mapRepository.createFirstJob(newJob(first));
    store.mapRepository.createFirstJob(newJob(second));
    expect(store.mapRepository.completeJob(first, 1, { done: true }, new Date().toISOString())).toBe(true);
    expect(other.mapRepository.completeJob(first, 1, { done: 'twice' }, new Date().toISOString())).toBe(false);
    expect(store.mapRepository.latestCompleteJob(first)?.map).toEqual({ done: true });
    expect(store.mapRepository.runningJobs().map((job) => job.auditId)).toEqual([second]);
  });
});
