/**
 * The public MCP endpoint the bridge forwards to when neither --url nor VISIBILITY_MCP_URL is set.
 * A placeholder until the operator publishes the service: a self-hosted deployment passes its own
 * `{BASE_URL}/mcp`.
 */
export const DEFAULT_MCP_URL = 'https://aivisibility.dev/mcp';

/** The environment variable that names the remote MCP endpoint. */
export const MCP_URL_VARIABLE = 'VISIBILITY_MCP_URL';

/** Set to 1 for debug lines on stderr. */
export const DEBUG_VARIABLE = 'VISIBILITY_MCP_DEBUG';

/** What the command line asked for. */
export type BridgeCommand =
  | { kind: 'serve'; url: URL; urlSource: 'flag' | 'environment' | 'default'; debug: boolean }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'usage-error'; message: string };

/** Reads the arguments (without node and the script) and the environment; never exits or prints. */
export function parseBridgeCommand(commandLine: readonly string[], environment: Readonly<Record<string, string | undefined>>): BridgeCommand {
  let flagUrl: string | undefined;
  for (let index = 0; index < commandLine.length; index += 1) {
    const argument = commandLine[index] ?? '';
    if (argument === '--help' || argument === '-h') return { kind: 'help' };
    if (argument === '--version' || argument === '-v') return { kind: 'version' };
    if (argument === '--url') {
      const value = commandLine[index + 1];
      if (value === undefined || value.startsWith('-')) return { kind: 'usage-error', message: '--url needs a value, e.g. --url https://example.com/mcp' };
      flagUrl = value;
      index += 1;
      continue;
    }
    if (argument.startsWith('--url=')) {
      flagUrl = argument.slice('--url='.length);
      continue;
    }
    return { kind: 'usage-error', message: `Unknown argument: ${argument}` };
  }

  const environmentUrl = environment[MCP_URL_VARIABLE]?.trim();
  const [raw, urlSource] =
    flagUrl !== undefined
      ? [flagUrl, 'flag' as const]
      : environmentUrl !== undefined && environmentUrl !== ''
        ? [environmentUrl, 'environment' as const]
        : [DEFAULT_MCP_URL, 'default' as const];
  const url = parseHttpUrl(raw);
  if (url === undefined) {
    const origin = urlSource === 'flag' ? '--url' : MCP_URL_VARIABLE;
    return { kind: 'usage-error', message: `${origin} must be an http(s) URL of an MCP endpoint, e.g. https://example.com/mcp (got "${raw}")` };
  }
  return { kind: 'serve', url, urlSource, debug: environment[DEBUG_VARIABLE] === '1' };
}

/** The --help text. */
export function usageText(version: string): string {
  return [
    `visibility-mcp ${version}: the AI Visibility MCP tools over stdio.`,
    '',
    'An MCP client (Claude Desktop, Claude Code, Cursor, VS Code) launches this command; it serves',
    'the tools of a remote AI Visibility MCP server over stdio by forwarding every call to it, so',
    'the remote decides the tools and the quota. Only MCP messages are written to stdout; logs go',
    'to stderr.',
    '',
    'Usage:',
    '  npx -y @visibility/stdio-bridge [--url <mcp_url>]',
    '',
    'Options:',
    `  --url <mcp_url>  The remote streamable-HTTP MCP endpoint, {BASE_URL}/mcp of a deployment.`,
    `                   Default: $${MCP_URL_VARIABLE}, else ${DEFAULT_MCP_URL}`,
    '                   For a server started with `npm start`: --url http://localhost:3000/mcp',
    '  -h, --help       Show this text.',
    '  -v, --version    Show the version.',
    '',
    `Set ${DEBUG_VARIABLE}=1 for debug lines on stderr.`,
    '',
  ].join('\n');
}

function parseHttpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
