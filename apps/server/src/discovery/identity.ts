import { MCP_SERVER_TITLE } from '@visibility/mcp';

/** How the service names itself in the manifests: the title /mcp gives in serverInfo. */
export const SERVER_TITLE = MCP_SERVER_TITLE;

/** At most 100 characters: the limit of the registry's server.json and of the server card. */
export const SHORT_DESCRIPTION = 'Measures whether AI assistants recommend a brand: live buyer questions, verdict, competitors.';

/** The longer description for /.well-known/mcp.json, which has no length limit. */
export const LONG_DESCRIPTION =
  'Measures whether AI assistants recommend a brand. start_visibility_check asks real model providers the questions buyers ask (about a minute, live); get_visibility_check reports the verdict, how many buyer questions the brand won, the competitors named instead and which providers answered. No signup and no key; one free measurement per domain every 30 days.';

/** The npm package of the stdio bridge and its version (a test keeps them equal to packages/stdio-bridge/package.json). */
export const STDIO_BRIDGE_PACKAGE = { identifier: '@visibility/stdio-bridge', version: '0.1.0' } as const;

/** The environment variable the stdio bridge reads for the remote endpoint. */
export const STDIO_BRIDGE_URL_VARIABLE = 'VISIBILITY_MCP_URL';

/** `{mcp_url}`: the streamable-HTTP endpoint, `{base_url}/mcp`. */
export function mcpUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/mcp`;
}

/**
 * The reverse-DNS server name of the registry formats, from BASE_URL's host:
 * https://aivisibility.dev -> dev.aivisibility/ai-visibility. An IP address or a single label
 * (localhost) is kept as it is; the port is not part of it.
 */
export function registryServerName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname.toLowerCase();
  const isIpAddress = /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[');
  const namespace = isIpAddress ? host : host.split('.').reverse().join('.');
  return `${namespace.replace(/[^a-z0-9.-]/g, '-')}/ai-visibility`;
}
