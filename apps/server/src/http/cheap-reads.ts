import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import proxyAddress from 'proxy-addr';
import type { Logger } from '@visibility/core';
import { callerKeyFromAddress } from '../rest/caller.js';
import { PUBLIC_CORS_HEADERS } from '../rest/cors.js';
import { apiErrorAnswer, writeAnswer, type HttpAnswer } from './answer.js';
import { unknownApiEndpoint } from './api-error.js';
import { logWhenFinished, requestIdFor } from './request-context.js';

/** A badge path as a well-formed token gives it: nothing to percent-decode, no trailing slash, lower case. */
const BADGE_PATH = /^\/api\/badge\/([A-Za-z0-9_-]+)$/;
/** A map read as a well-formed id gives it (Express matches letter case and a trailing slash too; those go to it). */
const MAP_PATH = /^\/api\/audit\/([0-9A-Fa-f-]{36})\/fanout-map$/;
/** An API path with nothing to percent-decode: what the 404 fast path may answer with the path as Express reports it. */
const PLAIN_API_PATH = /^\/api\/[A-Za-z0-9._~!$&'()*+,;=:@/-]*$/;

/** Cheap API reads answered before Express, with exactly the bytes the Express route would send. */
export interface CheapReads {
  /** Answers a request it serves and returns true; anything else returns false (and is left to Express). */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
}

export interface CheapReadsOptions {
  /**
   * GET /api/badge/{token} as its Express route answers it (rest/audit-token-routes.ts). Undefined in
   * PostgreSQL mode (no synchronous read): the badge is then left to Express.
   */
  badgeAnswer: ((rawToken: string, ifNoneMatch: string | string[] | undefined) => HttpAnswer) | undefined;
  /**
   * GET /api/audit/{auditId}/fanout-map as its Express route answers it (rest/map-routes.ts). Undefined
   * in PostgreSQL mode: the map read is then left to Express.
   */
  readMap: ((auditId: string, caller: string, ifNoneMatch: string | string[] | undefined) => HttpAnswer) | undefined;
  /** The Express app behind: its `trust proxy` decides the caller, and its routes which API paths exist. */
  app: Express;
  docsUrl: string;
  logger: Logger;
}

/**
 * GET /api/badge/{token} (embedded on other sites, so the most requested API read), GET
 * /api/audit/{auditId}/fanout-map (polled) and the 404 of an API path no route serves, without the
 * Express stack. Each answers with the same HttpAnswer as its Express route and the headers the Express
 * stack adds on the way, in the same order (X-Content-Type-Options, X-Request-Id, the public CORS
 * headers, the answer's own, Content-Length), and writes the same access-log line. What it is not sure
 * to answer identically goes to Express: other methods (HEAD, OPTIONS), paths Express would still match
 * differently (percent-escapes, a trailing slash, other letter case), If-Modified-Since (Express's
 * freshness check), and any error that is not the spec's (Express answers the 500).
 */
export function createCheapReads(options: CheapReadsOptions): CheapReads {
  const { badgeAnswer, readMap, docsUrl, logger } = options;
  // The same compiled TRUST_PROXY function Express's request.ip uses, remembered per address and hop.
  const trust = rememberTrust(options.app.get('trust proxy fn') as (address: string, hop: number) => boolean);
  const routedApiSegments = apiRouteSegments(options.app);

  function answer(request: IncomingMessage, response: ServerResponse, path: string, prepared: HttpAnswer): void {
    const incomingId = request.headers['x-request-id'];
    const requestId = requestIdFor(Array.isArray(incomingId) ? incomingId.join(', ') : incomingId);
    logWhenFinished(logger.child({ requestId }), response, () => ({ method: 'GET', path }));
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('X-Request-Id', requestId);
    for (const [name, value] of PUBLIC_CORS_HEADERS) response.setHeader(name, value);
    writeAnswer(response, prepared);
  }

  return {
    handle(request, response) {
      if (request.method !== 'GET' || request.headers['if-modified-since'] !== undefined) return false;
      const url = request.url ?? '';
      if (!url.startsWith('/api/')) return false;
      const queryAt = url.indexOf('?');
      const path = queryAt === -1 ? url : url.slice(0, queryAt);
      let prepared: HttpAnswer;
      try {
        const token = BADGE_PATH.exec(path)?.[1];
        const auditId = token === undefined ? MAP_PATH.exec(path)?.[1] : undefined;
        if (token !== undefined) {
          if (badgeAnswer === undefined) return false;
          prepared = badgeAnswer(token, request.headers['if-none-match']);
        } else if (auditId !== undefined) {
          if (readMap === undefined) return false;
          prepared = readMap(auditId, callerKeyFromAddress(proxyAddress(request, trust)), request.headers['if-none-match']);
        } else if (routedApiSegments !== undefined && PLAIN_API_PATH.test(path) && !routedApiSegments.has(firstSegment(path))) {
          prepared = apiErrorAnswer(unknownApiEndpoint('GET', path), docsUrl);
        } else {
          return false;
        }
      } catch {
        return false;
      }
      answer(request, response, path, prepared);
      return true;
    },
  };
}

/**
 * A TRUST_PROXY decision depends only on the address and the hop, and the first address checked is the
 * socket's (the same for every request of a connection): parsing it again per request was about a tenth
 * of a map read behind TRUST_PROXY (docs/benchmarks.md). At most 1,024 remembered, then it starts over.
 */
export function rememberTrust(trust: (address: string, hop: number) => boolean): (address: string, hop: number) => boolean {
  const decisions = new Map<string, boolean>();
  return (address, hop) => {
    const key = `${hop} ${address}`;
    let decision = decisions.get(key);
    if (decision === undefined) {
      if (decisions.size >= 1_024) decisions.clear();
      decision = trust(address, hop);
      decisions.set(key, decision);
    }
    return decision;
  };
}

/** `audit` of `/api/audit/…`, lower case (Express matches paths case-insensitively). */
function firstSegment(apiPath: string): string {
  const end = apiPath.indexOf('/', 5);
  return (end === -1 ? apiPath.slice(5) : apiPath.slice(5, end)).toLowerCase();
}

interface RouterLayer {
  route?: { path: unknown };
  handle?: { stack?: RouterLayer[] };
  slash?: boolean;
  rawPath?: unknown;
}

/**
 * The first path segments under /api/ that some route of the app serves (`audit`, `badge`, …), read from
 * the app's router, so a route added later is never answered 404 by the fast path. Undefined (no 404
 * fast path) when a route or a router mounted under a path cannot be read that way.
 */
export function apiRouteSegments(app: Express): Set<string> | undefined {
  const segments = new Set<string>();
  const visit = (stack: readonly RouterLayer[]): boolean => {
    for (const layer of stack) {
      if (layer.route !== undefined) {
        const paths = Array.isArray(layer.route.path) ? (layer.route.path as unknown[]) : [layer.route.path];
        for (const path of paths) {
          if (typeof path !== 'string') return false;
          if (path.toLowerCase() === '/api' || !path.toLowerCase().startsWith('/api/')) continue;
          const segment = firstSegment(path);
          if (!/^[a-z0-9._~-]+$/.test(segment)) return false;
          segments.add(segment);
        }
      } else if (layer.handle?.stack !== undefined) {
        // A router: mounted at the root its paths are its routes' own; mounted elsewhere they cannot be read here.
        if (layer.slash !== true) return false;
        if (!visit(layer.handle.stack)) return false;
      }
    }
    return true;
  };
  const router = (app as unknown as { router?: { stack?: RouterLayer[] } }).router;
  return router?.stack !== undefined && visit(router.stack) ? segments : undefined;
}
