import { randomUUID } from 'node:crypto';
import type { BudgetStore } from '../store/ports.js';
import type { ProviderCallRecord } from '../store/repository.js';
import type { TokenUsage } from '../providers/types.js';
import { createPriceTable, type ModelPrice, type PriceTable } from './prices.js';

/** Where the monthly budget stands, in integer micro-dollars (and dollars for display). */
export interface BudgetStatus {
  /** The UTC calendar month, "YYYY-MM". */
  month: string;
  capMicroUsd: number;
  /** The part of the cap only degraded audits may spend (see {@link BudgetOptions.degradedReserveFraction}). */
  degradedReserveMicroUsd: number;
  /** Settled spend of this month. */
  spentMicroUsd: number;
  /** Estimates of calls still in flight. */
  reservedMicroUsd: number;
  /** What is left for ordinary calls: cap - degraded reserve - spent - reserved, never below zero. */
  remainingMicroUsd: number;
  /** What is left for degraded audits: cap - spent - reserved, never below zero (the reserve plus any ordinary money left). */
  degradedRemainingMicroUsd: number;
  capUsd: number;
  degradedReserveUsd: number;
  spentUsd: number;
  reservedUsd: number;
  remainingUsd: number;
  degradedRemainingUsd: number;
  /** True when nothing is left for an ordinary call that costs money: repeat and check answer 503, audits degrade. */
  exhausted: boolean;
  /** When the next month (and a fresh budget) starts, 00:00 UTC on its first day. */
  resetAt: Date;
}

/** An estimate held for one call; hand it back to {@link Budget.settle} when the call ends. */
export interface BudgetReservation {
  readonly id: string;
  readonly provider: string;
  readonly model: string;
  readonly month: string;
  readonly estimateMicroUsd: number;
  readonly createdAt: Date;
}

/** What a call about to be made needs reserved. */
export interface ReserveRequest {
  provider: string;
  model: string;
  prompt: string;
  /** The answer-length cap the call runs with; the estimate assumes all of it is used. */
  maxOutputTokens: number;
}

/** A degraded audit's allowance: one reservation per planned call, in the order asked for. */
export type AllowanceOutcome =
  | { granted: true; reservations: BudgetReservation[] }
  | {
      granted: false;
      /** Whole seconds until the month turns, at least 1. */
      retryAfterSeconds: number;
      resetAt: Date;
      status: BudgetStatus;
    };

export type ReserveOutcome =
  | { granted: true; reservation: BudgetReservation }
  | {
      granted: false;
      /** Whole seconds until the month turns, at least 1. */
      retryAfterSeconds: number;
      resetAt: Date;
      status: BudgetStatus;
    };

/** What a finished call actually used; omit it (or the usage) for a call that failed without usage. */
export interface SettleOutcome {
  /** The model that answered, when it differs from the one reserved for (e.g. a dated snapshot). */
  model?: string | undefined;
  usage?: TokenUsage | undefined;
}

export interface Budget {
  readonly prices: PriceTable;
  /** Spent, reserved, cap and remaining for the current month. */
  status(): Promise<BudgetStatus>;
  /** Whether a call can still be paid for; a model that costs nothing always can (the degraded-mode hook). */
  hasBudgetLeft(model?: string): Promise<boolean>;
  /** Holds an estimate for one call, or refuses when spent + reserved + estimate would pass the cap less the degraded reserve. */
  reserve(request: ReserveRequest): Promise<ReserveOutcome>;
  /**
   * A degraded audit's allowance: reserves every planned call at once, all or none, against the whole cap
   * (the degraded reserve included), so once granted each call is paid for. Hand each reservation to its
   * call (`AskRequest.budgetReservation`) and settle the ones never used.
   */
  reserveAllowance(requests: readonly ReserveRequest[]): Promise<AllowanceOutcome>;
  /**
   * Releases a reservation and adds the call's real cost; returns that cost in micro-dollars.
   * `callLog` (the call's log row) is written in the same transaction, so a crash can never leave a
   * settled call unlogged or a logged call unsettled.
   */
  settle(reservation: BudgetReservation, outcome?: SettleOutcome, callLog?: ProviderCallRecord): Promise<number>;
  /** Turns reservations older than the stale age into spend at their estimate; returns how many. */
  reclaimStaleReservations(): Promise<number>;
}

