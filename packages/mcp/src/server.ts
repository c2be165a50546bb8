import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { McpServerDependencies } from './dependencies.js';
import { toolErrorResult } from './tool-errors.js';
import { VISIBILITY_TOOLS } from './tools/index.js';
import type { ToolContext, VisibilityTool } from './tools/types.js';

/** The server's name in serverInfo and the manifests. */
export const MCP_SERVER_NAME = 'ai-visibility';
/** The server's human title in serverInfo. */
export const MCP_SERVER_TITLE = 'AI Visibility';

/** Sent in the initialize result: how the tools fit together, for the model. */
export const MCP_SERVER_INSTRUCTIONS = [
  'Measures whether AI assistants recommend a brand.',
  'Call start_visibility_check with the brand, its website and its category; it answers a runId at once.',
  'Then call get_visibility_check with that runId: by default it waits up to 45 seconds for the result (reporting progress); call it again while status is not done or failed. A check takes about a minute.',
  'One free check per website domain every 30 days: a second start for the same domain, brand and category returns the earlier measurement (reused: true, with when it was measured); another brand or category for that domain is refused until the quota renews.',
  'Relay the caveats of a result to the user: when mode is "demo" the answers come from a simulator, not real AI models.',
  "get_visibility_history reads the trend of one of the signed-in user's watches (a brand re-measured on a schedule) and the changes that are real rather than noise.",
].join(' ');

/** A new MCP server with the two tools; one per session, as the SDK's streamable-HTTP examples do. */
export function createMcpServer(dependencies: McpServerDependencies): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: MCP_SERVER_TITLE, version: dependencies.serverVersion, websiteUrl: dependencies.runs.baseUrl },
    { capabilities: { tools: { listChanged: false } }, instructions: MCP_SERVER_INSTRUCTIONS },
  );
  for (const tool of VISIBILITY_TOOLS) registerVisibilityTool(server, dependencies, tool);
  // McpServer turns listChanged on when the first tool is registered; this list never changes.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}

/** Registers one plain-object tool: the SDK validates the input; the handler's failures become `isError` results. */
export function registerVisibilityTool(server: McpServer, dependencies: McpServerDependencies, tool: VisibilityTool): void {
  server.registerTool(
    tool.name,
    { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations },
    async (input: Record<string, unknown>, extra: RequestHandlerExtra<ServerRequest, ServerNotification>): Promise<CallToolResult> => {
      try {
        const answer = await tool.handler(dependencies, input, toolContext(extra));
        return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structuredContent };
      } catch (error) {
        return toolErrorResult(error, dependencies.runs.logger);
      }
    },
  );
}

function toolContext(extra: RequestHandlerExtra<ServerRequest, ServerNotification>): ToolContext {
  const progressToken = extra._meta?.progressToken;
  return {
    signal: extra.signal,
    async reportProgress(progress) {
      if (progressToken === undefined) return;
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...progress } });
    },
  };
}
