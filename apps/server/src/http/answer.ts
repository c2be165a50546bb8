import type { ServerResponse } from 'node:http';
import type { ApiErrorBody } from './api-error.js';

/**
 * A whole answer, prepared before anything is written: the status, the answer's own headers in the
 * order they go out, and the body. The Express routes and the fast paths before Express
 * (cheap-reads.ts) build the same HttpAnswer and write it with writeAnswer, so both send the same bytes.
 */
export interface HttpAnswer {
  status: number;
  headers: ReadonlyArray<readonly [string, string]>;
  /** Empty for a 304. */
  body: Buffer | string;
}

/** Writes an answer on a response that may carry headers already (nosniff, request id, CORS); adds Content-Length. */
export function writeAnswer(response: ServerResponse, answer: HttpAnswer): void {
  for (const [name, value] of answer.headers) response.setHeader(name, value);
  response.statusCode = answer.status;
  if (answer.status === 304) {
    response.end();
    return;
  }
  // Node leaves the body out of an answer to HEAD but keeps this Content-Length, as Express's send does.
  response.setHeader('Content-Length', String(typeof answer.body === 'string' ? Buffer.byteLength(answer.body, 'utf8') : answer.body.length));
  response.end(answer.body);
}

/**
 * True when If-None-Match names this entity tag (or is `*`): the client holds these bytes, so the
 * answer is 304. Weak comparison, as RFC 9110 asks for If-None-Match (a `W/` prefix is ignored).
 */
export function ifNoneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const part of value.split(',')) {
    const tag = part.trim();
    if (tag === '*' || tag === opaque || tag === `W/${opaque}`) return true;
  }
  return false;
}

/**
 * The 304 of an answer a client holds: only the headers a 304 must repeat (RFC 9110 15.4.5: Cache-Control,
 * ETag, Vary, Expires, Content-Location) and those the caller keeps (rate-limit figures), no body.
 */
export function notModified(answer: HttpAnswer, keep: ReadonlySet<string> = new Set()): HttpAnswer {
  const repeated = new Set(['cache-control', 'etag', 'vary', 'expires', 'content-location', ...keep]);
  return { status: 304, headers: answer.headers.filter(([name]) => repeated.has(name.toLowerCase())), body: '' };
}

/** What an ApiError answer needs; an ApiError is one, and a fast path can pass a plain object (no stack to capture). */
export interface ApiErrorDescription {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly hint: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The spec's JSON ApiError as an answer: the error's own headers (Retry-After), then the JSON type. */
export function apiErrorAnswer(error: ApiErrorDescription, docsUrl: string): HttpAnswer {
  const body: ApiErrorBody = { error: error.message, code: error.code, hint: error.hint, docs: docsUrl };
  return {
    status: error.status,
    headers: [...Object.entries(error.headers), ['Content-Type', 'application/json; charset=utf-8']],
    body: JSON.stringify(body),
  };
}
