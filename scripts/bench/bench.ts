// `npm run bench`: cheap reads of the real service beside a bare node:http server answering the
// same bytes, measured in the same run, reported as ratios (the machines are shared and noisy).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { measureAudit, startBenchSite } from './audit-wall-time.js';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const root = fileURLToPath(new URL('../../', import.meta.url));
const AUDIT_LATENCY_MS = Number(process.env.BENCH_AUDIT_LATENCY_MS ?? 300);
const AUDIT_CONCURRENCY = 4;

interface Figures {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      for (const line of buffered.split('\n')) {
        const match = line.match(pattern);
        if (match) {
          child.stdout?.off('data', onData);
          resolve(match);
          return;
        }
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`process exited with ${code} before it was ready`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the service did not answer ${url} within 30 s`);
}

async function load(url: string): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS, pipelining: 1 });
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, errors: result.errors + result.timeouts };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'visibility-bench-'));
  const site = await startBenchSite();
  // The providers are remote in production, so the simulator runs in its own process here too.
  const simulator = spawn(process.execPath, [join(root, 'packages/simulator/dist/cli.js'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [, simulatorUrl] = await waitForLine(simulator, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
  const port = await freePort();
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    // Production logs one line per request; BENCH_LOG_LEVEL=warn measures without them.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // A live lineup pointed at the simulator, with demo- model ids so the budget prices them at 0.
    PROVIDER_MODE: 'live',
    OPENAI_API_KEY: 'bench',
    OPENAI_BASE_URL: `${simulatorUrl}/v1`,
    OPENAI_MODEL: 'demo-gpt-4.1-mini',
    ANTHROPIC_API_KEY: 'bench',
    ANTHROPIC_BASE_URL: simulatorUrl,
    ANTHROPIC_MODEL: 'demo-claude-sonnet-4-5',
    GEMINI_API_KEY: 'bench',
    GEMINI_BASE_URL: simulatorUrl,
    GEMINI_MODEL: 'demo-gemini-2.5-flash',
    PROVIDER_CONCURRENCY: String(AUDIT_CONCURRENCY),
    CRAWL_HOST_MAP: `pipedrive.bench=${site.origin}`,
    TRUST_PROXY: 'loopback',
  };
  delete environment.BASE_URL;
  const service = spawn(process.execPath, [join(root, 'apps/server/bin/visibility.js'), 'serve'], { env: environment, stdio: ['ignore', 'pipe', 'inherit'] });
  // Drain the service's logs (as a log shipper would) so the pipe never stalls it.
  service.stdout?.resume();
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(`${base}/health`);

  const targets = [
    { name: 'GET /openapi.json', path: '/openapi.json' },
    { name: 'GET /api/unknown (404 ApiError)', path: '/api/unknown' },
  ];
  const routes: Record<string, { status: number; contentType: string; body: string }> = {};
  for (const target of targets) {
    const response = await fetch(`${base}${target.path}`);
    routes[target.path] = { status: response.status, contentType: response.headers.get('content-type') ?? '', body: await response.text() };
  }
  routes['*'] = routes['/api/unknown'] as (typeof routes)[string];
  const routesFile = join(dataDir, 'bare-routes.json');
  writeFileSync(routesFile, JSON.stringify(routes));
  const bare = spawn(process.execPath, [join(root, 'scripts/bench/bare-server.mjs'), routesFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [, barePort] = await waitForLine(bare, /^(\d+)$/);
  const bareBase = `http://127.0.0.1:${barePort ?? ""}`;

  const rows: string[] = [];
  const auditRows: string[] = [];
  try {
    for (const target of targets) {
      const ours: Figures[] = [];
      const baseline: Figures[] = [];
      // Alternate the two servers so drift on a shared machine hits both alike.
      for (let round = 0; round < ROUNDS; round += 1) {
        baseline.push(await load(`${bareBase}${target.path}`));
        ours.push(await load(`${base}${target.path}`));
      }
      const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
      const oursRps = mean(ours.map((figures) => figures.requestsPerSecond));
      const bareRps = mean(baseline.map((figures) => figures.requestsPerSecond));
      const oursP99 = mean(ours.map((figures) => figures.p99Ms));
      const bareP99 = mean(baseline.map((figures) => figures.p99Ms));
      const errors = [...ours, ...baseline].reduce((sum, figures) => sum + figures.errors, 0);
      rows.push(
        `| ${target.name} | ${oursRps.toFixed(0)} | ${oursP99.toFixed(1)} | ${bareRps.toFixed(0)} | ${bareP99.toFixed(1)} | ${(oursRps / bareRps).toFixed(2)} | ${errors} |`,
      );
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      const figures = await measureAudit(base, simulatorUrl ?? '', AUDIT_LATENCY_MS, AUDIT_CONCURRENCY, `198.51.100.${round + 1}`);
      auditRows.push(
        `| audit ${round + 1} | ${figures.questions} x ${figures.samplesPerQuestion} x ${figures.providers} providers | ${figures.wallMs.toFixed(0)} | ${figures.criticalPathMs} | ${(figures.wallMs / figures.criticalPathMs).toFixed(2)} |`,
      );
    }
  } finally {
    await site.close();
    await stop(simulator);
    await stop(bare);
    await stop(service);
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(
    [
      `bench: ${CONNECTIONS} connections, ${DURATION_SECONDS}s x ${ROUNDS} rounds per server, node ${process.version}`,
      '',
      '| target | service req/s | service p99 ms | bare node:http req/s | bare p99 ms | throughput ratio | errors |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `audit wall time: every simulated provider call takes ${AUDIT_LATENCY_MS} ms, PROVIDER_CONCURRENCY=${AUDIT_CONCURRENCY}; critical path = ceil(questions x samples / concurrency) x latency`,
      '',
      '| run | calls per provider | wall ms | critical path ms | ratio |',
      '|---|---|---|---|---|',
      ...auditRows,
      '',
    ].join('\n'),
  );
}

await main();
