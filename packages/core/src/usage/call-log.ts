import type { Repository } from '../store/repository.js';
import { ProviderFailure, type AskRequest, type Answer, type Provider } from '../providers/types.js';

/** Wraps a provider so every call, successful or failed, lands in the store's call log. */
export function withCallLog(provider: Provider, repository: Repository, now: () => Date = () => new Date()): Provider {
  return {
    id: provider.id,
    model: provider.model,
    async ask(request: AskRequest): Promise<Answer> {
      const startedAt = Date.now();
      try {
        const answer = await provider.ask(request);
        repository.recordProviderCall({
          provider: provider.id,
          model: answer.model,
          purpose: request.purpose ?? 'unspecified',
          outcome: 'ok',
          inputTokens: answer.usage.inputTokens,
          outputTokens: answer.usage.outputTokens,
          latencyMs: Math.round(answer.latencyMs),
          attempts: answer.attempts,
          createdAt: now().toISOString(),
        });
        return answer;
      } catch (error) {
        repository.recordProviderCall({
          provider: provider.id,
          model: provider.model,
          purpose: request.purpose ?? 'unspecified',
          outcome: 'failed',
          failureKind: error instanceof ProviderFailure ? error.kind : 'unavailable',
          inputTokens: 0,
          outputTokens: 0,
          latencyMs: Date.now() - startedAt,
          attempts: error instanceof ProviderFailure ? error.attempts : 1,
          createdAt: now().toISOString(),
        });
        throw error;
      }
    },
  };
}
