export type { McpServerDependencies } from './dependencies.js';
export { createMcpServer, MCP_SERVER_INSTRUCTIONS, MCP_SERVER_NAME, MCP_SERVER_TITLE, registerVisibilityTool } from './server.js';
export { toolErrorResult } from './tool-errors.js';
export { DEFAULT_WAIT_SECONDS, getVisibilityCheckTool, MAX_WAIT_SECONDS, startVisibilityCheckTool, VISIBILITY_TOOLS } from './tools/index.js';
export { RUN_PROGRESS_TOTAL } from './tools/progress.js';
export { RunOutputSchema } from './tools/run-output.js';
export type { ToolAnswer, ToolContext, VisibilityTool } from './tools/types.js';
