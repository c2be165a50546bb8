// startBuyerQuestionMap and getBuyerQuestionMap, row by row the spec's state table "Buyer-question map
// of one audit" (docs/buyer-question-map.md). Which job exists is decided in the store (one row per audit and
// generation), never in memory, so concurrent POSTs start one job and concurrent re-runs spend one credit.

import { createHash } from 'node:crypto';
import type { AuditRecord } from '../store/audit-repository.js';
import type { MapJobRecord, MapRepository, NewMapJob } from '../store/map-repository.js';
import { MAP_JOB_KIND } from './runner.js';
import { auditNotFound, noCredits, noFanout, unauthorizedRerun } from './errors.js';
import type {
  BuyerQuestionMap,
  BuyerQuestionMapDependencies,
  BuyerQuestionMapProgress,
  BuyerQuestionMapResponse,
  StartBuyerQuestionMapOptions,
  StartBuyerQuestionMapRequest,
} from './types.js';

/** How long a POST holds the connection for the map before answering the running state (the spec's 60 s). */
export const DEFAULT_MAP_WAIT_MS = 60_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

/** startBuyerQuestionMap: the free first map, the stored map, or a paid re-run by the owner. */
export async function startBuyerQuestionMap(
  dependencies: BuyerQuestionMapDependencies,
  request: StartBuyerQuestionMapRequest,
  options: StartBuyerQuestionMapOptions = {},
): Promise<BuyerQuestionMapResponse> {
  const audit = await findAudit(dependencies, request.auditId);
  const stored = await dependencies.mapStore.latestCompleteJob(audit.id);
  if (stored === undefined) return startFirstMap(dependencies, audit, options);
  if (request.rerun !== true) {
    await options.beforeSpend?.();
    return storedResponse(dependencies, stored);
  }
  return rerunMap(dependencies, audit, request.signedInEmail, options);
}

/** getBuyerQuestionMap: the stored map or the running state; never calls a provider. */
export async function getBuyerQuestionMap(
  dependencies: BuyerQuestionMapDependencies,
  auditId: string,
  options: { afterLookup?: (() => unknown) | undefined } = {},
): Promise<BuyerQuestionMapResponse> {
  const audit = await findAudit(dependencies, auditId);
  await options.afterLookup?.();
  const stored = await dependencies.mapStore.latestCompleteJob(audit.id);
  if (stored !== undefined) return storedResponse(dependencies, stored);
  const running = await dependencies.mapStore.runningJob(audit.id);
  if (running !== undefined) return runningResponse(dependencies, running);
  return { ok: true, cached: false, status: readFanout(audit).questions.length === 0 ? 'no_fanout' : 'not_started' };
}

/** One getBuyerQuestionMap answer as the bytes a transport sends, with a strong entity tag of exactly those bytes. */
export interface BuyerQuestionMapRead {
  body: Buffer;
  /** `"…"`: a hash of `body`, so equal tags mean equal bytes (for ETag and If-None-Match). */
  etag: string;
}

/** What one indexed query says about an audit's map: which generations are complete and running. */
export interface BuyerQuestionMapLookup {
  /** The audit id, lower case. */
  auditId: string;
  completeGeneration: number | undefined;
  runningGeneration: number | undefined;
}

/** getBuyerQuestionMap for transports that send bytes, in two steps: see {@link createBuyerQuestionMapReader}. */
export interface BuyerQuestionMapReader {
  /** The audit's map state, or undefined when there is no such audit (getBuyerQuestionMap's 404 `audit_not_found`). */
  lookup(auditId: string): BuyerQuestionMapLookup | undefined;
  /** getBuyerQuestionMap's answer for a looked-up audit (the caller spends its rate-limit slot in between). */
  read(lookup: BuyerQuestionMapLookup): BuyerQuestionMapRead;
}

