// Every tool the server offers, in the order tools/list shows them. Manifests and docs read this list.

import { getVisibilityCheckTool } from './get-visibility-check.js';
import { getVisibilityHistoryTool } from './get-visibility-history.js';
import { startVisibilityCheckTool } from './start-visibility-check.js';
import type { VisibilityTool } from './types.js';

export { getVisibilityCheckTool } from './get-visibility-check.js';
export { getVisibilityHistoryTool, historySummary } from './get-visibility-history.js';
export { DEFAULT_WAIT_SECONDS, MAX_WAIT_SECONDS } from './limits.js';
export { startVisibilityCheckTool } from './start-visibility-check.js';

/** The tools, as plain objects. */
export const VISIBILITY_TOOLS: readonly VisibilityTool[] = [startVisibilityCheckTool, getVisibilityCheckTool, getVisibilityHistoryTool];
