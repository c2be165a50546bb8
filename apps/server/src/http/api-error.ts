import type { Response } from 'express';

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

/** Writes an ApiError as JSON with the `docs` link of this deployment. */
export function sendApiError(response: Response, error: ApiError, docsUrl: string): void {
  const body: ApiErrorBody = { error: error.message, code: error.code, hint: error.hint, docs: docsUrl };
  for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
  response.status(error.status).type('application/json').send(JSON.stringify(body));
}
