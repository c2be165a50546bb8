import { readFileSync } from 'node:fs';
import { startBridge } from './bridge.js';
import { createLog } from './log.js';
import { parseBridgeCommand, usageText } from './options.js';

/** The version in the package's own package.json (shipped next to dist/ and src/). */
export function bridgeVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : '0.0.0';
}

/**
 * The `visibility-mcp` command: --help and --version print and return 0, a usage error returns 2,
 * otherwise it serves until the MCP client closes stdin (or a signal) and returns 0.
 */
export async function runCli(commandLine: readonly string[], environment: Readonly<Record<string, string | undefined>>): Promise<number> {
  const version = bridgeVersion();
  const command = parseBridgeCommand(commandLine, environment);
  switch (command.kind) {
    case 'help':
      process.stdout.write(usageText(version));
      return 0;
    case 'version':
      process.stdout.write(`${version}\n`);
      return 0;
    case 'usage-error':
      process.stderr.write(`visibility-mcp: ${command.message}\nRun visibility-mcp --help for usage.\n`);
      return 2;
    case 'serve': {
      const log = createLog(process.stderr, { debug: command.debug });
      if (command.urlSource === 'default') {
        log.info(`no --url or VISIBILITY_MCP_URL given; using the default ${command.url.href}`);
      }
      const bridge = await startBridge({ url: command.url, version, log, headers: command.headers });
      const stop = () => void bridge.close();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      await bridge.closed;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      return 0;
    }
  }
}
