import type { ProviderCallRecord, Repository } from '../store/repository.js';
import { ProviderFailure, type AskRequest, type Answer, type Provider } from '../providers/types.js';

/** Records one call in the store's call log: its answer, or the failure that ended it. */
export function recordProviderCall(
  repository: Pick<Repository, 'recordProviderCall'>,
  provider: Pick<Provider, 'id' | 'model'>,
  request: AskRequest,
  result: { answer: Answer } | { error: unknown; latencyMs: number },
  now: () => Date = () => new Date(),
): void {
  repository.recordProviderCall(providerCallRecord(provider, request, result, now));
}

/** The call-log row of one call: its answer, or the failure that ended it. */
export function providerCallRecord(
  provider: Pick<Provider, 'id' | 'model'>,
  request: AskRequest,
  result: { answer: Answer } | { error: unknown; latencyMs: number },
  now: () => Date = () => new Date(),
): ProviderCallRecord {
  if ('answer' in result) {
    const { answer } = result;
    return {
      provider: provider.id,
      model: answer.model,
      purpose: request.purpose ?? 'unspecified',
      outcome: 'ok',
      inputTokens: answer.usage.inputTokens,
      outputTokens: answer.usage.outputTokens,
      latencyMs: Math.round(answer.latencyMs),
      attempts: answer.attempts,
      createdAt: now().toISOString(),
    };
  }
  const { error } = result;
  return {
    provider: provider.id,
    model: provider.model,
    purpose: request.purpose ?? 'unspecified',
    outcome: 'failed',
    failureKind: error instanceof ProviderFailure ? error.kind : 'unavailable',
    inputTokens: 0,
    outputTokens: 0,
    latencyMs: result.latencyMs,
    attempts: error instanceof ProviderFailure ? error.attempts : 1,
    createdAt: now().toISOString(),
  };
}

/**
 * Wraps a provider so every call, successful or failed, lands in the store's call log. (A budgeted
 * provider logs through `withBudget`'s `callLog` option instead, in the same transaction as its spend.)
 */
export function withCallLog(provider: Provider, repository: Repository, now: () => Date = () => new Date()): Provider {
  return {
    id: provider.id,
    model: provider.model,
    async ask(request: AskRequest): Promise<Answer> {
      const startedAt = Date.now();
      try {
        const answer = await provider.ask(request);
        recordProviderCall(repository, provider, request, { answer }, now);
        return answer;
      } catch (error) {
        recordProviderCall(repository, provider, request, { error, latencyMs: Date.now() - startedAt }, now);
        throw error;
      }
    },
  };
}
