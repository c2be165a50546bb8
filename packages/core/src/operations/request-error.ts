import { CoreError } from '../errors.js';

/** A request a caller must fix, with the spec's stable `code`; REST answers 400, MCP an isError result, the CLI exit 2. */
export class RequestValidationError extends CoreError {
  override readonly name = 'RequestValidationError';
}
