import { randomUUID } from 'node:crypto';
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

/** Gives each request an id (echoed in X-Request-Id), a child logger, and one access-log line. */
export function requestContext(logger: Logger) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const incoming = request.get('x-request-id');
    const requestId = incoming !== undefined && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    request.requestId = requestId;
    request.log = logger.child({ requestId });
    response.setHeader('X-Request-Id', requestId);
    const startedAt = process.hrtime.bigint();
    response.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
      request.log.info('request', {
        method: request.method,
        path: request.path,
        status: response.statusCode,
        durationMs: Math.round(durationMs * 10) / 10,
      });
    });
    next();
  };
}
