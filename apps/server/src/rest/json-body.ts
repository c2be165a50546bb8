import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ApiError } from '../http/api-error.js';
import { declaresOversizeBody, jsonReader } from '../http/json-reader.js';

/** Request bodies above this are refused before parsing; the spec's largest body is well under 1 KB. */
export const MAX_JSON_BODY_BYTES = 16 * 1024;

const readJson = jsonReader(MAX_JSON_BODY_BYTES);
// Plain HTML forms and `curl -d brand=Acme` send application/x-www-form-urlencoded: flat string fields only.
const readForm = express.urlencoded({ extended: false, limit: MAX_JSON_BODY_BYTES, parameterLimit: 20 });

/**
 * Reads a JSON body for one operation, answering every way a body can be unreadable (wrong content
 * type, broken JSON, oversize) with that operation's own 400 code. With `form`, a form-encoded body
 * (flat string fields) is read too, as the same object a JSON body with those strings would give.
 */
export function jsonBody(code: string, options: { optional?: boolean; form?: boolean } = {}): RequestHandler {
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
    if (options.form === true && request.is('application/x-www-form-urlencoded')) {
      readForm(request, response, (error?: unknown) => {
        if (error !== undefined && error !== null) {
          next(new ApiError(400, code, 'The form body could not be read.', 'Send the fields form-encoded (utf-8) or as a JSON object.'));
          return;
        }
        // A null-prototype object becomes a plain one, so the operation's validation reads it as JSON's.
        request.body = { ...(request.body as Record<string, unknown>) };
        next();
      });
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
