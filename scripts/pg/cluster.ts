// A throwaway PostgreSQL cluster for tests and development: Debian's postgresql binaries
// (`apt-get install -y postgresql`; the Debian service itself is never started), a cluster in a temp
// dir run as the postgres user (initdb refuses root), trust auth on 127.0.0.1 only, a free port, no
// fsync. Starts in about a second; stop() tears it down and removes the folder.
//
//   npx tsx scripts/pg/cluster.ts     prints DATABASE_URL=… and keeps the cluster until Ctrl-C

import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { processAlive } from '../../packages/core/src/jobs/process-alive.js';

export interface ThrowawayCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust auth: no password). */
  url: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL's bin folder with initdb and pg_ctl, or undefined. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')) && existsSync(join(root, version, 'bin', 'pg_ctl')))
    .sort((left, right) => Number(right) - Number(left));
  return versions.length === 0 ? undefined : join(root, versions[0] as string, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function postgresIds(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

const PREFIX = 'visibility-pg-';
/** The process that started a cluster; a cluster whose starter is gone (killed mid-run) is stale. */
const OWNER_FILE = 'owner-pid';


function runTool(bin: string, dir: string, tool: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  const result = spawnSync(command, commandArgs as string[], { encoding: 'utf8', cwd: dir });
  if (result.status !== 0) throw new Error(`${tool} failed (${result.status}):\n${result.stdout}${result.stderr}`);
}

/**
 * Stops and removes the clusters this script left behind when the process that started them was killed
 * (a test run cut by a timeout never reaches its teardown); returns how many. Clusters of live
 * processes are left alone.
 */
export function reapStaleClusters(): number {
  const bin = postgresBinDir();
  let reaped = 0;
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(tmpdir(), name);
    const ownerFile = join(dir, OWNER_FILE);
    if (!existsSync(ownerFile)) continue;
    const owner = Number(readFileSync(ownerFile, 'utf8').trim());
    if (!Number.isInteger(owner) || owner <= 0 || processAlive(owner)) continue;
    try {
      if (bin !== undefined && existsSync(join(dir, 'data', 'postmaster.pid'))) runTool(bin, dir, 'pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']);
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
    reaped += 1;
  }
  return reaped;
}

/** Starts a fresh cluster; throws with the tool's output when it cannot. */
export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install -y postgresql)');
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  writeFileSync(join(dir, OWNER_FILE), `${process.pid}\n`);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]): void => runTool(bin, dir, tool, args);
  const data = join(dir, 'data');
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    let port = 0;
    for (let attempt = 0; ; attempt += 1) {
      port = await freePort();
      try {
        run('pg_ctl', [
          '-D',
          data,
          '-l',
          join(dir, 'log'),
          '-o',
          `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
          '-w',
          'start',
        ]);
        break;
      } catch (error) {
        // The port was taken between picking and binding: pick another.
        if (attempt >= 2) throw error;
      }
    }
    let stopped: Promise<void> | undefined;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      dir,
      stop() {
        stopped ??= (async () => {
          try {
            run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        })();
        return stopped;
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const cluster = await startThrowawayCluster();
  process.stdout.write(`DATABASE_URL=${cluster.url}\n`);
  const stop = (): void => void cluster.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  setInterval(() => undefined, 1 << 30);
}
