import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ApiError } from '../http/api-error.js';

/** Request bodies above this are refused before parsing; the spec's largest body is well under 1 KB. */
export const MAX_JSON_BODY_BYTES = 16 * 1024;

const parseJson = express.json({ limit: MAX_JSON_BODY_BYTES, strict: false, type: () => true });

/**
 * Reads a JSON body for one operation, answering every way a body can be unreadable (wrong content
 * type, broken JSON, oversize) with that operation's own 400 code.
 */
export function jsonBody(code: string, options: { optional?: boolean } = {}): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    const length = request.get('content-length');
    const hasBody = (length !== undefined && length !== '0') || request.get('transfer-encoding') !== undefined;
    if (!hasBody) {
      if (options.optional) {
        request.body = undefined;
        next();
        return;
      }
      next(new ApiError(400, code, 'The request has no body.', 'Send a JSON object with Content-Type: application/json.'));
      return;
    }
    // A declared length over the limit is refused at once: reading (or draining) it first would let one
    // client hold a socket for as long as it cares to send. Connection: close drops the unread rest.
    if (length !== undefined && Number(length) > MAX_JSON_BODY_BYTES) {
      next(
        new ApiError(400, code, `The body is larger than ${MAX_JSON_BODY_BYTES} bytes.`, 'Send only the documented fields.', { Connection: 'close' }),
      );
      return;
    }
    if (!request.is(['application/json', 'application/*+json'])) {
      next(
        new ApiError(
          400,
          code,
          `The body must be JSON, not ${request.get('content-type') ?? 'an unlabelled body'}.`,
          'Send a JSON object with Content-Type: application/json.',
        ),
      );
      return;
    }
    parseJson(request, response, (error?: unknown) => {
      if (error === undefined || error === null) {
        next();
        return;
      }
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large') {
        next(new ApiError(400, code, `The body is larger than ${MAX_JSON_BODY_BYTES} bytes.`, 'Send only the documented fields.'));
      } else if (type === 'entity.parse.failed') {
        next(new ApiError(400, code, 'The body is not valid JSON.', 'Check quotes and commas; send a JSON object.'));
      } else {
        next(new ApiError(400, code, 'The body could not be read.', 'Send a JSON object with Content-Type: application/json (utf-8).'));
      }
    });
  };
}
