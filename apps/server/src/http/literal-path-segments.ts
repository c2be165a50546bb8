import type { NextFunction, Request, Response } from 'express';

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * Express percent-decodes path parameters while matching routes, and a segment that does not decode
 * ("%", "%ZZ", "%E0%A4%A", an escaped lone surrogate "%ED%A0%80") fails the match with a bare 400 before
 * any handler runs: the generic error handler then answers `bad_request`, a code no operation lists, and
 * GET /api/badge/{token} answers JSON where the spec promises an SVG 404. For the paths `pattern` matches
 * (tested on the raw path), this rewrites the `%` of every undecodable segment to `%25`, so the parameter
 * arrives as its literal text and the route answers as for any other unknown id or token (404
 * `audit_not_found`, the "not found" badge). Decodable segments are left exactly as they were.
 */
export function literalUndecodableSegments(pattern: RegExp) {
  return (request: Request, _response: Response, next: NextFunction): void => {
    const queryAt = request.url.indexOf('?');
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    if (path.includes('%') && pattern.test(path)) {
      const literal = path
        .split('/')
        .map((segment) => (decodes(segment) ? segment : segment.replaceAll('%', '%25')))
        .join('/');
      if (literal !== path) request.url = `${literal}${queryAt === -1 ? '' : request.url.slice(queryAt)}`;
    }
    next();
  };
}
