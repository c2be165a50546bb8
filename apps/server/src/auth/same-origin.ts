import type { Request, RequestHandler } from 'express';
import { ApiError } from '../http/api-error.js';

function originOf(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    // Opaque origins (file:, data:, sandboxed frames) serialise as "null" and never match.
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * CSRF check for the state-changing /auth POSTs: when the browser says where the request comes from
 * (Origin, else Referer), that must be this deployment's origin (BASE_URL). A request with neither is
 * let through: browsers send Origin on every cross-site POST, so a missing header means a non-browser
 * client (curl, a script), which carries no victim's cookie anyway.
 */
export function isSameOriginRequest(request: Request, baseUrl: string): boolean {
  const expected = originOf(baseUrl);
  const origin = request.get('origin');
  if (origin === 'null') {
    // A page served with Referrer-Policy: no-referrer (reports, account, results) makes the browser
    // send "Origin: null" on its own form posts. Sec-Fetch-Site, which no page can set, then tells
    // whether the post came from this origin; without it an opaque origin is refused.
    return request.get('sec-fetch-site') === 'same-origin';
  }
  if (origin !== undefined) return expected !== undefined && originOf(origin) === expected;
  const referer = request.get('referer');
  if (referer !== undefined && referer !== '') return expected !== undefined && originOf(referer) === expected;
  return true;
}

/** Middleware: a state-changing request another site sent answers 403 `cross_origin` (with `error` and `hint` as given). */
export function requireSameOrigin(baseUrl: string, error: string, hint: string): RequestHandler {
  return (request, _response, next) => {
    if (isSameOriginRequest(request, baseUrl)) next();
    else next(new ApiError(403, 'cross_origin', error, hint));
  };
}
