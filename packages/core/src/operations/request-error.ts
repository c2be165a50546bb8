/** A request a caller must fix, with the spec's stable 400 `code`; REST answers 400, MCP an argument error. */
export class RequestValidationError extends Error {
  override readonly name = 'RequestValidationError';
  constructor(
    readonly code: string,
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}
