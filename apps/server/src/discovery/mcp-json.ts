import { LONG_DESCRIPTION, mcpUrl, SERVER_TITLE } from './identity.js';
import type { ManifestInput } from './manifest-input.js';

/**
 * `$schema` of the server card as the SEP-1649 proposal wrote it. The proposal never published a
 * schema at that address; it is kept because readers of this format match on it.
 */
export const SEP_1649_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json';

/**
 * GET /.well-known/mcp.json: the discovery manifest in the shape of the SEP-1649 server card
 * proposal (the `.well-known/mcp.json` document most MCP crawlers read): identity, the
 * streamable-HTTP endpoint, no authentication, and every tool with its input and output schemas.
 */
export function buildMcpJson(input: ManifestInput): Record<string, unknown> {
  return {
    $schema: SEP_1649_SCHEMA,
    // In SEP-1649 `version` is the version of the card format; the server's is serverInfo.version.
    version: '1.0',
    protocolVersion: input.protocolVersions[0],
    serverInfo: { name: input.serverName, title: SERVER_TITLE, version: input.version },
    description: LONG_DESCRIPTION,
    documentationUrl: `${input.baseUrl}/developers`,
    transport: { type: 'streamable-http', endpoint: mcpUrl(input.baseUrl) },
    capabilities: { tools: { listChanged: false } },
    authentication: { required: false, schemes: [] },
    ...(input.instructions === undefined ? {} : { instructions: input.instructions }),
    tools: input.tools.map((tool) => ({ ...tool })),
    resources: [],
    prompts: [],
  };
}
