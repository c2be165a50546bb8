// Why a map operation refused, with the spec's stable codes. The REST layer turns a MapError into an
// ApiError with the status its one table gives the code, `code`, `error` = message and `hint`. `no_credits` (402) is ours: the spec
// says a re-run costs one credit but not what happens without one (docs/api.md, docs/buyer-question-map.md).

import { CoreError } from '../errors.js';

/** The codes a map operation can refuse with. */
export const MAP_ERROR_CODES = ['audit_not_found', 'no_fanout', 'unauthorized', 'no_credits'] as const;
export type MapErrorCode = (typeof MAP_ERROR_CODES)[number];

/** A map operation refused, with its stable code. */
export class MapError extends CoreError {
  override readonly name = 'MapError';
  declare readonly code: MapErrorCode;

  constructor(code: MapErrorCode, message: string, hint: string) {
    super(code, message, hint);
  }
}

/** 404 `audit_not_found`, also for ids that are not UUIDs. */
export function auditNotFound(): MapError {
  return new MapError('audit_not_found', 'There is no audit with that id.', 'Use the `id` of an AuditResponse from POST /api/audit.');
}

/** 409 `no_fanout`, with the audit's own reason when it gave one. */
export function noFanout(reason: string | undefined): MapError {
  return new MapError(
    'no_fanout',
    `This audit produced no buyer questions, so there is nothing to map.${reason === undefined ? '' : ` ${reason}`}`,
    'Run a new audit with a category buyers would search for (POST /api/audit), then map that one.',
  );
}

/** 401 `unauthorized`: a re-run by anyone but the signed-in owner. */
export function unauthorizedRerun(signedIn: boolean): MapError {
  return new MapError(
    'unauthorized',
    signedIn ? 'Only the owner of this audit can re-run its map.' : 'Re-running a map needs the signed-in owner of the audit.',
    signedIn
      ? 'Sign in with the email the audit was sent to, or call without `rerun` to read the stored map.'
      : 'Sign in on the site with the email the audit was sent to, or call without `rerun` to read the stored map.',
  );
}

/** 402 `no_credits`: the owner has no credit left to pay for a re-run. */
export function noCredits(): MapError {
  return new MapError(
    'no_credits',
    'You have no credits left: a re-run of the map costs one.',
    'Get credits added to your account, or call without `rerun` to read the stored map for free.',
  );
}
