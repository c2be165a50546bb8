import { ProviderFailure, type Answer, type AskRequest, type Provider, type ProviderFailureKind, type ProviderId } from '../types.js';

/** One scripted outcome: an answer text, a failure, or a function that decides per call. */
export type FakeOutcome = string | ProviderFailure | ((request: AskRequest) => Promise<Answer>);

/** A Provider that replays scripted outcomes in order (the last one repeats) and records every call. */
export class FakeProvider implements Provider {
  readonly model = 'fake-model';
  readonly calls: AskRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;

  constructor(
    private readonly outcomes: FakeOutcome[],
    readonly id: ProviderId = 'openai',
  ) {}

  async ask(request: AskRequest): Promise<Answer> {
    const outcome = this.outcomes[Math.min(this.calls.length, this.outcomes.length - 1)];
    this.calls.push(request);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (outcome === undefined) throw new Error('FakeProvider has no outcomes');
      if (typeof outcome === 'function') return await outcome(request);
      if (outcome instanceof ProviderFailure) throw outcome;
      return fakeAnswer(outcome, this.id);
    } finally {
      this.inFlight -= 1;
    }
  }
}

/** A one-attempt answer as an adapter would return it. */
export function fakeAnswer(text: string, provider: ProviderId = 'openai'): Answer {
  return { provider, model: 'fake-model-2025', text, usage: { inputTokens: 3, outputTokens: 5 }, latencyMs: 7, attempts: 1 };
}

/** A failure of the given kind, with the kind's default retryability unless overridden. */
export function fakeFailure(kind: ProviderFailureKind, extra: { retryAfterMs?: number; retryable?: boolean } = {}): ProviderFailure {
  return new ProviderFailure({ kind, provider: 'openai', message: `fake ${kind}`, ...extra });
}

/** A promise plus the functions that settle it, for holding a fake call open. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((resolvePromise, rejectPromise) => {
    resolve = resolvePromise;
    reject = rejectPromise;
  });
  return { promise, resolve, reject };
}
