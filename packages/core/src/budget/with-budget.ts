import { DEFAULT_MAX_OUTPUT_TOKENS } from '../providers/adapter-options.js';
import { ProviderFailure, type Answer, type AskRequest, type Provider } from '../providers/types.js';
import type { ProviderCallRecord } from '../store/repository.js';
import { providerCallRecord } from '../usage/call-log.js';
import type { Budget, BudgetReservation } from './budget.js';

export interface WithBudgetOptions {
  /** The answer-length cap the inner adapter uses when a request names none (default 1024, the adapters' default). */
  defaultMaxOutputTokens?: number;
  /**
   * Log every call: a settled call's row is written by the budget's store in the same transaction as
   * its settlement (a process killed between the two writes can then neither pay for a call it did not
   * log nor log one it did not pay for); a call the budget refused is logged here. Pass the same store.
   */
  callLog?: { recordProviderCall(call: ProviderCallRecord): unknown } | undefined;
}

/**
 * Wraps a provider so every call reserves its estimate first and settles its real cost after; when the
 * month's budget cannot cover the estimate it throws a `budget` ProviderFailure without calling the provider.
 * A call that brings its own reservation (a degraded audit's allowance) uses it instead of reserving.
 */
export function withBudget(provider: Provider, budget: Budget, options: WithBudgetOptions = {}): Provider {
  const defaultMaxOutputTokens = options.defaultMaxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  async function reserveOrThrow(request: AskRequest): Promise<BudgetReservation> {
    const outcome = await budget.reserve({
      provider: provider.id,
      model: provider.model,
      prompt: request.prompt,
      maxOutputTokens: request.maxOutputTokens ?? defaultMaxOutputTokens,
    });
    if (outcome.granted) return outcome.reservation;
    throw new ProviderFailure({
      kind: 'budget',
      provider: provider.id,
      // Waiting seconds will not refill it; only the new month does, which retryAfterMs states.
      retryable: false,
      retryAfterMs: outcome.retryAfterSeconds * 1000,
      message: `the monthly provider budget is used up; it renews at ${outcome.resetAt.toISOString()}`,
    });
  }
  const callLog = options.callLog;
  return {
    id: provider.id,
    model: provider.model,
    async ask(request: AskRequest): Promise<Answer> {
      const startedAt = Date.now();
      let reservation;
      try {
        reservation = request.budgetReservation ?? (await reserveOrThrow(request));
      } catch (error) {
        if (callLog !== undefined) await callLog.recordProviderCall(providerCallRecord(provider, request, { error, latencyMs: Date.now() - startedAt }));
        throw error;
      }
      let answer: Answer;
      try {
        answer = await provider.ask(request);
      } catch (error) {
        // A failed call reports no usage, so it settles at zero and frees its reservation.
        const latencyMs = Date.now() - startedAt;
        await budget.settle(reservation, {}, callLog === undefined ? undefined : providerCallRecord(provider, request, { error, latencyMs }));
        throw error;
      }
      await budget.settle(reservation, { model: answer.model, usage: answer.usage }, callLog === undefined ? undefined : providerCallRecord(provider, request, { answer }));
      return answer;
    },
  };
}
