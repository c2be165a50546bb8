import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@visibility/core';

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
    log: Logger;
  }
}

// An incoming id is echoed only when it is short and plain, so logs cannot be forged through it.
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The id of a request: its own X-Request-Id when short and plain, else a new one. */
export function requestIdFor(incoming: string | undefined): string {
  return incoming !== undefined && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Writes the request's one access-log line once its response is sent; `describe` is read then. */
export function logWhenFinished(log: Logger, response: ServerResponse, describe: () => { method: string; path: string }): void {
  const startedAt = process.hrtime.bigint();
  response.on('finish', () => {
    const durationMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
    const { method, path } = describe();
    log.info('request', {
      method,
      path,
      status: response.statusCode,
      durationMs: Math.round(durationMs * 10) / 10,
    });
  });
}

/** Gives each request an id (echoed in X-Request-Id), a child logger, and one access-log line. */
export function requestContext(logger: Logger) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const requestId = requestIdFor(request.get('x-request-id'));
    request.requestId = requestId;
    request.log = logger.child({ requestId });
    response.setHeader('X-Request-Id', requestId);
    logWhenFinished(request.log, response, () => ({ method: request.method, path: request.path }));
    next();
  };
}
