import type { NextFunction, Request, Response } from 'express';

/** The CORS headers of every /api answer (http/cheap-reads.ts sets them too). */
export const PUBLIC_CORS_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Access-Control-Allow-Origin', '*'],
  ['Access-Control-Expose-Headers', 'X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id'],
];

/**
 * CORS for the public API and /openapi.json: any origin may call it (no credentials are needed
 * for the public operations), and clients may read the limit and request-id headers.
 */
export function publicCors(request: Request, response: Response, next: NextFunction): void {
  for (const [name, value] of PUBLIC_CORS_HEADERS) response.setHeader(name, value);
  if (request.method === 'OPTIONS') {
    response.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    response.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept, X-Request-Id');
    response.setHeader('Access-Control-Max-Age', '86400');
    response.setHeader('Vary', 'Origin, Access-Control-Request-Headers');
    response.status(204).end();
    return;
  }
  next();
}
