// `npm run bench`: one report of the service's performance, every figure beside a baseline measured in
// the same run (the machines are shared and noisy, so the ratio is what to compare between runs):
//   1. setup and wall time: audits (one with an email) and their buyer-question maps against the
//      simulator in its own process with a fixed latency, timed against their critical paths; then
//      sign-in through the outbox link and a badge token for the first audit;
//   2. cheap reads of the real service beside a bare node:http server answering the same captured bytes;
//   3. the service's memory before, during and after that load;
//   4. extractBrands throughput in-process beside a regex tokenization of the same answers.
// Prints one markdown table and writes test-artifacts/bench/latest.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { DEFAULT_PROVIDER_CONCURRENCY } from '@visibility/core';
import { measureAudit, measureMap, startBenchSite, type AuditBenchFigures, type MapBenchFigures } from './audit-wall-time.js';
import { measureExtractor, readDevSet, type ThroughputFigures } from './extractor-throughput.js';
import { cpuMs, distinctCaller, freePort, mean, simulatorLineup } from './bench-support.js';
import { mintBadgeToken, signInByOutbox } from './owner-setup.js';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const AUDIT_LATENCY_MS = Number(process.env.BENCH_AUDIT_LATENCY_MS ?? 300);
const EXTRACT_SECONDS = Number(process.env.BENCH_EXTRACT_SECONDS ?? 2);
/** Comma-separated substrings: only the cheap-read targets whose name contains one run (when unset: all but the optional ones). */
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '');
/** A folder: the service runs with `node --cpu-prof` and writes its profile there when it stops. */
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;
// The service's default (PROVIDER_CONCURRENCY is left unset): the audit is measured at default settings.
const AUDIT_CONCURRENCY = DEFAULT_PROVIDER_CONCURRENCY;
/** Issue 15: an audit should wait at most this many provider latencies end to end. */
const AUDIT_LATENCIES_TARGET = 4;
/** The cheap reads' default throughput target (a ratio to the bare server); a read may set its own. */
const READ_TARGET = 0.5;
/** Every cheap read's p99 latency must stay under this (issue 15). */
const P99_TARGET_MS = 20;
const WALL_TARGET = 1.25;
const OWNER_EMAIL = 'owner@example.com';
const root = fileURLToPath(new URL('../../', import.meta.url));
const devSetPath = process.env.BENCH_DEV_SET ?? new URL('../../dev-data/extraction-dev/items.jsonl', import.meta.url).pathname;
const reportPath = join(root, 'test-artifacts/bench/latest.json');

interface Figures {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  statuses: Record<string, number>;
  requests: number;
  /** CPU time (user + system) the server process used during the run, from /proc (undefined off Linux). */
  serverCpuMs?: number;
}

/** How a target's requests name their caller (X-Forwarded-For, believed since TRUST_PROXY=loopback). */
type Callers = { kind: 'none' } | { kind: 'distinct' } | { kind: 'one'; address: string };

interface ReadTarget {
  name: string;
  path: string;
  /** The URL the bare server keys the captured answer by (differs only when two targets share a path). */
  barePath: string;
  callers: Callers;
  /** Extra request headers, sent to both servers. */
  headers?: Record<string, string>;
  /** Left out unless BENCH_ONLY names it (a diagnostic, not one of the issue's reads). */
  optional?: boolean;
  /** The status the captured answer (and so every answer under load) should have. */
  expectStatus: number;
  /** The throughput ratio to meet (default READ_TARGET). */
  target?: number;
}

interface ReadResult {
  name: string;
  path: string;
  status: number;
  bytes: number;
  service: Figures[];
  bare: Figures[];
  serviceRps: number;
  serviceP99Ms: number;
  bareRps: number;
  bareP99Ms: number;
  ratio: number;
  target: number;
  /** Server CPU per request, in microseconds (mean over the rounds): what each answer costs, whatever the client managed. */
  serviceCpuUsPerRequest?: number;
  bareCpuUsPerRequest?: number;
  errors: number;
  /** Service answers under load with another status than the captured one (e.g. 200s of a new rate-limit minute). */
  otherStatuses: number;
  peakRssMb: number;
}

