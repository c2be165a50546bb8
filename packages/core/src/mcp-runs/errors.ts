// Why a run operation refused. The MCP layer turns a VisibilityRunError into an `isError` tool result
// whose text carries the code, the message and the hint, so a model can act on it (wait, fix, poll).

/** The codes a run operation can refuse with. */
export const VISIBILITY_RUN_ERROR_CODES = ['run_not_found', 'rate_limited', 'service_stopping'] as const;
export type VisibilityRunErrorCode = (typeof VISIBILITY_RUN_ERROR_CODES)[number];

/** A run operation refused, with a stable code, what to do next and, when waiting helps, how long. */
export class VisibilityRunError extends Error {
  override readonly name = 'VisibilityRunError';

  constructor(
    readonly code: VisibilityRunErrorCode,
    message: string,
    readonly hint: string,
    /** Whole seconds to wait before trying again; absent when waiting cannot help. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /** Whether the same call can succeed later without any change. */
  get isRetryable(): boolean {
    return this.retryAfterSeconds !== undefined;
  }
}

/** No run with that id (also for ids that are not UUIDs). */
export function runNotFound(): VisibilityRunError {
  return new VisibilityRunError(
    'run_not_found',
    'There is no visibility check with that runId.',
    'Use the runId that start_visibility_check returned, or start a new check.',
  );
}
