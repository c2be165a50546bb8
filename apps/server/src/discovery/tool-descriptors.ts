import { z } from 'zod';

/** A JSON Schema object as it appears in tools/list and in the manifests. */
export type JsonSchema = Record<string, unknown>;

/** One tool as clients see it in tools/list: what the manifests list. */
export interface ToolDescriptor {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: Record<string, unknown>;
}

/** A zod schema, or the raw shape of an object schema (both are accepted by the SDK's registerTool). */
export type ZodObjectLike = z.ZodType | Record<string, z.ZodType>;

/** A tool definition as packages/mcp writes it: a plain object with zod schemas. */
export interface ZodToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema?: ZodObjectLike;
  outputSchema?: ZodObjectLike;
  annotations?: Record<string, unknown>;
}

/**
 * The descriptor the MCP server's tools/list gives for a definition. The conversion is the one the
 * SDK's McpServer applies (draft-7, input side for arguments, output side for results), so the
 * manifests and tools/list cannot disagree.
 */
export function describeTool(definition: ZodToolDefinition): ToolDescriptor {
  const descriptor: ToolDescriptor = {
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: definition.description,
    inputSchema: definition.inputSchema === undefined ? { type: 'object', properties: {} } : toJsonSchema(definition.inputSchema, 'input'),
  };
  if (definition.outputSchema !== undefined) descriptor.outputSchema = toJsonSchema(definition.outputSchema, 'output');
  if (definition.annotations !== undefined) descriptor.annotations = definition.annotations;
  return descriptor;
}

/** describeTool for every definition, in order. */
export function describeTools(definitions: readonly ZodToolDefinition[]): ToolDescriptor[] {
  return definitions.map(describeTool);
}

function toJsonSchema(schema: ZodObjectLike, io: 'input' | 'output'): JsonSchema {
  const objectSchema = isZodSchema(schema) ? schema : z.object(schema);
  return z.toJSONSchema(objectSchema, { target: 'draft-7', io }) as JsonSchema;
}

function isZodSchema(value: ZodObjectLike): value is z.ZodType {
  // Every zod 4 schema carries its internals under `_zod`; a raw shape is a plain record of schemas.
  return typeof value === 'object' && value !== null && '_zod' in value;
}
