// Why a tracking operation refused. The REST layer turns a TrackingError into an ApiError with `status`,
// `code`, `error` = message and `hint`; the message names the field at fault.

export type TrackingErrorStatus = 400 | 401 | 402 | 404 | 409;

export class TrackingError extends Error {
  override readonly name = 'TrackingError';
  constructor(
    readonly status: TrackingErrorStatus,
    readonly code: string,
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** 404 `watch_not_found`: no such watch, or another account's (the same answer, so ids cannot be probed). */
export function watchNotFound(): TrackingError {
  return new TrackingError(404, 'watch_not_found', 'There is no watch with that id in your account.', 'List your watches with GET /api/watches.');
}

export function runNotFound(): TrackingError {
  return new TrackingError(404, 'run_not_found', 'This watch has no run with that id.', 'Use a runId from POST /api/watches/{id}/runs or the history.');
}

/** 400 for one field: the message names it. */
export function invalidField(code: string, field: string, problem: string, hint: string): TrackingError {
  return new TrackingError(400, code, `\`${field}\` ${problem}`, hint);
}
