import type { Response } from 'express';

/** JSON-RPC error codes this endpoint answers with before a request reaches an MCP session. */
export const JSON_RPC_ERRORS = {
  /** The body is not JSON. */
  parseError: -32700,
  /** The body is JSON but not a JSON-RPC message. */
  invalidRequest: -32600,
  internalError: -32603,
  /** Transport-level refusals (no session header, wrong media type, too large), as the SDK answers them. */
  transport: -32000,
  /** The session id is unknown or ended: the client must initialise a new session. */
  sessionNotFound: -32001,
} as const;

/** Answers a JSON-RPC error body with `id: null` (the request could not be read or routed), never an ApiError. */
export function sendJsonRpcError(response: Response, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  response.status(status).type('application/json').send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
