import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The core package folder; `--import tsx` is resolved from there. */
const PACKAGE_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs a TypeScript worker in its own Node process (a second "server process") and parses the JSON it prints. */
export function runWorker<T>(worker: string, args: readonly string[]): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`worker exited with ${code}: ${stderr}`));
        return;
      }
      try {
        resolvePromise(JSON.parse(stdout.trim()) as T);
      } catch (error) {
        reject(new Error(`worker printed no JSON: ${stdout} ${stderr}`, { cause: error }));
      }
    });
  });
}
