// The simulator as its own OS process (`node packages/simulator/dist/cli.js`), for tests that kill a
// server or CLI with -9 and count, across the process boundary, which provider calls were made.

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIMULATOR_CLI = join(fileURLToPath(new URL('../../../../', import.meta.url)), 'packages/simulator/dist/cli.js');

/** One provider call as the simulator's `/__simulator/requests` lists it. */
export interface SimulatorRequest {
  provider: string;
  prompt: string;
  receivedAt: number;
}

/** Starts the simulator on a free port and resolves with its URL (its one stdout line). */
export function startSimulatorProcess(latencyMs: number): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SIMULATOR_CLI, '--port', '0', '--latency', String(latencyMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the simulator did not start:\n${output}`)), 10_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /http:\/\/\S+/.exec(output)?.[0];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited with ${code}:\n${output}`)));
  });
}

/** Resolves when the child process has exited (at once when it already has). */
export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}