/** How many stored maps a reader keeps as bytes (about 35 KB each for 8 questions x 3 providers). */
export const DEFAULT_CACHED_MAPS = 32;
/**
 * How long a reader trusts a lookup while no map job was written through its repository: the bound
 * on how late it sees a job written by another process on the same DATA_DIR (the service writes
 * every job itself; the CLI writes none).
 */
export const DEFAULT_LOOKUP_KEEP_MS = 1_000;

/**
 * getBuyerQuestionMap as bytes, synchronously and without exceptions, for the read path that is polled:
 * one indexed query says whether the audit exists and which map generations are complete and running
 * (lookup; kept up to a second for audits that exist, and dropped as soon as a job is created,
 * completed or cancelled through the same repository), and a stored map
 * (immutable once complete) is sent as the bytes of its stored text, kept for the `cachedMaps` most
 * recently filled audits, so a repeated read neither reads 35 KB from SQLite nor converts it again.
 * Equal, once parsed, to getBuyerQuestionMap's answer in every state.
 */
export function createBuyerQuestionMapReader(
  dependencies: BuyerQuestionMapDependencies,
  options: { cachedMaps?: number; lookupKeepMs?: number; now?: () => number } = {},
): BuyerQuestionMapReader {
  const cachedMaps = options.cachedMaps ?? DEFAULT_CACHED_MAPS;
  const lookupKeepMs = options.lookupKeepMs ?? DEFAULT_LOOKUP_KEEP_MS;
  const now = options.now ?? Date.now;
  const repository = dependencies.mapRepository;
  const getAuditNow = dependencies.auditRepository.getAuditNow?.bind(dependencies.auditRepository);
  if (repository === undefined || getAuditNow === undefined) {
    throw new Error('the synchronous map reader needs the SQLite store; in PostgreSQL mode use createAsyncBuyerQuestionMapReader');
  }
  const sync = { repository, getAuditNow };
  // Lookups of audits that exist, valid while no job was written through this repository and for at most lookupKeepMs.
  const lookups = new Map<string, { lookup: BuyerQuestionMapLookup; jobWrites: number; expiresAtMs: number }>();
  // Insertion order is recency of filling: the first key is the one to drop.
  const stored = new Map<string, { generation: number; mapJson: string; read: BuyerQuestionMapRead }>();

  function storedMap(auditId: string, generation: number): { mapJson: string; read: BuyerQuestionMapRead } | undefined {
    const cached = stored.get(auditId);
    if (cached !== undefined && cached.generation === generation) return cached;
    const row = sync.repository.latestCompleteMapJson(auditId);
    if (row === undefined) return undefined;
    const entry = { generation: row.generation, mapJson: row.mapJson, read: bytesOf(`{"ok":true,"cached":true,"map":${row.mapJson}}`) };
    stored.delete(auditId);
    stored.set(auditId, entry);
    if (stored.size > cachedMaps) stored.delete(stored.keys().next().value as string);
    return entry;
  }

  return {
    lookup(auditId) {
      const nowMs = now();
      const jobWrites = repository.jobWrites;
      const kept = lookups.get(auditId);
      if (kept !== undefined && kept.jobWrites === jobWrites && kept.expiresAtMs > nowMs) return kept.lookup;
      if (!UUID.test(auditId)) return undefined;
      const id = auditId.toLowerCase();
      const state = repository.mapReadState(id);
      if (!state.auditExists) return undefined;
      const lookup = { auditId: id, completeGeneration: state.completeGeneration, runningGeneration: state.runningGeneration };
      // Only audits that exist are kept (made-up ids cannot fill it), keyed as asked.
      lookups.delete(auditId);
      lookups.set(auditId, { lookup, jobWrites, expiresAtMs: nowMs + lookupKeepMs });
      if (lookups.size > cachedMaps * 32) lookups.delete(lookups.keys().next().value as string);
      return lookup;
    },
    read({ auditId: id, completeGeneration, runningGeneration }) {
      const map = completeGeneration === undefined ? undefined : storedMap(id, completeGeneration);
      if (map === undefined) return bytesOf(JSON.stringify(unstoredResponse(sync, id)));
      if (runningGeneration === undefined) return map.read;
      // The previous map stays the answer until the re-measurement completes.
      const running = repository.runningJob(id);
      if (running === undefined) return map.read;
      const remeasuring = JSON.stringify({ status: 'running', generation: running.generation, progress: progressNow(repository, running) });
      return bytesOf(`{"ok":true,"cached":true,"map":${map.mapJson},"remeasuring":${remeasuring}}`);
    },
  };
}

