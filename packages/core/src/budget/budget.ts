import { randomUUID } from 'node:crypto';
import type { BudgetRepository } from '../store/budget-repository.js';
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
  status(): BudgetStatus;
  /** Whether a call can still be paid for; a model that costs nothing always can (the degraded-mode hook). */
  hasBudgetLeft(model?: string): boolean;
  /** Holds an estimate for one call, or refuses when spent + reserved + estimate would pass the cap less the degraded reserve. */
  reserve(request: ReserveRequest): ReserveOutcome;
  /**
   * A degraded audit's allowance: reserves every planned call at once, all or none, against the whole cap
   * (the degraded reserve included), so once granted each call is paid for. Hand each reservation to its
   * call (`AskRequest.budgetReservation`) and settle the ones never used.
   */
  reserveAllowance(requests: readonly ReserveRequest[]): AllowanceOutcome;
  /**
   * Releases a reservation and adds the call's real cost; returns that cost in micro-dollars.
   * `alsoRecord` runs in the same transaction (the call-log row), so a crash can never leave a
   * settled call unlogged or a logged call unsettled.
   */
  settle(reservation: BudgetReservation, outcome?: SettleOutcome, alsoRecord?: () => void): number;
  /** Turns reservations older than the stale age into spend at their estimate; returns how many. */
  reclaimStaleReservations(): number;
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

/** Creates the monthly budget over the store and reclaims reservations a stopped process left behind. */
export function createBudget(repository: BudgetRepository, options: BudgetOptions): Budget {
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

  function statusAt(moment: Date): BudgetStatus {
    const month = monthOf(moment);
    const totals = repository.totals(month);
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

  function reclaimStaleReservations(): number {
    const nowMs = now().getTime();
    lastReclaimMs = nowMs;
    return repository.transaction(() => {
      const stale = repository.reservationsCreatedBefore(nowMs - staleAfterMs);
      for (const reservation of stale) {
        // We cannot know whether the call was billed, so assume it was, at its estimate, in its month.
        repository.deleteReservation(reservation.id);
        repository.addSpend(reservation.month, reservation.estimateMicroUsd, 1, new Date(nowMs));
      }
      return stale.length;
    });
  }

  /** Reclaims at most once a minute, so a process that crashed mid-call is noticed without a restart. */
  function reclaimOccasionally(): void {
    if (now().getTime() - lastReclaimMs >= 60_000) reclaimStaleReservations();
  }

  reclaimStaleReservations();

  function refusal(moment: Date): Extract<ReserveOutcome, { granted: false }> {
    const status = statusAt(moment);
    return {
      granted: false,
      retryAfterSeconds: Math.max(1, Math.ceil((status.resetAt.getTime() - moment.getTime()) / 1000)),
      resetAt: status.resetAt,
      status,
    };
  }

  /** Stores the reservations when spent + reserved + their estimates fit under the ceiling (free calls always fit), in one IMMEDIATE transaction. */
  function reserveAll(requests: readonly ReserveRequest[], ceilingMicroUsd: number, moment: Date): BudgetReservation[] | undefined {
    const estimates = requests.map((request) => prices.estimateMicroUsd(request.model, request));
    const totalMicroUsd = estimates.reduce((sum, estimate) => sum + estimate, 0);
    // The check and the inserts share one transaction, so concurrent reservations cannot overspend.
    return repository.transaction((): BudgetReservation[] | undefined => {
      const month = monthOf(moment);
      const totals = repository.totals(month);
      // Free calls (demo lineup) never spend money, so they are never refused.
      if (totalMicroUsd > 0 && totals.spentMicroUsd + totals.reservedMicroUsd + totalMicroUsd > ceilingMicroUsd) return undefined;
      return requests.map((request, index) => {
        const granted = {
          id: randomUUID(),
          provider: request.provider,
          model: request.model,
          month,
          estimateMicroUsd: estimates[index] ?? 0,
          createdAt: moment,
        };
        repository.insertReservation({ ...granted, createdAtMs: moment.getTime() });
        return granted;
      });
    });
  }

  return {
    prices,
    status() {
      reclaimOccasionally();
      return statusAt(now());
    },
    hasBudgetLeft(model) {
      if (model !== undefined && prices.isFree(model)) return true;
      reclaimOccasionally();
      return !statusAt(now()).exhausted;
    },
    reserve(request) {
      reclaimOccasionally();
      const moment = now();
      const [reservation] = reserveAll([request], ordinaryCapMicroUsd, moment) ?? [];
      return reservation === undefined ? refusal(moment) : { granted: true, reservation };
    },
    reserveAllowance(requests) {
      reclaimOccasionally();
      const moment = now();
      const reservations = reserveAll(requests, capMicroUsd, moment);
      return reservations === undefined ? refusal(moment) : { granted: true, reservations };
    },
    settle(reservation, outcome = {}, alsoRecord) {
      // Settling twice would count the call twice; the second time is a no-op.
      if (settled.has(reservation)) {
        alsoRecord?.();
        return 0;
      }
      settled.add(reservation);
      const moment = now();
      const costMicroUsd =
        outcome.usage === undefined ? 0 : prices.costMicroUsd(outcome.model ?? reservation.model, outcome.usage);
      repository.transaction(() => {
        const held = repository.deleteReservation(reservation.id);
        // Already reclaimed as stale: its estimate is spent, so only a cost above it is still missing.
        const extraMicroUsd = held === undefined ? Math.max(0, costMicroUsd - reservation.estimateMicroUsd) : costMicroUsd;
        repository.addSpend(monthOf(moment), extraMicroUsd, held === undefined ? 0 : 1, moment);
        alsoRecord?.();
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
