// `npm run bench:pg`: one vs two instances of the service on one PostgreSQL, measured side by side in one
// run (issue 17). The baseline is one instance on the same database server, measured in the same run and
// interleaved round by round with the two-instance deployment, so what is compared is the ratio
// (two / one), not figures from another day's machine. Each deployment of each round gets a fresh
// database on one throwaway cluster (scripts/pg/cluster.ts; or BENCH_DATABASE_URL's server), its
// instances spawned as real processes (`visibility serve` with DATABASE_URL), the providers a standalone
// simulator process with a fixed latency, as in `npm run bench`:
//   1. cheap reads: a stored buyer-question map (GET /api/audit/{id}/fanout-map) and a stored audit by its
//      report key (GET /api/audit/{id}?key=…), each request a new caller (X-Forwarded-For), the same
//      number of connections in all split evenly over the instances;
//   2. audit throughput: BENCH_PG_AUDITS audits from BENCH_PG_AUDIT_CLIENTS concurrent clients, round-robin
//      over the instances, each with the service's default PROVIDER_CONCURRENCY per instance.
// Prints one markdown table (and the load average before and after) and writes
// test-artifacts/bench/pg-scale.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createPgPool } from '@visibility/core';
import { startThrowawayCluster, type ThrowawayCluster } from '../pg/cluster.js';
import { setLatency, startBenchSite } from './audit-wall-time.js';
import { cpuMs, distinctCaller, freePort, mean, simulatorLineup } from './bench-support.js';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const AUDIT_LATENCY_MS = Number(process.env.BENCH_AUDIT_LATENCY_MS ?? 300);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 2);
const AUDITS = Number(process.env.BENCH_PG_AUDITS ?? 12);
const AUDIT_CLIENTS = Number(process.env.BENCH_PG_AUDIT_CLIENTS ?? 6);
const SESSION_SECRET = 'bench-session-secret-0123456789abcdefghijkl';
const root = fileURLToPath(new URL('../../', import.meta.url));
const reportPath = join(root, 'test-artifacts/bench/pg-scale.json');

interface ReadFigures {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** Service CPU (all instances) per answered request, in microseconds. */
  cpuUsPerRequest?: number;
}

interface DeploymentRound {
  instances: number;
  round: number;
  reads: Record<string, ReadFigures>;
  audits: { count: number; wallMs: number; perMinute: number; failed: number; cpuMsPerAudit: number };
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = buffered.match(pattern);
      if (match) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(match);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`process exited with ${code} before it was ready:\n${buffered.slice(-2000)}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** CPU the service instances used while `work` ran, summed over them (NaN off Linux). */
async function instancesCpu<T>(children: readonly ChildProcess[], work: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const before = children.map((child) => cpuMs(child.pid) ?? Number.NaN);
  const result = await work();
  const after = children.map((child) => cpuMs(child.pid) ?? Number.NaN);
  return { result, cpuMs: after.reduce((sum, value, index) => sum + value - (before[index] ?? Number.NaN), 0) };
}

/** Loads every instance at once for DURATION_SECONDS, the connections split evenly; sums their throughput. */
async function loadAll(bases: readonly string[], path: string, durationSeconds = DURATION_SECONDS): Promise<ReadFigures> {
  const results = await Promise.all(
    bases.map((base) =>
      autocannon({
        url: base,
        connections: Math.max(1, Math.round(CONNECTIONS / bases.length)),
        duration: durationSeconds,
        pipelining: 1,
        requests: [{ method: 'GET', path, setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-forwarded-for': distinctCaller() } }) }],
      }),
    ),
  );
  return {
    requestsPerSecond: results.reduce((sum, result) => sum + result.requests.average, 0),
    p99Ms: Math.max(...results.map((result) => result.latency.p99)),
    errors: results.reduce((sum, result) => sum + result.errors + result.timeouts, 0),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
  };
}

async function postAudit(base: string, caller: string): Promise<{ status: number; body: { id?: string; reportUrl?: string } }> {
  const response = await fetch(`${base}/api/audit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': caller },
    body: JSON.stringify({ brand: 'Pipedrive', website: 'pipedrive.bench', category: 'CRM software' }),
  });
  return { status: response.status, body: (await response.json()) as { id?: string; reportUrl?: string } };
}

