export { createBudget, DEFAULT_DEGRADED_RESERVE_FRACTION, DEFAULT_STALE_RESERVATION_MS, monthOf, nextMonthStart } from './budget.js';
export type { AllowanceOutcome, Budget, BudgetOptions, BudgetReservation, BudgetStatus, ReserveOutcome, ReserveRequest, SettleOutcome } from './budget.js';
export {
  createPriceTable,
  DEFAULT_MODEL_PRICES,
  DEMO_MODEL_PRICE,
  estimateInputTokens,
  UNKNOWN_MODEL_PRICE,
} from './prices.js';
export type { CostEstimateRequest, ModelPrice, PriceLookup, PriceSource, PriceTable } from './prices.js';
export { withBudget } from './with-budget.js';
export type { WithBudgetOptions } from './with-budget.js';
