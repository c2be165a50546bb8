import type { ServerResponse } from 'node:http';
import { apiErrorAnswer, writeAnswer, type ApiErrorDescription } from './answer.js';

/** The spec's error body: every error a client can see has exactly these fields. */
export interface ApiErrorBody {
  error: string;
  code: string;
  hint: string;
  docs: string;
}

/** An error the REST layer turns into an ApiError response with the spec's status and code. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The `docs` link of every ApiError of a deployment. */
export function docsUrlFor(baseUrl: string): string {
  return `${baseUrl}/developers`;
}

/** Writes an ApiError as JSON with the `docs` link of this deployment. */
export function sendApiError(response: ServerResponse, error: ApiErrorDescription, docsUrl: string): void {
  writeAnswer(response, apiErrorAnswer(error, docsUrl));
}

/** The 404 of an API path no route serves (a plain description: the 404 fast path builds it per request, with no stack to capture). */
export function unknownApiEndpoint(method: string, path: string): ApiErrorDescription {
  return {
    status: 404,
    code: 'endpoint_not_found',
    message: `There is no API endpoint at ${method} ${path}.`,
    hint: 'Check the path and method against /openapi.json.',
    headers: {},
  };
}
