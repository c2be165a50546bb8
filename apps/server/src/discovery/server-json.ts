import { mcpUrl, registryServerName, SERVER_TITLE, SHORT_DESCRIPTION, STDIO_BRIDGE_PACKAGE, STDIO_BRIDGE_URL_VARIABLE } from './identity.js';
import type { ManifestInput } from './manifest-input.js';

/** The MCP registry's server.json schema this document follows (the newest dated release). */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/**
 * GET /.well-known/mcp: this deployment as an MCP registry server.json (schema 2025-12-11): the
 * streamable-HTTP remote, and the npm stdio bridge preset to forward to it.
 */
export function buildRegistryServerJson(input: ManifestInput): Record<string, unknown> {
  const endpoint = mcpUrl(input.baseUrl);
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: registryServerName(input.baseUrl),
    title: SERVER_TITLE,
    description: SHORT_DESCRIPTION,
    version: input.version,
    websiteUrl: input.baseUrl,
    remotes: [{ type: 'streamable-http', url: endpoint }],
    packages: [
      {
        registryType: 'npm',
        registryBaseUrl: 'https://registry.npmjs.org',
        identifier: STDIO_BRIDGE_PACKAGE.identifier,
        version: STDIO_BRIDGE_PACKAGE.version,
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        environmentVariables: [
          {
            name: STDIO_BRIDGE_URL_VARIABLE,
            description: 'The streamable-HTTP MCP endpoint the bridge forwards to ({BASE_URL}/mcp of a deployment).',
            isRequired: false,
            isSecret: false,
            format: 'string',
            default: endpoint,
          },
        ],
      },
    ],
    // Registry readers do not list tools; publisher-provided metadata is the place the schema gives for extras.
    _meta: {
      'io.modelcontextprotocol.registry/publisher-provided': {
        tools: input.tools.map((tool) => ({ name: tool.name, ...(tool.title === undefined ? {} : { title: tool.title }) })),
        manifests: {
          discovery: `${input.baseUrl}/.well-known/mcp.json`,
          serverCard: `${input.baseUrl}/.well-known/mcp/server-card.json`,
        },
      },
    },
  };
}
