// The one boundary where core errors become tool results (tier 2 of the error design): a failure the
// caller can act on is an `isError` result whose text gives the code, what happened and what to do next,
// so the model reads it and fixes the input, waits or polls. Arguments that do not match the input
// schema never reach a handler: the SDK answers them as an `isError` result too (SEP-1303, spec 2025-11-25).

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CoreError, StoreUnavailableError, type Logger } from '@visibility/core';

/** The `isError` result for a failure thrown by a tool handler. */
export function toolErrorResult(error: unknown, logger: Logger): CallToolResult {
  if (error instanceof StoreUnavailableError) {
    return errorText(error.code, `${error.message} Try again in ${error.retryAfterSeconds} seconds.`);
  }
  // every error core throws for a caller to act on (validation, tracking, measurement, runs, maps, an unreachable site)
  if (error instanceof CoreError) {
    const wait = error.retryAfterSeconds === undefined ? '' : ` (retryAfterSeconds: ${error.retryAfterSeconds})`;
    return errorText(error.code, `${error.message} ${error.hint}${wait}`);
  }
  logger.error('MCP tool failed', { error });
  return errorText('server_error', 'Something went wrong on our side. Try the same call again in a minute.');
}

function errorText(code: string, text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${code}: ${text}` }] };
}