export interface BudgetOptions {
  /** The cap (MONTHLY_BUDGET_USD). */
  monthlyBudgetUsd: number;
  /** Operator prices (MODEL_PRICES) merged over the defaults. Ignored when `prices` is given. */
  modelPrices?: Readonly<Record<string, ModelPrice>>;
  /** A ready price table, for tests. */
  prices?: PriceTable;
  /** The clock; tests pass a fake one. */
  now?: () => Date;
  /** Age after which an unsettled reservation is taken as spent (default 10 minutes). */
  staleReservationMs?: number;
  /**
   * The share of the cap kept back for degraded audits (default {@link DEFAULT_DEGRADED_RESERVE_FRACTION}):
   * ordinary calls stop at cap x (1 - fraction), degraded audits may spend up to the cap.
   */
  degradedReserveFraction?: number;
}

/** A tenth of the month's cap is kept so that audits still ask every provider once when the rest is spent. */
export const DEFAULT_DEGRADED_RESERVE_FRACTION = 0.1;

/** No provider call lasts this long (timeouts and retries end far sooner), so a reservation this old was orphaned. */
export const DEFAULT_STALE_RESERVATION_MS = 10 * 60_000;

/**
 * Creates the monthly budget over the store (the BudgetStore port); reservations a stopped process left
 * behind are reclaimed before its first answer, and at most once a minute after.
 */
