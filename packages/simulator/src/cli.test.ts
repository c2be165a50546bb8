import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('cli', () => {
  it('starts a standalone simulator, prints one line with its URL and stops on SIGTERM', async () => {
    // tsx runs the TypeScript entry directly, so this test never depends on a stale build.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--seed', '5', '--latency', '0'], {
      cwd: PACKAGE_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      const firstLine = new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          if (output.includes('\n')) resolve(output.split('\n')[0] ?? '');
        });
        child.once('exit', (code) => reject(new Error(`cli exited early with ${code}`)));
      });
      const line = await firstLine;
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0];
      expect(url, line).toBeDefined();
      expect(await (await fetch(`${url}/__simulator/health`)).json()).toMatchObject({ ok: true, seed: 5 });
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      expect(output.trim().split('\n')).toHaveLength(1);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('rejects a bad option with a usage message and a non-zero exit', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', '--port', 'abc'], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      errors += chunk;
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(errors).toContain('--port must be a non-negative number');
  });
});
