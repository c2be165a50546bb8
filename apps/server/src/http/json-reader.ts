import express, { type Request, type Response } from 'express';

/** Why a JSON body could not be read. */
export type JsonReadFailure = 'too_large' | 'invalid_json' | 'unreadable';

/**
 * True when the request declares a body longer than `limit`. Such a body is refused at once, with
 * `Connection: close` so the unread rest is dropped: reading (or draining) it first would let one
 * client hold a socket for as long as it cares to send.
 */
export function declaresOversizeBody(request: Request, limit: number): boolean {
  const length = request.get('content-length');
  return length !== undefined && Number(length) > limit;
}

/** A JSON body reader bounded by `limit` that reports each way a body can fail, for the caller to answer in its own shape. */
export function jsonReader(limit: number): (request: Request, response: Response, done: (failure: JsonReadFailure | undefined) => void) => void {
  const parse = express.json({ limit, strict: false, type: () => true });
  return (request, response, done) => {
    parse(request, response, (error?: unknown) => {
      if (error === undefined || error === null) {
        done(undefined);
        return;
      }
      const type = (error as { type?: string }).type;
      done(type === 'entity.too.large' ? 'too_large' : type === 'entity.parse.failed' ? 'invalid_json' : 'unreadable');
    });
  };
}