async function measureDeployment(
  instances: number,
  round: number,
  adminUrl: string,
  simulatorUrl: string,
  siteOrigin: string,
): Promise<DeploymentRound> {
  const name = `vis_bench_${instances}_${round}_${process.pid}`;
  const admin = createPgPool(adminUrl, { max: 1 });
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDirs: string[] = [];
  const children: ChildProcess[] = [];
  try {
    const bases: string[] = [];
    for (let index = 0; index < instances; index += 1) {
      const dataDir = mkdtempSync(join(tmpdir(), 'visibility-bench-pg-'));
      dataDirs.push(dataDir);
      const port = await freePort();
      const environment: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: url.toString(),
        SESSION_SECRET,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
        ...simulatorLineup(simulatorUrl),
        CRAWL_HOST_MAP: `pipedrive.bench=${siteOrigin}`,
        TRUST_PROXY: 'loopback',
      };
      delete environment.BASE_URL;
      delete environment.SMTP_URL;
      delete environment.PROVIDER_CONCURRENCY;
      const child = spawn(process.execPath, [join(root, 'apps/server/bin/visibility.js'), 'serve'], { env: environment, stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      // Instances start one after the other here only so each one's "listening" line is read in turn.
      await waitForLine(child, /"msg":"listening"/);
      bases.push(`http://127.0.0.1:${port}`);
    }

    // Setup, not measured: one audit and its map, stored, read below from every instance.
    await setLatency(simulatorUrl, 0);
    const audit = await postAudit(bases[0] as string, `192.0.2.${round * 10 + instances}`);
    if (audit.status !== 200 || audit.body.id === undefined) throw new Error(`the setup audit answered ${audit.status}`);
    const mapped = await fetch(`${bases[0]}/api/audit/${audit.body.id}/fanout-map`, { method: 'POST', headers: { 'x-forwarded-for': '192.0.2.200' } });
    if (mapped.status !== 200) throw new Error(`the setup map answered ${mapped.status}`);
    const key = new URL(audit.body.reportUrl ?? 'http://x/').searchParams.get('key') ?? '';
    // Every other instance runs one audit too (not measured), so none meets its first audit cold (module
    // loading, JIT) in the measured part.
    for (const [index, base] of bases.entries()) {
      if (index === 0) continue;
      const warm = await postAudit(base, `192.0.2.${100 + round * 10 + index}`);
      if (warm.status !== 200) throw new Error(`the warm-up audit answered ${warm.status}`);
    }
    // Warm-up, not counted: every instance JIT-compiles the read paths and fills its pool first.
    await loadAll(bases, `/api/audit/${audit.body.id}/fanout-map`, WARMUP_SECONDS);
    await loadAll(bases, `/api/audit/${audit.body.id}?key=${key}`, WARMUP_SECONDS);
    const reads: Record<string, ReadFigures> = {};
    for (const [name, path] of [
      ['map read (stored)', `/api/audit/${audit.body.id}/fanout-map`],
      ['audit read (report key)', `/api/audit/${audit.body.id}?key=${key}`],
    ] as const) {
      const { result, cpuMs: used } = await instancesCpu(children, () => loadAll(bases, path));
      reads[name] = { ...result, cpuUsPerRequest: (used * 1000) / (result.requestsPerSecond * DURATION_SECONDS) };
    }

    // Audit throughput under the simulated provider latency.
    await setLatency(simulatorUrl, AUDIT_LATENCY_MS);
    let next = 0;
    let failed = 0;
    const started = performance.now();
    const { cpuMs: auditCpuMs } = await instancesCpu(children, () => Promise.all(
      Array.from({ length: AUDIT_CLIENTS }, async () => {
        while (next < AUDITS) {
          const index = next;
          next += 1;
          const result = await postAudit(bases[index % bases.length] as string, distinctCaller());
          if (result.status !== 200) failed += 1;
        }
      }),
    ));
    const wallMs = performance.now() - started;
    await setLatency(simulatorUrl, 0);
    return { instances, round, reads, audits: { count: AUDITS, wallMs, perMinute: (AUDITS - failed) / (wallMs / 60_000), failed, cpuMsPerAudit: auditCpuMs / AUDITS } };
  } finally {
    await Promise.all(children.map(stop));
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadBefore = loadavg();
  let cluster: ThrowawayCluster | undefined;
  const adminUrl = process.env.BENCH_DATABASE_URL ?? (cluster = await startThrowawayCluster()).url;
  const site = await startBenchSite();
  const simulator = spawn(process.execPath, [join(root, 'packages/simulator/dist/cli.js'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [, simulatorUrl = ''] = await waitForLine(simulator, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
  const rounds: DeploymentRound[] = [];
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      // Interleaved (and the order flipped each round), so a change in the machine's load hits both alike.
      const order = round % 2 === 0 ? [1, 2] : [2, 1];
      for (const instances of order) {
        const figures = await measureDeployment(instances, round, adminUrl, simulatorUrl, site.origin);
        rounds.push(figures);
        process.stderr.write(`round ${round + 1}, ${instances} instance(s): ${JSON.stringify(figures)}\n`);
      }
    }
  } finally {
    await stop(simulator);
    await site.close();
    await cluster?.stop();
  }
  const loadAfter = loadavg();

  const of = (instances: number) => rounds.filter((round) => round.instances === instances);
  const lines: string[] = [];
  lines.push(`One vs two instances on one PostgreSQL (${startedAt.toISOString()}, Node ${process.version}, ${cpus().length} CPUs)`);
  lines.push(`load average before ${loadBefore.map((value) => value.toFixed(2)).join(' ')}, after ${loadAfter.map((value) => value.toFixed(2)).join(' ')}`);
  lines.push(`${ROUNDS} rounds, reads ${DURATION_SECONDS} s at ${CONNECTIONS} connections in all, ${AUDITS} audits from ${AUDIT_CLIENTS} clients at ${AUDIT_LATENCY_MS} ms provider latency`);
  lines.push('');
  lines.push('| measured | 1 instance | 2 instances | ratio 2 / 1 | p99 ms (1 / 2) | service CPU per request or audit (1 / 2) | errors, non-2xx (1 / 2) |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|');
  const report: Record<string, unknown> = { startedAt: startedAt.toISOString(), node: process.version, cpus: cpus().length, loadBefore, loadAfter, rounds };
  const ratios: Record<string, number> = {};
  for (const name of Object.keys(rounds[0]?.reads ?? {})) {
    const one = of(1).map((round) => round.reads[name] as ReadFigures);
    const two = of(2).map((round) => round.reads[name] as ReadFigures);
    const oneRps = mean(one.map((figures) => figures.requestsPerSecond));
    const twoRps = mean(two.map((figures) => figures.requestsPerSecond));
    ratios[name] = twoRps / oneRps;
    lines.push(
      `| ${name}, requests/s | ${fixed(oneRps)} | ${fixed(twoRps)} | ${fixed(twoRps / oneRps, 2)} | ${fixed(mean(one.map((figures) => figures.p99Ms)))} / ${fixed(mean(two.map((figures) => figures.p99Ms)))} | ${fixed(mean(one.map((figures) => figures.cpuUsPerRequest ?? Number.NaN)))} / ${fixed(mean(two.map((figures) => figures.cpuUsPerRequest ?? Number.NaN)))} µs | ${one.reduce((sum, figures) => sum + figures.errors, 0)}, ${one.reduce((sum, figures) => sum + figures.non2xx, 0)} / ${two.reduce((sum, figures) => sum + figures.errors, 0)}, ${two.reduce((sum, figures) => sum + figures.non2xx, 0)} |`,
    );
  }
  const oneAudits = mean(of(1).map((round) => round.audits.perMinute));
  const twoAudits = mean(of(2).map((round) => round.audits.perMinute));
  ratios['audits'] = twoAudits / oneAudits;
  lines.push(
    `| audits/minute | ${fixed(oneAudits, 1)} | ${fixed(twoAudits, 1)} | ${fixed(twoAudits / oneAudits, 2)} | – | ${fixed(mean(of(1).map((round) => round.audits.cpuMsPerAudit)))} / ${fixed(mean(of(2).map((round) => round.audits.cpuMsPerAudit)))} ms | ${of(1).reduce((sum, round) => sum + round.audits.failed, 0)} / ${of(2).reduce((sum, round) => sum + round.audits.failed, 0)} failed |`,
  );
  report['ratios'] = ratios;
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync(join(root, 'test-artifacts/bench'), { recursive: true });
  writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`);
}

await main();
