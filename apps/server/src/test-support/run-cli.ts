// Runs a `visibility` command in the test's own process: the same main() the bin calls, with buffers
// for stdout and stderr, the given environment and a Ctrl-C the test can press. No child process, so
// no second import of the provider SDKs per command (cli.test.ts keeps one spawned run of the real bin).

import { Readable } from 'node:stream';
import type { CliIo } from '../cli/io.js';
import { main } from '../cli/main.js';

export interface CliRun {
  /** The exit code main() resolved to (or the code a second Ctrl-C exited with). */
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessCli {
  /** Resolves when the command has finished. */
  readonly done: Promise<CliRun>;
  /** Presses Ctrl-C once (SIGINT to the command). */
  interrupt(): void;
}

/** Starts a command in-process; `env` replaces process.env for it. */
export function startCliInProcess(args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}): InProcessCli {
  let stdout = '';
  let stderr = '';
  const handlers = new Set<() => void>();
  let exitWith: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => (exitWith = resolve));
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text), isTTY: false },
    stdin: Readable.from([Buffer.from(options.stdin ?? '')]),
    env: options.env ?? process.env,
    onInterrupt(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    exit: (code) => exitWith(code),
  };
  const done = Promise.race([main(args, io), exited]).then((code) => ({ code, stdout, stderr }));
  return {
    done,
    interrupt() {
      for (const handler of [...handlers]) handler();
    },
  };
}

/** Runs a command in-process to completion. */
export function runCliInProcess(args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<CliRun> {
  return startCliInProcess(args, options).done;
}