export function createBudget(repository: BudgetStore, options: BudgetOptions): Budget {
  if (!Number.isFinite(options.monthlyBudgetUsd) || options.monthlyBudgetUsd < 0) {
    throw new TypeError('monthlyBudgetUsd must be a number of US dollars >= 0');
  }
  const reserveFraction = options.degradedReserveFraction ?? DEFAULT_DEGRADED_RESERVE_FRACTION;
  if (!Number.isFinite(reserveFraction) || reserveFraction < 0 || reserveFraction > 1) {
    throw new TypeError('degradedReserveFraction must be a number from 0 to 1');
  }
  const capMicroUsd = Math.round(options.monthlyBudgetUsd * 1_000_000);
  const degradedReserveMicroUsd = Math.round(capMicroUsd * reserveFraction);
  // Ordinary calls stop here; only a degraded audit's allowance may go on to the cap.
  const ordinaryCapMicroUsd = capMicroUsd - degradedReserveMicroUsd;
  const prices = options.prices ?? createPriceTable(options.modelPrices ?? {});
  const now = options.now ?? (() => new Date());
  const staleAfterMs = options.staleReservationMs ?? DEFAULT_STALE_RESERVATION_MS;
  const settled = new WeakSet<BudgetReservation>();
  let lastReclaimMs = Number.NEGATIVE_INFINITY;

  async function statusAt(moment: Date): Promise<BudgetStatus> {
    const month = monthOf(moment);
    const totals = await repository.totals(month);
    const remainingMicroUsd = Math.max(0, ordinaryCapMicroUsd - totals.spentMicroUsd - totals.reservedMicroUsd);
    const degradedRemainingMicroUsd = Math.max(0, capMicroUsd - totals.spentMicroUsd - totals.reservedMicroUsd);
    return {
      month,
      capMicroUsd,
      degradedReserveMicroUsd,
      spentMicroUsd: totals.spentMicroUsd,
      reservedMicroUsd: totals.reservedMicroUsd,
      remainingMicroUsd,
      degradedRemainingMicroUsd,
      capUsd: toUsd(capMicroUsd),
      degradedReserveUsd: toUsd(degradedReserveMicroUsd),
      spentUsd: toUsd(totals.spentMicroUsd),
      reservedUsd: toUsd(totals.reservedMicroUsd),
      remainingUsd: toUsd(remainingMicroUsd),
      degradedRemainingUsd: toUsd(degradedRemainingMicroUsd),
      exhausted: remainingMicroUsd === 0,
      resetAt: nextMonthStart(moment),
    };
  }

  function reclaimStaleReservations(): Promise<number> {
    const nowMs = now().getTime();
    lastReclaimMs = nowMs;
    return repository.reclaimStale(nowMs - staleAfterMs, new Date(nowMs));
  }

  /** Reclaims at most once a minute (and before the first answer), so a process that crashed mid-call is noticed without a restart. */
  async function reclaimOccasionally(): Promise<void> {
    if (now().getTime() - lastReclaimMs >= 60_000) await reclaimStaleReservations();
  }

  async function refusal(moment: Date): Promise<Extract<ReserveOutcome, { granted: false }>> {
    const status = await statusAt(moment);
    return {
      granted: false,
      retryAfterSeconds: Math.max(1, Math.ceil((status.resetAt.getTime() - moment.getTime()) / 1000)),
      resetAt: status.resetAt,
      status,
    };
  }

  /** Stores the reservations when spent + reserved + their estimates fit under the ceiling (free calls always fit), all or none, atomically. */
  async function reserveAll(requests: readonly ReserveRequest[], ceilingMicroUsd: number, moment: Date): Promise<BudgetReservation[] | undefined> {
    const month = monthOf(moment);
    const granted = requests.map((request) => ({
      id: randomUUID(),
      provider: request.provider,
      model: request.model,
      month,
      estimateMicroUsd: prices.estimateMicroUsd(request.model, request),
      createdAt: moment,
    }));
    // The check and the inserts are one atomic store operation, so concurrent reservations cannot overspend.
    const stored = await repository.reserveAll(
      month,
      granted.map(({ createdAt, ...reservation }) => ({ ...reservation, createdAtMs: createdAt.getTime() })),
      ceilingMicroUsd,
    );
    return stored ? granted : undefined;
  }

  return {
    prices,
    async status() {
      await reclaimOccasionally();
      return statusAt(now());
    },
    async hasBudgetLeft(model) {
      if (model !== undefined && prices.isFree(model)) return true;
      await reclaimOccasionally();
      return !(await statusAt(now())).exhausted;
    },
    async reserve(request) {
      await reclaimOccasionally();
      const moment = now();
      const [reservation] = (await reserveAll([request], ordinaryCapMicroUsd, moment)) ?? [];
      return reservation === undefined ? refusal(moment) : { granted: true, reservation };
    },
    async reserveAllowance(requests) {
      await reclaimOccasionally();
      const moment = now();
      const reservations = await reserveAll(requests, capMicroUsd, moment);
      return reservations === undefined ? refusal(moment) : { granted: true, reservations };
    },
    async settle(reservation, outcome = {}, callLog) {
      // Settling twice would count the call twice; the second time only logs.
      if (settled.has(reservation)) {
        if (callLog !== undefined) await repository.recordProviderCall(callLog);
        return 0;
      }
      settled.add(reservation);
      const moment = now();
      const costMicroUsd =
        outcome.usage === undefined ? 0 : prices.costMicroUsd(outcome.model ?? reservation.model, outcome.usage);
      await repository.settle({
        reservationId: reservation.id,
        estimateMicroUsd: reservation.estimateMicroUsd,
        costMicroUsd,
        month: monthOf(moment),
        at: moment,
        callLog,
      });
      return costMicroUsd;
    },
    reclaimStaleReservations,
  };
}

/** The UTC calendar month of a moment, "YYYY-MM". */
export function monthOf(moment: Date): string {
  return moment.toISOString().slice(0, 7);
}

/** 00:00 UTC on the first day of the month after the moment's. */
export function nextMonthStart(moment: Date): Date {
  return new Date(Date.UTC(moment.getUTCFullYear(), moment.getUTCMonth() + 1, 1));
}

function toUsd(microUsd: number): number {
  return microUsd / 1_000_000;
}