/** BuyerQuestionMapReader through the ports only, for PostgreSQL mode (no synchronous read there). */
export interface AsyncBuyerQuestionMapReader {
  lookup(auditId: string): Promise<BuyerQuestionMapLookup | undefined>;
  read(lookup: BuyerQuestionMapLookup): Promise<BuyerQuestionMapRead>;
}

/**
 * getBuyerQuestionMap as bytes through the maps and audits ports: the same states and the same bytes as
 * createBuyerQuestionMapReader's, with nothing kept between reads (every instance on one PostgreSQL
 * answers from the database, so a map another instance completed is seen at once).
 */
export function createAsyncBuyerQuestionMapReader(dependencies: Pick<BuyerQuestionMapDependencies, 'mapStore' | 'auditRepository'>): AsyncBuyerQuestionMapReader {
  const { mapStore } = dependencies;
  const remeasuringOf = async (auditId: string): Promise<string | undefined> => {
    const running = await mapStore.runningJob(auditId);
    if (running === undefined) return undefined;
    const progress = { completed: await mapStore.countCells(running.auditId, running.generation), total: running.questions.length * running.providers.length };
    return JSON.stringify({ status: 'running', generation: running.generation, progress });
  };
  return {
    async lookup(auditId) {
      if (!UUID.test(auditId)) return undefined;
      const id = auditId.toLowerCase();
      const state = await mapStore.mapReadState(id);
      if (!state.auditExists) return undefined;
      return { auditId: id, completeGeneration: state.completeGeneration, runningGeneration: state.runningGeneration };
    },
    async read({ auditId: id, completeGeneration, runningGeneration }) {
      const row = completeGeneration === undefined ? undefined : await mapStore.latestCompleteMapJson(id);
      if (row === undefined) {
        const running = await mapStore.runningJob(id);
        if (running !== undefined) {
          const progress = { completed: await mapStore.countCells(running.auditId, running.generation), total: running.questions.length * running.providers.length };
          return bytesOf(JSON.stringify({ ok: true, cached: false, status: 'running', generation: running.generation, progress }));
        }
        const audit = await dependencies.auditRepository.getAudit(id);
        if (audit === undefined) throw auditNotFound();
        return bytesOf(JSON.stringify({ ok: true, cached: false, status: readFanout(audit).questions.length === 0 ? 'no_fanout' : 'not_started' }));
      }
      const remeasuring = runningGeneration === undefined ? undefined : await remeasuringOf(id);
      if (remeasuring === undefined) return bytesOf(`{"ok":true,"cached":true,"map":${row.mapJson}}`);
      return bytesOf(`{"ok":true,"cached":true,"map":${row.mapJson},"remeasuring":${remeasuring}}`);
    },
  };
}

function bytesOf(json: string): BuyerQuestionMapRead {
  const body = Buffer.from(json, 'utf8');
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
}

/** The answer while no map is stored: the running state, or why nothing runs. */
function unstoredResponse(
  sync: { repository: MapRepository; getAuditNow: (auditId: string) => AuditRecord | undefined },
  auditId: string,
): BuyerQuestionMapResponse {
  const running = sync.repository.runningJob(auditId);
  if (running !== undefined) return { ok: true, cached: false, status: 'running', generation: running.generation, progress: progressNow(sync.repository, running) };
  // Synchronous: this serves the map read's fast path before Express (see AuditRepository.getAuditNow).
  const audit = sync.getAuditNow(auditId);
  if (audit === undefined) throw auditNotFound();
  return { ok: true, cached: false, status: readFanout(audit).questions.length === 0 ? 'no_fanout' : 'not_started' };
}

