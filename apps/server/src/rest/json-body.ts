import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError } from '../http/api-error.js';
import { declaresOversizeBody, jsonReader } from '../http/json-reader.js';

/** Request bodies above this are refused before parsing; the spec's largest body is well under 1 KB. */
export const MAX_JSON_BODY_BYTES = 16 * 1024;

const readJson = jsonReader(MAX_JSON_BODY_BYTES);

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
    if (declaresOversizeBody(request, MAX_JSON_BODY_BYTES)) {
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
    readJson(request, response, (failure) => {
      if (failure === undefined) next();
      else if (failure === 'too_large') next(new ApiError(400, code, `The body is larger than ${MAX_JSON_BODY_BYTES} bytes.`, 'Send only the documented fields.'));
      else if (failure === 'invalid_json') next(new ApiError(400, code, 'The body is not valid JSON.', 'Check quotes and commas; send a JSON object.'));
      else next(new ApiError(400, code, 'The body could not be read.', 'Send a JSON object with Content-Type: application/json (utf-8).'));
    });
  };
}
