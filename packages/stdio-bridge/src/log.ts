/** Where the bridge reports what it does. Never stdout: stdout carries only MCP messages. */
export interface Log {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
}

/** A log that writes one prefixed line per message to a stream (stderr in the bin). */
export function createLog(stream: { write(text: string): unknown }, options: { debug?: boolean } = {}): Log {
  const write = (level: string, message: string) => stream.write(`[visibility-mcp] ${level}${message}\n`);
  return {
    debug: (message) => {
      if (options.debug === true) write('debug: ', message);
    },
    info: (message) => write('', message),
    warn: (message) => write('warning: ', message),
  };
}
