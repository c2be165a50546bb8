import { Semaphore } from './semaphore.js';
import type { Answer, AskRequest, Provider } from './types.js';

/** Wraps a provider so at most `maxConcurrent` of its calls are in flight; the rest queue in order. */
export function withConcurrencyLimit(provider: Provider, maxConcurrent: number): Provider {
  const semaphore = new Semaphore(maxConcurrent);
  return {
    id: provider.id,
    model: provider.model,
    async ask(request: AskRequest): Promise<Answer> {
      const release = await semaphore.acquire(request.signal);
      try {
        return await provider.ask(request);
      } finally {
        release();
      }
    },
  };
}
