// The one base of the errors core throws for a caller to act on. Core says what went wrong (a stable
// `code` from the spec), what to do next (`hint`) and, when waiting helps, how long; it never says how a
// transport shows it. HTTP statuses live in the server's one table (apps/server/src/rest/core-errors.ts),
// MCP's isError text in packages/mcp/src/tool-errors.ts, the CLI's exit codes in cli/measurement-run.ts.

export interface CoreErrorOptions {
  /** Whole seconds to wait before the same call can succeed; absent when waiting cannot help. */
  retryAfterSeconds?: number | undefined;
  cause?: unknown;
}

/** An error a caller can act on: a stable spec `code`, a message safe to show, and what to do next. */
export abstract class CoreError extends Error {
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: string,
    message: string,
    readonly hint: string,
    options: CoreErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** Whether the same call can succeed later without any change. */
  get isRetryable(): boolean {
    return this.retryAfterSeconds !== undefined;
  }
}
