import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger, TokenRepository } from '@visibility/core';
import { PUBLIC_CORS_HEADERS } from '../rest/cors.js';
import { badgeAnswer } from '../rest/token-routes.js';
import { logWhenFinished, requestIdFor } from './request-context.js';

/** A badge path as a well-formed token gives it: nothing to percent-decode, no trailing slash, lower case. */
const BADGE_PATH = /^\/api\/badge\/([A-Za-z0-9_-]+)$/;

/** Cheap API reads answered before Express, with exactly the bytes the Express route would send. */
export interface CheapReads {
  /** Answers a request it serves and returns true; anything else returns false (and is left to Express). */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
}

/**
 * GET /api/badge/{token} without the Express stack: the badge is embedded on other sites, so it is the
 * most requested API read. It answers with the same badgeAnswer as the route in rest/token-routes.ts and
 * the headers the Express stack adds on the way, in the same order (X-Content-Type-Options, X-Request-Id,
 * the public CORS headers, the badge's own, Content-Length), and writes the same access-log line.
 * Everything it is not sure to answer identically goes to Express: other methods (HEAD, OPTIONS), paths
 * Express would still match differently (percent-escapes, a trailing slash, other letter case),
 * conditional requests (Express's freshness check), and any error (Express answers the 500).
 */
export function createCheapReads(options: { tokenRepository: TokenRepository; logger: Logger }): CheapReads {
  const { tokenRepository, logger } = options;
  return {
    handle(request, response) {
      if (request.method !== 'GET') return false;
      if (request.headers['if-none-match'] !== undefined || request.headers['if-modified-since'] !== undefined) return false;
      const url = request.url ?? '';
      const queryAt = url.indexOf('?');
      const path = queryAt === -1 ? url : url.slice(0, queryAt);
      const token = BADGE_PATH.exec(path)?.[1];
      if (token === undefined) return false;
      let badge: ReturnType<typeof badgeAnswer>;
      try {
        badge = badgeAnswer(tokenRepository, token);
      } catch {
        return false;
      }
      const incomingId = request.headers['x-request-id'];
      const requestId = requestIdFor(Array.isArray(incomingId) ? incomingId.join(', ') : incomingId);
      logWhenFinished(logger.child({ requestId }), response, () => ({ method: 'GET', path }));
      response.setHeader('X-Content-Type-Options', 'nosniff');
      response.setHeader('X-Request-Id', requestId);
      for (const [name, value] of PUBLIC_CORS_HEADERS) response.setHeader(name, value);
      for (const [name, value] of badge.headers) response.setHeader(name, value);
      response.setHeader('Content-Length', String(Buffer.byteLength(badge.svg, 'utf8')));
      response.statusCode = badge.status;
      response.end(badge.svg, 'utf8');
      return true;
    },
  };
}
