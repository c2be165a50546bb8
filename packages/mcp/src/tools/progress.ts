import type { VisibilityRunProgress } from '@visibility/core';
import type { ToolContext } from './types.js';

/** Progress notifications count the whole check from 0 to 100. */
export const RUN_PROGRESS_TOTAL = 100;

/**
 * Forwards a run's progress to the client, only when it moved forward: the protocol wants `progress` to
 * increase with every notification of one token. A notification that cannot be sent never fails the call.
 */
export function progressForwarder(context: ToolContext): (progress: VisibilityRunProgress) => void {
  let sent = -1;
  return (progress) => {
    if (progress.percent <= sent) return;
    sent = progress.percent;
    void context.reportProgress({ progress: progress.percent, total: RUN_PROGRESS_TOTAL, message: progress.message }).catch(() => undefined);
  };
}