interface MemoryFigures {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

interface MemorySample {
  current: MemoryFigures;
  peak: MemoryFigures;
  /** /proc/<pid>/status, where there is one: VmRSS and VmHWM (the lifetime peak), in bytes. */
  vmRss?: number;
  vmHwm?: number;
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => bytes / (1024 * 1024);

/** Runs `work` and adds the CPU time the service and the simulator spent meanwhile. */
async function withCpu<T>(service: ChildProcess, simulator: ChildProcess, work: () => Promise<T>): Promise<T & { serviceCpuMs?: number; simulatorCpuMs?: number }> {
  const serviceBefore = cpuMs(service.pid);
  const simulatorBefore = cpuMs(simulator.pid);
  const result = await work();
  const serviceAfter = cpuMs(service.pid);
  const simulatorAfter = cpuMs(simulator.pid);
  return {
    ...result,
    ...(serviceBefore === undefined || serviceAfter === undefined ? {} : { serviceCpuMs: serviceAfter - serviceBefore }),
    ...(simulatorBefore === undefined || simulatorAfter === undefined ? {} : { simulatorCpuMs: simulatorAfter - simulatorBefore }),
  };
}

async function load(origin: string, path: string, callers: Callers, headers: Record<string, string>, serverPid: number | undefined): Promise<Figures> {
  const options: autocannon.Options = { url: origin, connections: CONNECTIONS, duration: DURATION_SECONDS, pipelining: 1, headers: { ...headers } };
  if (callers.kind === 'distinct') {
    options.requests = [
      {
        method: 'GET',
        path,
        setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...headers, 'x-forwarded-for': distinctCaller() } }),
      },
    ];
  } else {
    options.url = `${origin}${path}`;
    if (callers.kind === 'one') options.headers = { ...headers, 'x-forwarded-for': callers.address };
  }
  const cpuBefore = cpuMs(serverPid);
  const result = await autocannon(options);
  const cpuAfter = cpuMs(serverPid);
  const statuses: Record<string, number> = {};
  const stats = (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
  for (const [status, { count }] of Object.entries(stats)) statuses[status] = count;
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    statuses,
    requests: result.requests.total,
    ...(cpuBefore === undefined || cpuAfter === undefined ? {} : { serverCpuMs: cpuAfter - cpuBefore }),
  };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    if (child.connected) child.disconnect();
    child.kill('SIGTERM');
  });
}

/** Asks the service's memory probe (scripts/bench/memory-probe.mjs) for its figures; `reset` starts a new peak. */
let memoryRequest = 0;
function memory(service: ChildProcess, reset: boolean, gc = false): Promise<MemorySample> {
  const id = (memoryRequest += 1);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the memory probe did not answer')), 5_000);
    const onMessage = (message: { type?: string; id?: number; current: MemoryFigures; peak: MemoryFigures }) => {
      if (message?.type !== 'memory' || message.id !== id) return;
      clearTimeout(timer);
      service.off('message', onMessage);
      const sample: MemorySample = { current: message.current, peak: message.peak };
      const status = `/proc/${service.pid}/status`;
      if (existsSync(status)) {
        const text = readFileSync(status, 'utf8');
        const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
        sample.vmRss = kb('VmRSS');
        sample.vmHwm = kb('VmHWM');
      }
      resolve(sample);
    };
    service.on('message', onMessage);
    service.send({ type: 'memory', id, reset, gc });
  });
}

