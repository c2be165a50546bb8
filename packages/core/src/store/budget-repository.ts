import type { BudgetSettlement, BudgetStore } from './ports.js';
import type { ProviderCallRecord } from './repository.js';
import { SqlRepository } from './sql-repository.js';

/** The estimate held for one provider call in flight. */
export interface BudgetReservationRecord {
  id: string;
  /** UTC month the reservation was made in, "YYYY-MM". */
  month: string;
  provider: string;
  model: string;
  estimateMicroUsd: number;
  createdAtMs: number;
}

/** Settled spend of one month plus every estimate still held, in integer micro-dollars. */
export interface BudgetTotals {
  spentMicroUsd: number;
  calls: number;
  reservedMicroUsd: number;
  reservations: number;
}

/**
 * The SQL behind the monthly provider budget (settled spend per month and open reservations) and the
 * provider call log: the SQLite adapter of BudgetStore. Every port operation is one IMMEDIATE
 * transaction, so a check and its write hold the write lock together, across processes.
 */
export class BudgetRepository extends SqlRepository implements BudgetStore {
  async totals(month: string): Promise<BudgetTotals> {
    return this.totalsNow(month);
  }

  async reserveAll(month: string, reservations: readonly BudgetReservationRecord[], ceilingMicroUsd: number): Promise<boolean> {
    const totalMicroUsd = reservations.reduce((sum, reservation) => sum + reservation.estimateMicroUsd, 0);
    return this.transaction(() => {
      const totals = this.totalsNow(month);
      if (totalMicroUsd > 0 && totals.spentMicroUsd + totals.reservedMicroUsd + totalMicroUsd > ceilingMicroUsd) return false;
      for (const reservation of reservations) this.insertReservation(reservation);
      return true;
    });
  }

  async settle(settlement: BudgetSettlement): Promise<boolean> {
    return this.transaction(() => {
      const held = this.deleteReservation(settlement.reservationId);
      // Already reclaimed as stale: its estimate is spent, so only a cost above it is still missing.
      const extraMicroUsd = held === undefined ? Math.max(0, settlement.costMicroUsd - settlement.estimateMicroUsd) : settlement.costMicroUsd;
      this.addSpend(settlement.month, extraMicroUsd, held === undefined ? 0 : 1, settlement.at);
      if (settlement.callLog !== undefined) this.insertProviderCall(settlement.callLog);
      return held !== undefined;
    });
  }

  async reclaimStale(createdBeforeMs: number, at: Date): Promise<number> {
    return this.transaction(() => {
      const stale = this.reservationsCreatedBefore(createdBeforeMs);
      for (const reservation of stale) {
        // We cannot know whether the call was billed, so assume it was, at its estimate, in its month.
        this.deleteReservation(reservation.id);
        this.addSpend(reservation.month, reservation.estimateMicroUsd, 1, at);
      }
      return stale.length;
    });
  }

  async recordProviderCall(call: ProviderCallRecord): Promise<void> {
    this.insertProviderCall(call);
  }

  private insertProviderCall(call: ProviderCallRecord): void {
    this.statement(`
      INSERT INTO provider_calls
        (provider, model, purpose, outcome, failure_kind, input_tokens, output_tokens, latency_ms, attempts, created_at)
      VALUES
        (@provider, @model, @purpose, @outcome, @failureKind, @inputTokens, @outputTokens, @latencyMs, @attempts, @createdAt)
    `).run({ ...call, failureKind: call.failureKind ?? null });
  }

  /** Spend settled in the month, and all open reservations whatever month they were made in. */
  totalsNow(month: string): BudgetTotals {
    const spend = this.statement('SELECT spent_micro_usd AS spent, calls FROM budget_spend WHERE month = ?').get(month) as
      | { spent: number; calls: number }
      | undefined;
    const reserved = this.statement(
      'SELECT COALESCE(SUM(estimate_micro_usd), 0) AS reserved, COUNT(*) AS reservations FROM budget_reservations',
    ).get() as { reserved: number; reservations: number };
    return {
      spentMicroUsd: spend?.spent ?? 0,
      calls: spend?.calls ?? 0,
      reservedMicroUsd: reserved.reserved,
      reservations: reserved.reservations,
    };
  }

  /** Stores a reservation (call inside {@link transaction} after checking the totals). */
  insertReservation(reservation: BudgetReservationRecord): void {
    this.statement(`
      INSERT INTO budget_reservations (id, month, provider, model, estimate_micro_usd, created_at)
      VALUES (@id, @month, @provider, @model, @estimateMicroUsd, @createdAtMs)
    `).run(reservation);
  }

  /** Removes a reservation; returns it, or undefined when it was already settled or reclaimed. */
  deleteReservation(id: string): BudgetReservationRecord | undefined {
    const row = this.statement(`
      DELETE FROM budget_reservations WHERE id = ?
      RETURNING id, month, provider, model, estimate_micro_usd AS estimateMicroUsd, created_at AS createdAtMs
    `).get(id) as BudgetReservationRecord | undefined;
    return row;
  }

  /** Reservations made before a moment (left behind by a process that stopped mid-call). */
  reservationsCreatedBefore(createdBeforeMs: number): BudgetReservationRecord[] {
    return this.statement(`
      SELECT id, month, provider, model, estimate_micro_usd AS estimateMicroUsd, created_at AS createdAtMs
      FROM budget_reservations WHERE created_at < ? ORDER BY created_at
    `).all(createdBeforeMs) as BudgetReservationRecord[];
  }

  /** Adds settled spend (and the number of calls it settles) to a month. */
  addSpend(month: string, microUsd: number, calls: number, updatedAt: Date): void {
    this.statement(`
      INSERT INTO budget_spend (month, spent_micro_usd, calls, updated_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (month) DO UPDATE SET
        spent_micro_usd = spent_micro_usd + excluded.spent_micro_usd,
        calls = calls + excluded.calls,
        updated_at = excluded.updated_at
    `).run(month, microUsd, calls, updatedAt.toISOString());
  }
}
