/** What every vendor adapter needs; `baseURL` exists so tests can point the real SDK at the simulator. */
export interface AdapterOptions {
  apiKey: string;
  /** Overrides the SDK's default endpoint (OpenAI's includes `/v1`; Anthropic's and Gemini's do not). */
  baseURL?: string | undefined;
  /** The model id to request. */
  model: string;
  /** Deadline for one attempt, in ms (default {@link DEFAULT_TIMEOUT_MS}). */
  timeoutMs?: number | undefined;
  /** Answer-length cap when a request names none (default {@link DEFAULT_MAX_OUTPUT_TOKENS}). */
  maxOutputTokens?: number | undefined;
  /** Replaces the global fetch under the SDK (a proxy agent, or a test that reads the raw response). */
  fetch?: typeof fetch | undefined;
}

/** A hang should cost a run, not a measurement: 30 s is ample for a ~1k-token answer. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Enough for a recommendation list with reasons; caps the cost of a runaway answer. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 1024;
