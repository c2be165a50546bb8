import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI entry; tests run the real bin the way an operator does. */
export const CLI_PATH = fileURLToPath(new URL('../../bin/visibility.js', import.meta.url));

/** Runs the CLI to completion with optional stdin; resolves its exit code and output. */
export function runCli(
  args: string[],
  options: { stdin?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { env: options.env ?? process.env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI timed out: ${args.join(' ')}\n${stderr}`));
    }, options.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? '');
  });
}

/** Starts the CLI and resolves once a stdout line matches, keeping the process running. */
export function startCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  readyLine: RegExp,
  timeoutMs = 20_000,
): Promise<{ child: ChildProcess; lines: string[]; match: RegExpMatchArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buffered = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no line matching ${readyLine} within ${timeoutMs} ms\nstdout:\n${lines.join('\n')}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline = buffered.indexOf('\n');
      while (newline !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        lines.push(line);
        const match = line.match(readyLine);
        if (match) {
          clearTimeout(timer);
          resolve({ child, lines, match });
        }
        newline = buffered.indexOf('\n');
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${code} before it was ready\nstderr:\n${stderr}`));
    });
  });
}