/** One answer of the service as the bare server will replay it: status, the headers that matter, body. */
async function capture(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Array<[string, string]>; body: string }> {
  const response = await fetch(url, { headers });
  const kept: Array<[string, string]> = [];
  // node:http writes these itself (Content-Length from the body); everything else is replayed as sent.
  const own = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
  response.headers.forEach((value, name) => {
    if (!own.has(name)) kept.push([name, value]);
  });
  return { status: response.status, headers: kept, body: await response.text() };
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadBefore = loadavg();
  const dataDir = mkdtempSync(join(tmpdir(), 'visibility-bench-'));
  const site = await startBenchSite();
  // The providers are remote in production, so the simulator runs in its own process here too.
  const simulator = spawn(process.execPath, [join(root, 'packages/simulator/dist/cli.js'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [, simulatorUrl = ''] = await waitForLine(simulator, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
  const port = await freePort();
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    // Production logs one line per request; BENCH_LOG_LEVEL=warn measures without them.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // A live lineup pointed at the simulator, with demo- model ids so the budget prices them at 0.
    ...simulatorLineup(simulatorUrl),
    CRAWL_HOST_MAP: `pipedrive.bench=${site.origin}`,
    // X-Forwarded-For from the bench (on loopback) names the caller, so each read can be a new caller.
    TRUST_PROXY: 'loopback',
  };
  delete environment.BASE_URL;
  // Without SMTP_URL the sign-in mail goes to DATA_DIR/outbox, where the bench reads its link.
  delete environment.SMTP_URL;
  const probe = pathToFileURL(join(root, 'scripts/bench/memory-probe.mjs')).href;
  const profile = CPU_PROFILE_DIR === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILE_DIR}`];
  // --expose-gc only lets the probe collect once the load is over (memory step 3); it changes no GC heuristics.
  const service = spawn(process.execPath, ['--expose-gc', ...profile, '--import', probe, join(root, 'apps/server/bin/visibility.js'), 'serve'], {
    env: environment,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  // Drain the service's logs (as a log shipper would) so the pipe never stalls it.
  service.stdout?.resume();
  const base = `http://127.0.0.1:${port}`;
  let bare: ChildProcess | undefined;

  type Cpu = { serviceCpuMs?: number; simulatorCpuMs?: number };
  const audits: Array<AuditBenchFigures & Cpu & { label: string }> = [];
  const maps: Array<Omit<MapBenchFigures, 'answers'> & Cpu & { label: string }> = [];
  const mapAnswers: string[] = [];
  const reads: ReadResult[] = [];
  const memoryReport: Record<string, unknown> = {};
  try {
    await waitForHealth(`${base}/health`);

    // 1. Audits (the first attached to an email) and their maps, under the simulated latency.
    for (let round = 0; round < ROUNDS; round += 1) {
      const figures = await withCpu(service, simulator, () =>
        measureAudit(base, simulatorUrl, AUDIT_LATENCY_MS, AUDIT_CONCURRENCY, `198.51.100.${round + 1}`, round === 0 ? OWNER_EMAIL : undefined),
      );
      audits.push({ ...figures, label: `audit ${round + 1}${round === 0 ? ' (cold)' : ''}` });
    }
    for (const [index, audit] of audits.entries()) {
      const { answers, ...figures } = await withCpu(service, simulator, () =>
        measureMap(base, simulatorUrl, AUDIT_LATENCY_MS, AUDIT_CONCURRENCY, audit.id, `198.51.100.${index + 101}`),
      );
      maps.push({ ...figures, label: `map of audit ${index + 1}${index === 0 ? ' (cold)' : ''}` });
      mapAnswers.push(...answers);
    }
    const firstAudit = audits[0];
    if (firstAudit === undefined) throw new Error('BENCH_ROUNDS must be at least 1');
    // The owner signs in through the outbox link and mints a badge token for the first audit.
    const session = await signInByOutbox(base, dataDir, OWNER_EMAIL, '198.51.100.200');
    const badgeToken = await mintBadgeToken(base, firstAudit.id, session);

    // 2. The cheap reads, captured once and replayed by the bare server.
    const mapPath = `/api/audit/${firstAudit.id}/fanout-map`;
    const oneCaller = '203.0.113.7';
    const allTargets: ReadTarget[] = [
      { name: 'GET /api/badge/{token}', path: `/api/badge/${badgeToken}`, barePath: `/api/badge/${badgeToken}`, callers: { kind: 'none' }, expectStatus: 200, target: 0.6 },
      {
        // The same request through Express: a badge has no Last-Modified, so this is the ordinary 200, but
        // the fast path (apps/server/src/http/cheap-reads.ts) leaves conditional requests to Express.
        name: 'GET /api/badge/{token} through Express (If-Modified-Since)',
        path: `/api/badge/${badgeToken}`,
        barePath: `/api/badge/${badgeToken}?through-express`,
        callers: { kind: 'none' },
        headers: { 'if-modified-since': 'Sat, 01 Jan 2000 00:00:00 GMT' },
        optional: true,
        expectStatus: 200,
      },
      // The revalidation a client or CDN sends once it holds the badge (filled in below with the badge's ETag).
      { name: 'GET /api/badge/{token} revalidated (If-None-Match) → 304', path: `/api/badge/${badgeToken}`, barePath: `/api/badge/${badgeToken}?revalidated`, callers: { kind: 'none' }, headers: {}, optional: true, expectStatus: 304, target: 0.6 },
      { name: 'GET /api/audit/{id}/fanout-map, a new caller each request', path: mapPath, barePath: mapPath, callers: { kind: 'distinct' }, expectStatus: 200 },
      {
        name: 'GET /api/audit/{id}/fanout-map, one caller (429 past 120/min)',
        path: mapPath,
        barePath: `${mapPath}?one-caller`,
        callers: { kind: 'one', address: oneCaller },
        expectStatus: 429,
      },
      { name: 'GET /llms.txt', path: '/llms.txt', barePath: '/llms.txt', callers: { kind: 'none' }, expectStatus: 200 },
      { name: 'GET /pricing.md (markdown page)', path: '/pricing.md', barePath: '/pricing.md', callers: { kind: 'none' }, expectStatus: 200 },
      { name: 'GET /pricing (HTML page)', path: '/pricing', barePath: '/pricing', callers: { kind: 'none' }, expectStatus: 200 },
      { name: 'GET /openapi.json', path: '/openapi.json', barePath: '/openapi.json', callers: { kind: 'none' }, expectStatus: 200 },
      { name: 'GET /api/unknown (404 ApiError)', path: '/api/unknown', barePath: '/api/unknown', callers: { kind: 'none' }, expectStatus: 404, target: 0.6 },
    ];
    const targets = allTargets.filter((target) => (ONLY.length === 0 ? target.optional !== true : ONLY.some((part) => target.name.includes(part))));
    if (targets.length === 0) throw new Error(`BENCH_ONLY=${ONLY.join(',')} names no cheap-read target`);
    const routes: Record<string, Awaited<ReturnType<typeof capture>>> = {};
    for (const target of targets) {
      if (target.expectStatus === 304) {
        const etag = (await fetch(`${base}${target.path}`)).headers.get('etag');
        if (etag === null) throw new Error(`${target.name}: the answer has no ETag`);
        target.headers = { 'if-none-match': etag };
      }
      let captured: Awaited<ReturnType<typeof capture>>;
      if (target.callers.kind === 'one') {
        // The caller's 120 reads of this minute are used up first: the load then measures the refusal.
        let tries = 0;
        do {
          captured = await capture(`${base}${target.path}`, { 'x-forwarded-for': target.callers.address });
          tries += 1;
        } while (captured.status !== 429 && tries < 500);
      } else {
        captured = await capture(`${base}${target.path}`, { ...target.headers, ...(target.callers.kind === 'distinct' ? { 'x-forwarded-for': distinctCaller() } : {}) });
      }
      if (captured.status !== target.expectStatus) throw new Error(`${target.name} answered ${captured.status}, not ${target.expectStatus}`);
      routes[target.barePath] = captured;
    }
    routes['*'] = routes['/api/unknown'] ?? (Object.values(routes)[0] as (typeof routes)[string]);
    const routesFile = join(dataDir, 'bare-routes.json');
    writeFileSync(routesFile, JSON.stringify(routes));
    bare = spawn(process.execPath, [join(root, 'scripts/bench/bare-server.mjs'), routesFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [, barePort = ''] = await waitForLine(bare, /^(\d+)$/);
    const bareBase = `http://127.0.0.1:${barePort}`;

    // 3. Memory: idle after setup, sampled through the load, idle again after it.
    await sleep(1_000);
    const before = await memory(service, true);
    const during: MemorySample[] = [];
    const sampler = setInterval(() => {
      memory(service, false).then((sample) => during.push(sample), () => undefined);
    }, 500);
    let loadPeak: MemoryFigures | undefined;
    for (const target of targets) {
      const ours: Figures[] = [];
      const baseline: Figures[] = [];
      // Alternate the two servers so drift on a shared machine hits both alike.
      for (let round = 0; round < ROUNDS; round += 1) {
        baseline.push(await load(bareBase, target.barePath, target.callers, target.headers ?? {}, bare.pid));
        ours.push(await load(base, target.path, target.callers, target.headers ?? {}, service.pid));
      }
      const targetMemory = await memory(service, true);
      loadPeak = loadPeak === undefined ? targetMemory.peak : maxFigures(loadPeak, targetMemory.peak);
      const serviceRps = mean(ours.map((figures) => figures.requestsPerSecond));
      const bareRps = mean(baseline.map((figures) => figures.requestsPerSecond));
      reads.push({
        name: target.name,
        path: target.path.replace(badgeToken, '{token}'),
        status: target.expectStatus,
        bytes: Buffer.byteLength(routes[target.barePath]?.body ?? ''),
        service: ours,
        bare: baseline,
        serviceRps,
        serviceP99Ms: mean(ours.map((figures) => figures.p99Ms)),
        bareRps,
        bareP99Ms: mean(baseline.map((figures) => figures.p99Ms)),
        ratio: serviceRps / bareRps,
        target: target.target ?? READ_TARGET,
        ...cpuPerRequest('service', ours),
        ...cpuPerRequest('bare', baseline),
        errors: [...ours, ...baseline].reduce((sum, figures) => sum + figures.errors, 0),
        otherStatuses: ours.reduce(
          (sum, figures) => sum + Object.entries(figures.statuses).reduce((other, [status, count]) => other + (Number(status) === target.expectStatus ? 0 : count), 0),
          0,
        ),
        peakRssMb: mb(targetMemory.peak.rss),
      });
    }
    clearInterval(sampler);
    await sleep(3_000);
    const after = await memory(service, false);
    const afterGc = await memory(service, false, true);
    memoryReport.before = before;
    memoryReport.peakDuringLoad = loadPeak;
    memoryReport.meanDuringLoad = during.length === 0 ? undefined : averageFigures(during.map((sample) => sample.current));
    memoryReport.samplesDuringLoad = during.length;
    memoryReport.after = after;
    memoryReport.afterFullGc = afterGc;
  } finally {
    await site.close();
    await stop(simulator);
    if (bare !== undefined) await stop(bare);
    await stop(service);
    rmSync(dataDir, { recursive: true, force: true });
  }

  // 4. The extractor, in this process, once the servers are gone.
  const extractor: ThroughputFigures[] = [];
  if (existsSync(devSetPath)) extractor.push(measureExtractor(`dev set (${devSetPath.split('/').slice(-2).join('/')})`, readDevSet(devSetPath), EXTRACT_SECONDS, ROUNDS));
  // The simulator is seeded, so the maps of two audits of one brand share answers: each text counts once.
  const simulatorAnswers = [...new Set(mapAnswers)];
  if (simulatorAnswers.length > 0) {
    extractor.push(measureExtractor('simulator answers (the maps above)', simulatorAnswers.map((answer) => ({ answer, brand: 'Pipedrive' })), EXTRACT_SECONDS, ROUNDS));
  }

  const loadAfter = loadavg();
  const context = {
    date: startedAt.toISOString(),
    node: process.version,
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}`,
    loadAverageBefore: loadBefore.map((value) => Number(value.toFixed(2))),
    loadAverageAfter: loadAfter.map((value) => Number(value.toFixed(2))),
    connections: CONNECTIONS,
    durationSeconds: DURATION_SECONDS,
    rounds: ROUNDS,
    logLevel: environment.LOG_LEVEL,
    auditLatencyMs: AUDIT_LATENCY_MS,
    providerConcurrency: AUDIT_CONCURRENCY,
    extractSeconds: EXTRACT_SECONDS,
  };

  const verdict = (met: boolean) => (met ? 'met' : '**missed**');
  const cpuNote = (figures: { serviceCpuMs?: number; simulatorCpuMs?: number }) =>
    figures.serviceCpuMs === undefined ? '' : ` (CPU: service ${figures.serviceCpuMs.toFixed(0)} ms, simulator ${(figures.simulatorCpuMs ?? 0).toFixed(0)} ms)`;
  const rows: string[] = [];
  const cpuNotePerRequest = (us: number | undefined) => (us === undefined ? '' : `, CPU ${us.toFixed(0)} µs/req`);
  for (const read of reads) {
    const met = read.ratio >= read.target && read.serviceP99Ms < P99_TARGET_MS;
    rows.push(
      `| cheap read | ${read.name.includes('→') ? read.name : `${read.name} → ${read.status}`} | ${read.serviceRps.toFixed(0)} req/s, p99 ${read.serviceP99Ms.toFixed(1)} ms${cpuNotePerRequest(read.serviceCpuUsPerRequest)} | bare node:http ${read.bareRps.toFixed(0)} req/s, p99 ${read.bareP99Ms.toFixed(1)} ms${cpuNotePerRequest(read.bareCpuUsPerRequest)} | ${read.ratio.toFixed(2)} | ≥ ${read.target}, p99 < ${P99_TARGET_MS} ms | ${verdict(met)}${read.errors > 0 ? `, ${read.errors} errors` : ''}${read.otherStatuses > 0 ? `, ${read.otherStatuses} answers not ${read.status}` : ''} |`,
    );
  }
  for (const audit of audits) {
    const ratio = audit.wallMs / audit.criticalPathMs;
    rows.push(
      `| wall time | ${audit.label}: ${audit.questions} questions × ${audit.samplesPerQuestion} samples × ${audit.providers} providers | ${audit.wallMs.toFixed(0)} ms${cpuNote(audit)} | critical path ${audit.criticalPathMs} ms | ${ratio.toFixed(2)} | ≤ ${WALL_TARGET} | ${verdict(ratio <= WALL_TARGET)} |`,
      `| wall time | ${audit.label} in provider latencies (${AUDIT_LATENCY_MS} ms each) | ${(audit.wallMs / AUDIT_LATENCY_MS).toFixed(2)} latencies | ${audit.criticalPathMs / AUDIT_LATENCY_MS} waves | | ≤ ${AUDIT_LATENCIES_TARGET} | ${verdict(audit.wallMs / AUDIT_LATENCY_MS <= AUDIT_LATENCIES_TARGET)} |`,
    );
  }
  for (const map of maps) {
    const ratio = map.wallMs / map.criticalPathMs;
    rows.push(
      `| wall time | ${map.label}: ${map.questions} questions × ${map.providers} providers, ${map.answeredCells} cells answered | ${map.wallMs.toFixed(0)} ms${cpuNote(map)} | critical path ${map.criticalPathMs} ms | ${ratio.toFixed(2)} | ≤ ${WALL_TARGET} | ${verdict(ratio <= WALL_TARGET)} |`,
    );
  }
  const memoryRow = (label: string, figures: MemoryFigures | undefined, note = '') => {
    if (figures === undefined) return;
    rows.push(
      `| memory | service ${label} | RSS ${mb(figures.rss).toFixed(0)} MB, heap used ${mb(figures.heapUsed).toFixed(0)} of ${mb(figures.heapTotal).toFixed(0)} MB, external ${mb(figures.external).toFixed(0)} MB | ${note} | | | |`,
    );
  };
  const before = memoryReport.before as MemorySample | undefined;
  const after = memoryReport.after as MemorySample | undefined;
  memoryRow('idle before the cheap reads', before?.current, 'after setup (audits, maps, sign-in)');
  memoryRow('peak during the cheap reads', memoryReport.peakDuringLoad as MemoryFigures | undefined, 'each figure\'s own maximum, sampled every 50 ms');
  memoryRow('mean during the cheap reads', memoryReport.meanDuringLoad as MemoryFigures | undefined, `${String(memoryReport.samplesDuringLoad)} samples`);
  memoryRow('idle 3 s after the cheap reads', after?.current, after?.vmHwm === undefined ? 'no forced GC' : `no forced GC; VmHWM (lifetime peak RSS) ${mb(after.vmHwm).toFixed(0)} MB`);
  const afterGc = memoryReport.afterFullGc as MemorySample | undefined;
  memoryRow('after a full GC, once idle', afterGc?.current, 'what is live: everything else above was garbage not yet collected');
  for (const figures of extractor) {
    rows.push(
      `| extractor | extractBrands, ${figures.corpus}: ${figures.answers} answers, ${figures.kilobytes.toFixed(0)} KB | ${figures.extractorAnswersPerSecond.toFixed(0)} answers/s (median ${figures.medianMsPerAnswer.toFixed(2)} ms, mean ${figures.meanMsPerAnswer.toFixed(2)} ms, slowest ${figures.maxMsPerAnswer.toFixed(2)} ms an answer) | regex tokenization ${figures.baselineAnswersPerSecond.toFixed(0)} answers/s | ${figures.ratio.toFixed(3)} | | |`,
    );
  }

  const report = {
    context,
    reads,
    audits: audits.map(({ id: _id, ...figures }) => ({ ...figures, ratio: figures.wallMs / figures.criticalPathMs })),
    maps: maps.map((figures) => ({ ...figures, ratio: figures.wallMs / figures.criticalPathMs })),
    memory: memoryReport,
    extractor,
    targets: { cheapReadThroughputRatio: READ_TARGET, cheapReadP99Ms: P99_TARGET_MS, wallTimeRatio: WALL_TARGET },
  };
  mkdirSync(join(root, 'test-artifacts/bench'), { recursive: true });
  writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`);

  process.stdout.write(
    [
      `bench ${context.date}: node ${context.node}, ${context.cpus}, load average ${context.loadAverageBefore.join(' ')} before, ${context.loadAverageAfter.join(' ')} after`,
      `cheap reads: ${CONNECTIONS} connections, ${DURATION_SECONDS}s x ${ROUNDS} rounds per server, alternating, LOG_LEVEL=${String(environment.LOG_LEVEL)}; wall time: every simulated provider call takes ${AUDIT_LATENCY_MS} ms, PROVIDER_CONCURRENCY=${AUDIT_CONCURRENCY} (default), critical path = ceil(questions x samples / concurrency) x latency (a map is one sample)`,
      '',
      '| area | what | measured | baseline (same run) | ratio | target | |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `JSON: ${reportPath}`,
      '',
    ].join('\n'),
  );
}

/** Server CPU per request over the rounds (total CPU / total requests), in microseconds, when /proc gave it. */
function cpuPerRequest(who: 'service' | 'bare', rounds: Figures[]): Partial<Pick<ReadResult, 'serviceCpuUsPerRequest' | 'bareCpuUsPerRequest'>> {
  if (rounds.some((figures) => figures.serverCpuMs === undefined)) return {};
  const requests = rounds.reduce((sum, figures) => sum + figures.requests, 0);
  const cpu = rounds.reduce((sum, figures) => sum + (figures.serverCpuMs ?? 0), 0);
  return requests === 0 ? {} : { [`${who}CpuUsPerRequest`]: (cpu * 1000) / requests };
}

function maxFigures(left: MemoryFigures, right: MemoryFigures): MemoryFigures {
  return {
    rss: Math.max(left.rss, right.rss),
    heapTotal: Math.max(left.heapTotal, right.heapTotal),
    heapUsed: Math.max(left.heapUsed, right.heapUsed),
    external: Math.max(left.external, right.external),
    arrayBuffers: Math.max(left.arrayBuffers, right.arrayBuffers),
  };
}

function averageFigures(samples: MemoryFigures[]): MemoryFigures {
  return {
    rss: mean(samples.map((sample) => sample.rss)),
    heapTotal: mean(samples.map((sample) => sample.heapTotal)),
    heapUsed: mean(samples.map((sample) => sample.heapUsed)),
    external: mean(samples.map((sample) => sample.external)),
    arrayBuffers: mean(samples.map((sample) => sample.arrayBuffers)),
  };
}

await main();
