import type { ToolDescriptor } from './tool-descriptors.js';

/** Everything the three manifests are built from; nothing else goes in. */
export interface ManifestInput {
  /** BASE_URL, without a trailing slash. */
  baseUrl: string;
  /** The service version (what /health reports). */
  version: string;
  /** The name the MCP server reports in its initialize result (serverInfo.name). */
  serverName: string;
  /** What the MCP server tells a model in its initialize result. */
  instructions?: string;
  /** The tools exactly as tools/list describes them. */
  tools: readonly ToolDescriptor[];
  /** The protocol versions the MCP endpoint negotiates, newest first. */
  protocolVersions: readonly string[];
}
