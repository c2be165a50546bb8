import { ConfigError, createBatchedWrite, createLogger, loadConfig } from '@visibility/core';
import { startService } from '../service.js';
import type { CliIo } from './io.js';

/** `visibility serve`: start the service and stop it cleanly on SIGTERM/SIGINT. */
export async function runServe(argv: string[], io: CliIo): Promise<number> {
  if (argv.length > 0) {
    io.stderr.write(`visibility serve takes no arguments (got ${argv.join(' ')}); configure it with environment variables.\n`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`${error.message}\n`);
      return 78; // EX_CONFIG
    }
    throw error;
  }
  // One write of the log lines per event-loop turn, not one system call per access-log line; the
  // exit handler writes the last turn's lines.
  const output = createBatchedWrite((text) => io.stdout.write(text));
  process.on('exit', output.flush);
  const logger = createLogger({ level: config.logLevel, write: output.write });
  const service = await startService(config, logger);
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      logger.info('shutting down', { signal });
      service.close().then(
        () => resolve(0),
        (error: unknown) => {
          logger.error('shutdown failed', { error });
          resolve(1);
        },
      );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}