/**
 * Picks up every map job whose lease is free (a stopped process gave it back, or its owner died and the
 * lease ran out) through the job runner; returns how many it resumed. The runner's own scans do the same
 * every few seconds once it is started; a job another live process holds is left to it.
 */
export async function resumeBuyerQuestionMaps(dependencies: BuyerQuestionMapDependencies): Promise<number> {
  dependencies.runner.register(dependencies);
  const resumed = await dependencies.runner.jobs.scan([MAP_JOB_KIND]);
  if (resumed > 0) dependencies.logger.info('resuming buyer-question maps', { jobs: resumed });
  return resumed;
}

/** Stops the jobs of this process: calls in flight get `graceMs` to finish and be stored; the jobs resume on the next start. */
export function stopBuyerQuestionMaps(dependencies: Pick<BuyerQuestionMapDependencies, 'runner'>, graceMs?: number): Promise<void> {
  return dependencies.runner.stop(graceMs);
}

async function startFirstMap(
  dependencies: BuyerQuestionMapDependencies,
  audit: AuditRecord,
  options: StartBuyerQuestionMapOptions,
): Promise<BuyerQuestionMapResponse> {
  const { mapStore } = dependencies;
  let job = await mapStore.runningJob(audit.id);
  if (job === undefined) {
    const fanout = readFanout(audit);
    if (fanout.questions.length === 0) throw noFanout(fanout.reasonMissing);
    await options.beforeSpend?.();
    await mapStore.createFirstJob(newJob(dependencies, audit, fanout.questions));
    job = await mapStore.runningJob(audit.id);
    if (job === undefined) {
      // Another request started it and it has already finished: that map is the stored one now.
      const stored = await mapStore.latestCompleteJob(audit.id);
      if (stored === undefined) throw new Error(`the map job of audit ${audit.id} vanished`);
      return storedResponse(dependencies, stored);
    }
  } else {
    await options.beforeSpend?.();
  }
  // Idempotent: a job already running here (or held by another live process) is joined, not started twice.
  await dependencies.runner.run(dependencies, job);
  return awaitJob(dependencies, job, options);
}

async function rerunMap(
  dependencies: BuyerQuestionMapDependencies,
  audit: AuditRecord,
  signedInEmail: string | undefined,
  options: StartBuyerQuestionMapOptions,
): Promise<BuyerQuestionMapResponse> {
  const { mapStore, accountRepository } = dependencies;
  if (signedInEmail === undefined || audit.email === undefined || audit.email.toLowerCase() !== signedInEmail.toLowerCase()) {
    throw unauthorizedRerun(signedInEmail !== undefined);
  }
  const running = await mapStore.runningJob(audit.id);
  if (running !== undefined) {
    // A re-measurement is already under way: this re-run joins it and pays nothing.
    await options.beforeSpend?.();
    await dependencies.runner.run(dependencies, running);
    return awaitJob(dependencies, running, options);
  }
  // Checked before the rate-limit slot so an empty balance costs no slot; the spend below is the atomic one.
  if (((await accountRepository.getAccount(signedInEmail))?.credits ?? 0) < 1) throw noCredits();
  await options.beforeSpend?.();
  const questions = readFanout(audit).questions;
  // The credit is spent in the same transaction that starts the generation (MapStore.createRerunJob).
  const started = await mapStore.createRerunJob({ ...newJob(dependencies, audit, questions, signedInEmail), chargedEmail: signedInEmail });
  if (started.outcome === 'no_credits') throw noCredits();
  if (started.outcome === 'started') {
    try {
      await dependencies.runner.run(dependencies, started.job);
    } catch (error) {
      // The job could not start: it goes, and so does the credit it cost.
      await mapStore.cancelJob(started.job.auditId, started.job.generation);
      throw error;
    }
  } else {
    await dependencies.runner.run(dependencies, started.job);
  }
  return awaitJob(dependencies, started.job, options);
}

