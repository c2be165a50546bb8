// What a CLI command touches of its process: the three streams, the environment and Ctrl-C. The bin
// passes the real process; tests pass buffers, so a command runs in the test's own process (no spawn,
// no second import of the SDKs) with exactly the code path an operator gets.

/** An output stream: stdout or stderr (isTTY decides whether progress lines are redrawn in place). */
export interface CliOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
}

/** The process as a command sees it. */
export interface CliIo {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  readonly stdin: AsyncIterable<string | Buffer>;
  /** The environment handed to loadConfig; nothing else reads it. */
  readonly env: NodeJS.ProcessEnv;
  /** Calls `handler` on every Ctrl-C (SIGINT) until the returned function is called. */
  onInterrupt(handler: () => void): () => void;
  /** Ends the process at once with `code` (a second Ctrl-C that gives up waiting). */
  exit(code: number): void;
}

/** The real process: what bin/visibility.js runs the commands with. */
export const processIo: CliIo = {
  // Getters: touching process.stdin opens it, which only extract-brands should do.
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  get stdin() {
    return process.stdin;
  },
  get env() {
    return process.env;
  },
  onInterrupt(handler) {
    process.on('SIGINT', handler);
    return () => {
      process.off('SIGINT', handler);
    };
  },
  exit(code) {
    process.exit(code);
  },
};
