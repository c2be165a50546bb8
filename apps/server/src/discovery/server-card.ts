import { mcpUrl, registryServerName, SERVER_TITLE, SHORT_DESCRIPTION } from './identity.js';
import type { ManifestInput } from './manifest-input.js';

/** The Server Card schema of SEP-2127 (experimental-ext-server-card, v1 family). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** The media type SEP-2127 gives Server Cards; served when a client asks for it. */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/**
 * GET /.well-known/mcp/server-card.json: a Server Card of the SEP-2127 draft (identity, the
 * streamable-HTTP remote and the protocol versions it negotiates). Server Card objects are open,
 * so the SEP-1649 fields (serverInfo, transport, capabilities, tools) ride along for readers of
 * the earlier draft; a v1 reader ignores them.
 */
export function buildServerCard(input: ManifestInput): Record<string, unknown> {
  const endpoint = mcpUrl(input.baseUrl);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: registryServerName(input.baseUrl),
    version: input.version,
    description: SHORT_DESCRIPTION,
    title: SERVER_TITLE,
    websiteUrl: input.baseUrl,
    remotes: [{ type: 'streamable-http', url: endpoint, supportedProtocolVersions: [...input.protocolVersions] }],
    serverInfo: { name: input.serverName, title: SERVER_TITLE, version: input.version },
    transport: { type: 'streamable-http', endpoint },
    capabilities: { tools: { listChanged: false } },
    authentication: { required: false, schemes: [] },
    tools: input.tools.map((tool) => ({ ...tool })),
  };
}
