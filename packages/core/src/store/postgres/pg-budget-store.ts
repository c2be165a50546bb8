import type pg from 'pg';
import type { BudgetReservationRecord, BudgetTotals } from '../budget-repository.js';
import type { BudgetSettlement, BudgetStore } from '../ports.js';
import type { ProviderCallRecord } from '../repository.js';
import { inTransaction, type PgPool } from './pool.js';

/** Every budget write takes this transaction-scoped advisory lock first: reservations and settlements queue on it, across instances. */
const BUDGET_LOCK_KEY = 0x5649_5342; // "VISB"

type Queryable = Pick<pg.PoolClient, 'query'>;

async function totalsOf(client: Queryable, month: string): Promise<BudgetTotals> {
  const { rows } = await client.query<{ spent: string | null; calls: number | null; reserved: string; reservations: string }>(
    `SELECT (SELECT spent_micro_usd FROM budget_spend WHERE month = $1) AS spent,
            (SELECT calls FROM budget_spend WHERE month = $1) AS calls,
            COALESCE(SUM(estimate_micro_usd), 0) AS reserved, COUNT(*) AS reservations
     FROM budget_reservations`,
    [month],
  );
  const row = rows[0];
  return {
    spentMicroUsd: Number(row?.spent ?? 0),
    calls: row?.calls ?? 0,
    reservedMicroUsd: Number(row?.reserved ?? 0),
    reservations: Number(row?.reservations ?? 0),
  };
}

async function addSpend(client: Queryable, month: string, microUsd: number, calls: number, at: Date): Promise<void> {
  await client.query(
    `INSERT INTO budget_spend (month, spent_micro_usd, calls, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (month) DO UPDATE SET spent_micro_usd = budget_spend.spent_micro_usd + EXCLUDED.spent_micro_usd,
       calls = budget_spend.calls + EXCLUDED.calls, updated_at = EXCLUDED.updated_at`,
    [month, microUsd, calls, at.toISOString()],
  );
}

async function insertCall(client: Queryable, call: ProviderCallRecord): Promise<void> {
  await client.query(
    `INSERT INTO provider_calls (provider, model, purpose, outcome, failure_kind, input_tokens, output_tokens, latency_ms, attempts, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [call.provider, call.model, call.purpose, call.outcome, call.failureKind ?? null, call.inputTokens, call.outputTokens, call.latencyMs, call.attempts, call.createdAt],
  );
}

/**
 * The PostgreSQL adapter of BudgetStore. A reservation's check and insert run in one transaction holding
 * one advisory lock (the budget is one shared counter: all instances queue on it, so 200 concurrent
 * callers never overspend); a settlement deletes the reservation, adds the spend and writes the call-log
 * row in one transaction.
 */
export class PgBudgetStore implements BudgetStore {
  constructor(private readonly pool: PgPool) {}

  totals(month: string): Promise<BudgetTotals> {
    return totalsOf(this.pool, month);
  }

  reserveAll(month: string, reservations: readonly BudgetReservationRecord[], ceilingMicroUsd: number): Promise<boolean> {
    const totalMicroUsd = reservations.reduce((sum, reservation) => sum + reservation.estimateMicroUsd, 0);
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [BUDGET_LOCK_KEY]);
      const totals = await totalsOf(client, month);
      if (totalMicroUsd > 0 && totals.spentMicroUsd + totals.reservedMicroUsd + totalMicroUsd > ceilingMicroUsd) return false;
      for (const reservation of reservations) {
        await client.query(
          'INSERT INTO budget_reservations (id, month, provider, model, estimate_micro_usd, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
          [reservation.id, reservation.month, reservation.provider, reservation.model, reservation.estimateMicroUsd, reservation.createdAtMs],
        );
      }
      return true;
    });
  }

  settle(settlement: BudgetSettlement): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [BUDGET_LOCK_KEY]);
      const held = await client.query('DELETE FROM budget_reservations WHERE id = $1', [settlement.reservationId]);
      const wasHeld = held.rowCount === 1;
      // Already reclaimed as stale: its estimate is spent, so only a cost above it is still missing.
      const extraMicroUsd = wasHeld ? settlement.costMicroUsd : Math.max(0, settlement.costMicroUsd - settlement.estimateMicroUsd);
      await addSpend(client, settlement.month, extraMicroUsd, wasHeld ? 1 : 0, settlement.at);
      if (settlement.callLog !== undefined) await insertCall(client, settlement.callLog);
      return wasHeld;
    });
  }

  reclaimStale(createdBeforeMs: number, at: Date): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [BUDGET_LOCK_KEY]);
      const { rows } = await client.query<{ month: string; estimate: string }>(
        'DELETE FROM budget_reservations WHERE created_at < $1 RETURNING month, estimate_micro_usd AS estimate',
        [createdBeforeMs],
      );
      // We cannot know whether the call was billed, so assume it was, at its estimate, in its month.
      for (const row of rows) await addSpend(client, row.month, Number(row.estimate), 1, at);
      return rows.length;
    });
  }

  async recordProviderCall(call: ProviderCallRecord): Promise<void> {
    await insertCall(this.pool, call);
  }
}
