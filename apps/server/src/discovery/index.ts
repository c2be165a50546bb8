export { discoveryRoutes, buildManifests, manifestRouter, MANIFEST_CACHE_CONTROL } from './routes.js';
export { buildMcpJson, SEP_1649_SCHEMA } from './mcp-json.js';
export { buildServerCard, SERVER_CARD_MEDIA_TYPE, SERVER_CARD_SCHEMA } from './server-card.js';
export { buildRegistryServerJson, SERVER_JSON_SCHEMA } from './server-json.js';
export { describeTool, describeTools, type JsonSchema, type ToolDescriptor, type ZodToolDefinition } from './tool-descriptors.js';
export { mcpUrl, registryServerName, SHORT_DESCRIPTION, STDIO_BRIDGE_PACKAGE } from './identity.js';
export type { ManifestInput } from './manifest-input.js';
