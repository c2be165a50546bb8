import type { AccountRepository } from './account-repository.js';
import type { MapCellRecord, MapJobRecord, MapRepository, NewMapJob, RerunStart } from './map-repository.js';
import type { CompletedMapGeneration, MapReadState, MapStore } from './ports.js';

/**
 * The SQLite adapter of MapStore: the map repository's statements and transactions behind the async
 * port. The repository stays the synchronous SQLite API its current callers use (the map read's fast
 * path before Express, the map runner) until they move to this port; both work on one database, so
 * what one writes the other reads.
 */
export class SqliteMapStore implements MapStore {
  constructor(
    private readonly maps: MapRepository,
    private readonly accounts: AccountRepository,
  ) {}

  async createFirstJob(job: NewMapJob): Promise<boolean> {
    return this.maps.createFirstJob(job);
  }

  async createRerunJob(job: NewMapJob & { chargedEmail: string }, now: Date = new Date()): Promise<RerunStart> {
    // The spend joins the re-run's write transaction (same database): both happen or neither.
    return this.maps.createRerunJob(job, () => this.accounts.spendCreditNow(job.chargedEmail, now));
  }

  async cancelJob(auditId: string, generation: number, now: Date = new Date()): Promise<boolean> {
    // Who paid is fixed when the job is created; the refund runs only if this call removed the job.
    const chargedEmail = this.maps.job(auditId, generation)?.chargedEmail;
    let removed = false;
    this.maps.cancelJob(auditId, generation, () => {
      removed = true;
      if (chargedEmail !== undefined) this.accounts.refundCreditNow(chargedEmail, now);
    });
    return removed;
  }

  async latestGeneration(auditId: string): Promise<number> {
    return this.maps.latestGeneration(auditId);
  }

  async job(auditId: string, generation: number): Promise<MapJobRecord | undefined> {
    return this.maps.job(auditId, generation);
  }

  async runningJob(auditId: string): Promise<MapJobRecord | undefined> {
    return this.maps.runningJob(auditId);
  }

  async latestCompleteJob(auditId: string): Promise<MapJobRecord | undefined> {
    return this.maps.latestCompleteJob(auditId);
  }

  async mapReadState(auditId: string): Promise<MapReadState> {
    return this.maps.mapReadState(auditId);
  }

  async latestCompleteMapJson(auditId: string): Promise<{ generation: number; mapJson: string } | undefined> {
    return this.maps.latestCompleteMapJson(auditId);
  }

  async completedGenerations(auditId: string): Promise<CompletedMapGeneration[]> {
    return this.maps.completedGenerations(auditId);
  }

  async runningJobs(): Promise<MapJobRecord[]> {
    return this.maps.runningJobs();
  }

  async insertCell(cell: MapCellRecord): Promise<boolean> {
    return this.maps.insertCell(cell);
  }

  async listCells(auditId: string, generation: number): Promise<MapCellRecord[]> {
    return this.maps.listCells(auditId, generation);
  }

  async countCells(auditId: string, generation: number): Promise<number> {
    return this.maps.countCells(auditId, generation);
  }

  async completeJob(auditId: string, generation: number, map: Record<string, unknown>, completedAt: string): Promise<boolean> {
    return this.maps.completeJob(auditId, generation, map, completedAt);
  }
}