async function awaitJob(
  dependencies: BuyerQuestionMapDependencies,
  job: MapJobRecord,
  options: StartBuyerQuestionMapOptions,
): Promise<BuyerQuestionMapResponse> {
  await dependencies.runner.waitFor(job.auditId, job.generation, options.waitMs ?? DEFAULT_MAP_WAIT_MS, options.signal, dependencies.mapStore);
  const current = await dependencies.mapStore.job(job.auditId, job.generation);
  if (current?.status === 'complete' && current.map !== undefined) {
    return { ok: true, cached: false, map: current.map as unknown as BuyerQuestionMap };
  }
  return runningResponse(dependencies, current ?? job);
}

async function storedResponse(dependencies: BuyerQuestionMapDependencies, stored: MapJobRecord): Promise<BuyerQuestionMapResponse> {
  const map = stored.map as unknown as BuyerQuestionMap;
  const running = await dependencies.mapStore.runningJob(stored.auditId);
  if (running === undefined) return { ok: true, cached: true, map };
  // The previous map stays the answer until the re-measurement completes.
  return { ok: true, cached: true, map, remeasuring: { status: 'running', generation: running.generation, progress: await progressOf(dependencies, running) } };
}

async function runningResponse(dependencies: BuyerQuestionMapDependencies, job: MapJobRecord): Promise<BuyerQuestionMapResponse> {
  return { ok: true, cached: false, status: 'running', generation: job.generation, progress: await progressOf(dependencies, job) };
}

async function progressOf(dependencies: BuyerQuestionMapDependencies, job: MapJobRecord): Promise<BuyerQuestionMapProgress> {
  return { completed: await dependencies.mapStore.countCells(job.auditId, job.generation), total: job.questions.length * job.providers.length };
}

/** progressOf for the map read's fast path (synchronous, on the SQLite repository). */
function progressNow(repository: MapRepository, job: MapJobRecord): BuyerQuestionMapProgress {
  return { completed: repository.countCells(job.auditId, job.generation), total: job.questions.length * job.providers.length };
}

async function findAudit(dependencies: BuyerQuestionMapDependencies, auditId: string): Promise<AuditRecord> {
  if (!UUID.test(auditId)) throw auditNotFound();
  const audit = await dependencies.auditRepository.getAudit(auditId.toLowerCase());
  if (audit === undefined) throw auditNotFound();
  return audit;
}

/** The audit's buyer questions (`productFanout.questions`) and, when there are none, why. */
function readFanout(audit: AuditRecord): { questions: string[]; reasonMissing: string | undefined } {
  const fanout = audit.response['productFanout'] as { questions?: unknown } | null | undefined;
  const questions = Array.isArray(fanout?.questions)
    ? fanout.questions.filter((question): question is string => typeof question === 'string' && question.trim() !== '')
    : [];
  const reason = audit.response['fanoutMissingReason'];
  return { questions, reasonMissing: typeof reason === 'string' ? reason : undefined };
}

/** The audit's watch list: the competitors its request named, a hint for the extractor like the brand. */
function watchedCompetitors(audit: AuditRecord): string[] {
  const competitors = audit.response['competitors'];
  if (!Array.isArray(competitors)) return [];
  return competitors.flatMap((competitor: unknown) => {
    const entry = competitor as { name?: unknown; watched?: unknown } | null;
    return entry !== null && entry.watched === true && typeof entry.name === 'string' ? [entry.name] : [];
  });
}

function newJob(dependencies: BuyerQuestionMapDependencies, audit: AuditRecord, questions: string[], chargedEmail?: string): NewMapJob {
  return {
    auditId: audit.id,
    mode: dependencies.mode,
    brand: audit.brand,
    website: audit.website,
    competitors: watchedCompetitors(audit),
    questions,
    providers: [...dependencies.lineup.values()].map((provider) => ({ provider: provider.id, model: provider.model })),
    chargedEmail,
    createdAt: (dependencies.now ?? (() => new Date()))().toISOString(),
  };
}
