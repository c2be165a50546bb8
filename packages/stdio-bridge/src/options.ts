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
  | { kind: 'serve'; url: URL; urlSource: 'flag' | 'environment' | 'default'; debug: boolean; headers: Record<string, string> }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'usage-error'; message: string };

/** Reads the arguments (without node and the script) and the environment; never exits or prints. */
export function parseBridgeCommand(commandLine: readonly string[], environment: Readonly<Record<string, string | undefined>>): BridgeCommand {
  let flagUrl: string | undefined;
  const headers: Record<string, string> = {};
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
    if (argument === '--header' || argument.startsWith('--header=')) {
      const value = argument === '--header' ? commandLine[index + 1] : argument.slice('--header='.length);
      if (argument === '--header') index += 1;
      const header = parseHeader(value);
      if (typeof header === 'string') return { kind: 'usage-error', message: header };
      headers[header.name] = header.value;
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
  return { kind: 'serve', url, urlSource, debug: environment[DEBUG_VARIABLE] === '1', headers };
}

/** Headers the bridge sets itself, or that HTTP forbids a client to choose. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version', 'connection', 'transfer-encoding', 'user-agent']);

/** "Name: value" → the header, or why it cannot be sent. */
function parseHeader(value: string | undefined): { name: string; value: string } | string {
  const example = 'e.g. --header "Cookie: sb-access-token=…"';
  if (value === undefined || value.startsWith('--')) return `--header needs a value, ${example}`;
  const colon = value.indexOf(':');
  const name = colon === -1 ? '' : value.slice(0, colon).trim();
  const text = colon === -1 ? '' : value.slice(colon + 1).trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || text === '') return `--header must be "Name: value", ${example} (got "${value.slice(0, 60)}")`;
  if (/[\r\n\0]/.test(text)) return '--header values cannot hold line breaks';
  if (RESERVED_HEADERS.has(name.toLowerCase())) return `--header ${name} is set by the bridge itself`;
  return { name, value: text };
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
    '  npx -y @visibility/stdio-bridge [--url <mcp_url>] [--header "Name: value"]…',
    '',
    'Options:',
    `  --url <mcp_url>  The remote streamable-HTTP MCP endpoint, {BASE_URL}/mcp of a deployment.`,
    `                   Default: $${MCP_URL_VARIABLE}, else ${DEFAULT_MCP_URL}`,
    '                   For a server started with `npm start`: --url http://localhost:3000/mcp',
    '  --header "Name: value"',
    '                   Sent with every request to the remote (repeatable): a reverse proxy\'s',
    '                   credentials, or your signed-in session for get_visibility_history:',
    '                   --header "Cookie: sb-access-token=<the cookie of your signed-in browser>"',
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
