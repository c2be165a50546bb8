import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

/** The requests this server answers (initialize is checked by the transport before it gets here), by method. */
const REQUEST_SCHEMAS = new Map<string, { safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } } }>([
  [PingRequestSchema.shape.method.value, PingRequestSchema],
  [ListToolsRequestSchema.shape.method.value, ListToolsRequestSchema],
  [CallToolRequestSchema.shape.method.value, CallToolRequestSchema],
]);

/** Why a request's params do not fit its method's schema, or undefined when they do (or the method is not ours). */
export function invalidParamsReason(message: JSONRPCMessage): string | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const schema = REQUEST_SCHEMAS.get(message.method);
  if (schema === undefined) return undefined;
  const result = schema.safeParse(message);
  if (result.success) return undefined;
  const issues = result.error?.issues ?? [];
  const details = issues.slice(0, 3).map((issue) => `${issue.path.map(String).join('.') || 'request'}: ${issue.message}`);
  return `Invalid params for ${message.method}: ${details.join('; ') || 'they do not match the method'}.`;
}

/**
 * The SDK's Protocol validates a request's params inside its handler and answers a mismatch as
 * -32603 Internal error, with the raw zod issues as JSON in the message (tools/call with `arguments: null`,
 * tools/list with a numeric cursor). JSON-RPC says -32602 Invalid params: a client error, not ours. This
 * wraps the transport's delivery (call it after server.connect(transport)) so such a request is answered
 * -32602 with a readable message on the request's own stream, and never reaches the handler.
 */
export function answerInvalidParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) throw new Error('answerInvalidParams: connect the server to the transport first');
  transport.onmessage = (message, extra) => {
    const reason = invalidParamsReason(message);
    if (reason !== undefined && isJSONRPCRequest(message)) {
      const answer: JSONRPCMessage = { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: reason } };
      transport.send(answer, { relatedRequestId: message.id }).catch((error: unknown) => transport.onerror?.(error instanceof Error ? error : new Error(String(error))));
      return;
    }
    deliver.call(transport, message, extra);
  };
}
