import { processIo, type CliIo } from './io.js';
import { USAGE } from './usage.js';

/** Runs one CLI command and resolves to the process exit code. */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  // Each command loads only what it needs, so `extract-brands` starts fast.
  switch (command) {
    case 'serve': {
      const { runServe } = await import('./serve.js');
      return runServe(rest, io);
    }
    case 'extract-brands': {
      const { runExtractBrands } = await import('./extract-brands.js');
      return runExtractBrands(rest, io);
    }
    case 'repeat': {
      const { runRepeat } = await import('./repeat.js');
      return runRepeat(rest, io);
    }
    case 'check': {
      const { runCheck } = await import('./check.js');
      return runCheck(rest, io);
    }
    case 'audit': {
      const { runAuditCommand } = await import('./audit.js');
      return runAuditCommand(rest, io);
    }
    case 'credits': {
      const { runCredits } = await import('./credits.js');
      return runCredits(rest, io);
    }
    case 'watch': {
      const { runWatchCommand } = await import('./watch.js');
      return runWatchCommand(rest, io);
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      io.stderr.write(`visibility: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}
