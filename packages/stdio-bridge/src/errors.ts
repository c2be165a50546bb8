import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MCP_URL_VARIABLE } from './options.js';

/**
 * JSON-RPC code the bridge answers when the remote cannot be used. It sits in the range JSON-RPC
 * leaves to implementations; clients show the message, which says what to do.
 */
export const REMOTE_UNAVAILABLE = -32000;

/**
 * An error the bridge answers as a JSON-RPC error with exactly this code, message and data. The
 * SDK's McpError would prefix "MCP error N:" to the message a second time on the client.
 */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

/** The remote could not be used: unreachable, or it answered HTTP instead of MCP. */
export class RemoteUnavailableError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
    readonly reached: boolean,
    options?: { cause?: unknown },
  ) {
    super(
      reached
        ? `The AI Visibility MCP server at ${url} answered, but not with MCP: ${reason}. ${urlAdvice(url)}`
        : `The AI Visibility MCP server at ${url} could not be reached (${reason}). Check the address and the network. ${urlAdvice(url)}`,
      options,
    );
    this.name = 'RemoteUnavailableError';
  }
}

/** Turns whatever failed while talking to the remote into the error the client is shown. */
export function toRemoteUnavailable(error: unknown, url: string): RemoteUnavailableError {
  if (error instanceof RemoteUnavailableError) return error;
  if (error instanceof StreamableHTTPError && error.code !== undefined) {
    const detail = httpErrorDetail(error.message);
    const hint = error.code === 404 || error.code === 405 ? ' (is this the /mcp endpoint of the service?)' : '';
    return new RemoteUnavailableError(url, `HTTP ${error.code}${hint}${detail === '' ? '' : `: ${detail}`}`, true, { cause: error });
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new RemoteUnavailableError(url, 'it did not answer in time', false, { cause: error });
  }
  const code = networkErrorCode(error);
  if (code !== undefined) return new RemoteUnavailableError(url, NETWORK_REASONS[code] ?? code, false, { cause: error });
  return new RemoteUnavailableError(url, innermostMessage(error), false, { cause: error });
}

/**
 * True when the remote cannot have acted on the request: the connection was refused or the
 * session it was sent in is gone. Only then is a tool call safe to send again.
 */
export function wasNotDelivered(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  const code = networkErrorCode(error);
  return code !== undefined && UNDELIVERED_CODES.has(code);
}

/** A JSON-RPC error the remote answered, passed on unchanged (without the SDK's message prefix). */
export function forwardRemoteError(error: McpError): JsonRpcError {
  return new JsonRpcError(error.code, error.message.replace(/^MCP error -?\d+: /, ''), error.data);
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing is listening there',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved right now',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
};

// Failures that happen before a single byte of the request reaches the remote.
const UNDELIVERED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function urlAdvice(url: string): string {
  const local = url.startsWith('http://localhost') || url.startsWith('http://127.0.0.1') ? ' Is `npm start` running?' : '';
  return `To use another server, start the bridge with --url <mcp_url> or set ${MCP_URL_VARIABLE} (a local server: --url http://localhost:3000/mcp).${local}`;
}

/** The first network error code in an error, its cause chain, or an AggregateError's members. */
function networkErrorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== 'object' || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  if (Array.isArray(errors)) {
    for (const member of errors) {
      const found = networkErrorCode(member, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return networkErrorCode(cause, depth + 1);
}

/** fetch reports "fetch failed" and keeps the reason (e.g. "bad port") in its cause. */
function innermostMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 5; depth += 1) {
    const cause = (current as { cause?: unknown } | null)?.cause;
    if (!(cause instanceof Error)) break;
    current = cause;
  }
  return current instanceof Error ? current.message : String(current);
}

/** The useful part of an HTTP error body: an ApiError's `error` and `hint`, a JSON-RPC message, or text. */
function httpErrorDetail(message: string): string {
  const body = message.replace(/^Streamable HTTP error: (Error POSTing to endpoint: )?/, '').trim();
  if (body === '' || body === 'null') return '';
  try {
    const parsed = JSON.parse(body) as { error?: unknown; hint?: unknown };
    if (typeof parsed.error === 'string') return typeof parsed.hint === 'string' ? `${parsed.error} ${parsed.hint}` : parsed.error;
    if (typeof parsed.error === 'object' && parsed.error !== null && typeof (parsed.error as { message?: unknown }).message === 'string') {
      return (parsed.error as { message: string }).message;
    }
  } catch {
    // Not JSON: fall through to the text itself.
  }
  const text = body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
