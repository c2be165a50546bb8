import type { Budget } from '../budget/index.js';
import type { BrandExtractor } from '../extraction/second-opinion.js';
import type { Provider, ProviderId } from '../providers/types.js';
import { budgetError } from './errors.js';

/** What a quick measurement runs against: the enabled providers and, when the service has one, the monthly budget. */
export interface MeasurementDependencies {
  /** The enabled providers, already wrapped (retries, concurrency cap, budget, call log) as the service composes them. */
  lineup: ReadonlyMap<ProviderId, Provider>;
  /** Only asked whether money is left and when it renews; spending is the providers' `withBudget` wrapper's job. */
  budget?: Pick<Budget, 'hasBudgetLeft' | 'status'> | undefined;
  /** Reads the brands out of each answer: EXTRACTION's choice, the rules when absent. */
  brandExtractor?: BrandExtractor | undefined;
}

/** One step of a measurement done, for a progress display. */
export interface MeasurementProgress {
  completed: number;
  total: number;
  /** What just finished, e.g. "run 3 of 5: ok" or "recognition". */
  label: string;
}

export interface MeasurementOptions {
  /** Cancels every call still in flight; the measurement then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  onProgress?: ((event: MeasurementProgress) => void) | undefined;
  /**
   * Called once, after the provider and budget checks pass and right before the first provider call
   * (the REST layer takes its rate-limit slot here, so a refused request costs none). If it throws, the
   * measurement rejects with that error and no provider is called. Its return value is ignored.
   */
  beforeSpend?: (() => unknown) | undefined;
}

/** Throws the 503 `budget` error when the month's budget cannot pay for a call to this model. */
export async function assertBudgetLeft(budget: MeasurementDependencies['budget'], model: string): Promise<void> {
  if (budget === undefined || (await budget.hasBudgetLeft(model))) return;
  throw budgetError((await budget.status()).resetAt);
}
