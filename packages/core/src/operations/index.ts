// What the service does: the spec's public operations, the one function each that REST, MCP, the CLI
// and the site call. Three live here with their request validation; the map's and the MCP runs' stay in
// map/ and mcp-runs/ while their job runner is being rebuilt (issue 17) and are listed from there.

export { startVisibilityAudit } from './start-visibility-audit.js';
export { runRepeatedBuyerQuestion } from './run-repeated-buyer-question.js';
export { checkBrandRecognition } from './check-brand-recognition.js';
export { getBuyerQuestionMap, startBuyerQuestionMap } from '../map/operations.js';
export { getVisibilityRun, startVisibilityRun } from '../mcp-runs/operations.js';
export { parseAuditRequest } from './audit-request.js';
export { parseCheckRequest, parseRepeatRequest } from './measurement-requests.js';
export { RequestValidationError } from './request-error.js';
