import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { McpServerDependencies } from '../dependencies.js';

/** What a running tool may use besides its input: progress towards the client and the call's cancellation. */
export interface ToolContext {
  /** Sends `notifications/progress` when the client gave a progressToken; does nothing otherwise. */
  reportProgress(progress: { progress: number; total: number; message: string }): Promise<void>;
  /** Aborts when the client cancels the call or the session ends. */
  signal: AbortSignal;
}

/** A successful tool answer: the structured result (matching the output schema) and its readable text. */
export interface ToolAnswer<Output> {
  structuredContent: Output;
  text: string;
}

/**
 * One MCP tool as a plain object. The handler knows nothing of transports; it throws core errors, and
 * the one boundary in server.ts turns them into `isError` results a model can act on.
 */
export interface VisibilityTool<InputSchema extends z.ZodObject = z.ZodObject, OutputSchema extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** Written for a model: what the tool needs, how long it takes, what to do next. */
  description: string;
  inputSchema: InputSchema;
  outputSchema: OutputSchema;
  annotations: ToolAnnotations;
  handler(dependencies: McpServerDependencies, input: z.output<InputSchema>, context: ToolContext): Promise<ToolAnswer<z.output<OutputSchema>>>;
}
