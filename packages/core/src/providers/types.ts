import type { BudgetReservation } from '../budget/budget.js';

/** The provider ids the service accepts, in the spec's words. */
export const PROVIDER_IDS = ['openai', 'gemini', 'anthropic'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value);
}

/** One prompt, asked verbatim: no system prompt, temperature 0, no tools or web search. */
export interface AskRequest {
  prompt: string;
  /** Upper bound on the answer's length; adapters pick a sensible default. */
  maxOutputTokens?: number;
  /** Cancels the call (and any retry wait) when aborted. */
  signal?: AbortSignal;
  /** What the call is for (e.g. "repeat", "check.recognition"); kept in the call log, never sent. */
  purpose?: string;
  /**
   * A reservation made ahead for this very call (a degraded audit's allowance, `Budget.reserveAllowance`):
   * the budget wrapper settles it instead of reserving again. Its estimate assumes this request's prompt and
   * `maxOutputTokens`.
   */
  budgetReservation?: BudgetReservation;
  /**
   * Asks for the answer as JSON of this schema (the vendor's structured-output mode). Measurements
   * never set it: only reading an answer (the extraction second opinion) does.
   */
  responseFormat?: JsonResponseFormat;
}

/** A JSON Schema the answer must follow, with the name vendors that want one show the model. */
export interface JsonResponseFormat {
  /** Letters, digits, `_` and `-` (OpenAI's rule for a schema name). */
  name: string;
  /** A JSON Schema object (draft 2020-12 as `z.toJSONSchema` writes it, without `$schema`). */
  schema: Record<string, unknown>;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** What one successful call returned. */
export interface Answer {
  provider: ProviderId;
  /** The exact model id the provider says answered (not merely the one requested). */
  model: string;
  text: string;
  usage: TokenUsage;
  /** Wall time of the successful attempt, in milliseconds. */
  latencyMs: number;
  /** How many attempts it took (1 when the first one succeeded). */
  attempts: number;
}

/** The one interface every measurement talks to. */
export interface Provider {
  readonly id: ProviderId;
  /** The model id requested from the provider. */
  readonly model: string;
  ask(request: AskRequest): Promise<Answer>;
}

/** Why a provider call failed, as a measurement reports it. */
export const PROVIDER_FAILURE_KINDS = [
  'rate_limited',
  'overloaded',
  'unavailable',
  'bad_request',
  'timeout',
  'budget',
] as const;
export type ProviderFailureKind = (typeof PROVIDER_FAILURE_KINDS)[number];

/** A typed provider failure: a measurement turns it into a failed run, never a crash. */
export class ProviderFailure extends Error {
  override readonly name = 'ProviderFailure';
  readonly kind: ProviderFailureKind;
  readonly provider: ProviderId;
  /** Whether trying again later can help. */
  readonly retryable: boolean;
  /** HTTP status the provider answered, when there was one. */
  readonly status: number | undefined;
  /** How long the provider asked us to wait (from `retry-after`), when it said. */
  readonly retryAfterMs: number | undefined;
  /** How many attempts were made before giving up: 1 from a bare adapter, updated by `withRetries`. */
  attempts: number;

  constructor(options: {
    kind: ProviderFailureKind;
    provider: ProviderId;
    message: string;
    retryable?: boolean;
    retryAfterMs?: number | undefined;
    status?: number | undefined;
    attempts?: number;
    cause?: unknown;
  }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options.kind;
    this.provider = options.provider;
    this.retryable =
      options.retryable ??
      (options.kind === 'rate_limited' || options.kind === 'overloaded' || options.kind === 'timeout');
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.attempts = options.attempts ?? 1;
  }
}
