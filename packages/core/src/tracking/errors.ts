// Why a tracking operation refused: a CoreError with a code, a message naming the field at fault and a
// hint. No HTTP here: the server's one status table (apps/server/src/rest/core-errors.ts) maps the codes
// (a code it does not list is a 400, as every field error is).

import { CoreError } from '../errors.js';

/** The refusals that are not about a field of the request. */
const NOT_FIELD_ERRORS: ReadonlySet<string> = new Set(['watch_not_found', 'run_not_found', 'too_many_watches', 'no_credits', 'unauthorized']);

export class TrackingError extends CoreError {
  override readonly name = 'TrackingError';

  /** Whether the request itself is at fault (a field the message names): the caller fixes it and retries. */
  get isFieldError(): boolean {
    return !NOT_FIELD_ERRORS.has(this.code);
  }
}

/** `watch_not_found`: no such watch, or another account's (the same answer, so ids cannot be probed). */
export function watchNotFound(): TrackingError {
  return new TrackingError('watch_not_found', 'There is no watch with that id in your account.', 'List your watches with GET /api/watches.');
}

export function runNotFound(): TrackingError {
  return new TrackingError('run_not_found', 'This watch has no run with that id.', 'Use a runId from POST /api/watches/{id}/runs or the history.');
}

/** A field error: the message names the field. */
export function invalidField(code: string, field: string, problem: string, hint: string): TrackingError {
  return new TrackingError(code, `\`${field}\` ${problem}`, hint);
}
