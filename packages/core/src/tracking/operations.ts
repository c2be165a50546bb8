// The watch operations REST, the CLI, MCP and the site share: create, list, read, change, delete, run now,
// a run's progress, and the history with its changes (JSON and CSV). Every read is the owner's only: another
// account's watch is the same 404 as no watch at all.

import { randomBytes, randomUUID } from 'node:crypto';
import { generateBuyerQuestions } from '../audit/buyer-questions.js';
import type { CrawlReport } from '../crawl/crawl-report.js';
import type { CrawlOptions } from '../crawl/crawl-site.js';
import type { ProviderId } from '../providers/types.js';
import type { WatchRecord, WatchRunRecord } from '../store/watch-repository.js';
import { runNotFound, TrackingError, watchNotFound } from './errors.js';
import type { HistoryPoint, StoredPoint, Watch, WatchChange, WatchRun } from './types.js';
import { MAX_WATCH_QUESTIONS, MAX_WATCHES_PER_OWNER } from './types.js';
import type { WatchTracker } from './tracker.js';
import { parseWatchPatch, parseWatchRequest } from './watch-request.js';
import { schedulePeriodMs } from './schedule.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CreateWatchOptions {
  /** The crawler used for the default questions when a website is given (tests inject one). */
  crawl?: ((website: string, options: CrawlOptions) => Promise<CrawlReport>) | undefined;
}

/** The watch as the API shows it: never the owner's address or the webhook secret. */
export function watchView(record: WatchRecord): Watch {
  return {
    id: record.id,
    brand: record.brand,
    category: record.category,
    website: record.website,
    questions: record.questions,
    providers: record.providers,
    samples: record.samples,
    schedule: record.schedule,
    paused: record.paused,
    nextRunAt: record.nextRunAt,
    createdAt: record.createdAt,
    alert: { email: record.alertEmail, webhookUrl: record.webhookUrl },
  };
}

/** Strips what only change detection reads (every competitor's count). */
export function publicPoint(point: StoredPoint): HistoryPoint {
  const { competitors: _all, ...rest } = point;
  return rest;
}

/** Creates a watch for the signed-in owner; the webhook secret is in the answer this once. */
export async function createWatch(
  tracker: WatchTracker,
  ownerEmail: string,
  body: unknown,
  options: CreateWatchOptions = {},
): Promise<{ watch: Watch; webhookSecret: string }> {
  const { watchRepository, lineup, hostMap } = tracker.dependencies;
  const request = parseWatchRequest(body, { hostMap, enabledProviders: [...lineup.keys()] });
  if ((await watchRepository.countWatches(ownerEmail)) >= MAX_WATCHES_PER_OWNER) {
    throw new TrackingError('too_many_watches', `An account keeps at most ${MAX_WATCHES_PER_OWNER} watches.`, 'Delete a watch you no longer need, then create this one.');
  }
  let questions = request.questions;
  if (questions === undefined) {
    // The buyer questions an audit of this brand and category would ask (the site read first when given).
    let crawl: CrawlReport | undefined;
    if (request.website !== null && options.crawl !== undefined) crawl = await options.crawl(request.website, { hostMap });
    const generated = generateBuyerQuestions({
      brand: request.brand,
      category: request.category,
      language: crawl?.language ?? 'en',
      vertical: crawl?.vertical ?? 'other',
      crawl,
      website: request.website ?? undefined,
    });
    if (generated.questions.length === 0) {
      throw new TrackingError('no_questions', `\`category\` gives no buyer questions: ${generated.reasonMissing ?? 'nothing to ask'}`, 'Name the category buyers search for, or send your own `questions`.');
    }
    questions = generated.questions.slice(0, MAX_WATCH_QUESTIONS);
  }
  const now = (tracker.dependencies.now ?? (() => new Date()))().toISOString();
  const webhookSecret = randomBytes(32).toString('base64url');
  const record: WatchRecord = {
    id: randomUUID(),
    ownerEmail: ownerEmail.toLowerCase(),
    brand: request.brand,
    category: request.category,
    website: request.website,
    questions,
    providers: request.providers ?? ([...lineup.keys()] as ProviderId[]),
    samples: request.samples,
    schedule: request.schedule,
    paused: false,
    alertEmail: request.alert.email,
    webhookUrl: request.alert.webhookUrl,
    webhookSecret,
    // The first run is due at once: it is the baseline later runs are compared with.
    nextRunAt: now,
    createdAt: now,
    updatedAt: now,
  };
  await watchRepository.createWatch(record);
  return { watch: watchView(record), webhookSecret };
}

/** The owner's watches. */
export async function listWatches(tracker: WatchTracker, ownerEmail: string): Promise<Watch[]> {
  return (await tracker.dependencies.watchRepository.listWatches(ownerEmail)).map(watchView);
}

/** The owner's watch record, or 404 (also for another account's, and for ids that are not UUIDs). */
export async function findOwnedWatch(tracker: WatchTracker, ownerEmail: string, watchId: string): Promise<WatchRecord> {
  const record = UUID.test(watchId) ? await tracker.dependencies.watchRepository.getWatch(watchId.toLowerCase()) : undefined;
  if (record === undefined || record.ownerEmail !== ownerEmail.toLowerCase()) throw watchNotFound();
  return record;
}

/**
 * Changes schedule, alert or paused. A shorter schedule brings the next run forward to at most one new period
 * from now; resuming a paused watch that is overdue makes it due at once.
 */
export async function updateWatch(tracker: WatchTracker, ownerEmail: string, watchId: string, body: unknown): Promise<Watch> {
  const { watchRepository, hostMap } = tracker.dependencies;
  const record = await findOwnedWatch(tracker, ownerEmail, watchId);
  const patch = parseWatchPatch(body, { hostMap });
  const now = (tracker.dependencies.now ?? (() => new Date()))();
  const resumed = patch.paused === false && record.paused;
  let nextRunAt: string | undefined = resumed && record.nextRunAt < now.toISOString() ? now.toISOString() : undefined;
  if (patch.schedule !== undefined && patch.schedule !== record.schedule) {
    const soonest = new Date(now.getTime() + schedulePeriodMs(patch.schedule)).toISOString();
    if ((nextRunAt ?? record.nextRunAt) > soonest) nextRunAt = soonest;
  }
  await watchRepository.updateWatch(
    record.id,
    {
      ...(patch.schedule === undefined ? {} : { schedule: patch.schedule }),
      ...(patch.paused === undefined ? {} : { paused: patch.paused }),
      ...(patch.alert?.email === undefined ? {} : { alertEmail: patch.alert.email }),
      ...(patch.alert?.webhookUrl === undefined ? {} : { webhookUrl: patch.alert.webhookUrl }),
      ...(nextRunAt === undefined ? {} : { nextRunAt }),
    },
    now.toISOString(),
  );
  return watchView((await watchRepository.getWatch(record.id)) as WatchRecord);
}

export async function deleteWatch(tracker: WatchTracker, ownerEmail: string, watchId: string): Promise<void> {
  const record = await findOwnedWatch(tracker, ownerEmail, watchId);
  await tracker.dependencies.watchRepository.deleteWatch(record.id);
}

/** A run as the API shows it, with its progress (answers stored / answers asked). */
export async function runView(tracker: WatchTracker, run: WatchRunRecord): Promise<WatchRun> {
  const total = run.questions.length * run.providers.length * run.samples;
  const completed = run.status === 'complete' ? total : await tracker.dependencies.watchRepository.countAnswers(run.id);
  return {
    id: run.id,
    watchId: run.watchId,
    trigger: run.trigger,
    status: run.status,
    mode: run.mode,
    createdAt: run.createdAt,
    completedAt: run.completedAt,
    reason: run.reason,
    progress: { completed, total },
    point: run.pointJson === null ? null : publicPoint(JSON.parse(run.pointJson) as StoredPoint),
    changes: run.changesJson === null ? [] : (JSON.parse(run.changesJson) as WatchChange[]),
  };
}

/**
 * Runs the watch now for one credit (spent in the same transaction that records the run). While a run of
 * the watch is running it is joined instead, for nothing. With the budget used up the run is recorded as
 * skipped (no credit spent).
 */
export async function runWatchNow(tracker: WatchTracker, ownerEmail: string, watchId: string): Promise<{ run: WatchRun; joined: boolean }> {
  return startRunNow(tracker, await findOwnedWatch(tracker, ownerEmail, watchId), ownerEmail);
}

/** Starts (or joins) a run of the watch now; `chargedEmail` null is the operator's run (CLI), which spends no credit. */
export async function startRunNow(tracker: WatchTracker, record: WatchRecord, chargedEmail: string | null): Promise<{ run: WatchRun; joined: boolean }> {
  const { watchRepository } = tracker.dependencies;
  const now = (tracker.dependencies.now ?? (() => new Date()))();
  const run = tracker.newRun(record, now);
  const skip = await tracker.skipReason(record);
  if (skip !== undefined) {
    const skipped = await watchRepository.recordSkippedRun({ ...run, status: 'skipped', reason: skip }, 'manual');
    return { run: await runView(tracker, skipped), joined: false };
  }
  const started = await watchRepository.startManualRun({ run, chargedEmail, now: now.toISOString() });
  if (started.outcome === 'no_credits') {
    throw new TrackingError('no_credits', 'Your account has no credit left for a run now.', 'Scheduled runs need no credit; ask the operator for credits (visibility credits grant).');
  }
  // A joined run that no process works on (its process died) is resumed by the next tick.
  if (started.outcome === 'started') await tracker.work(started.run);
  return { run: await runView(tracker, started.run), joined: started.outcome === 'joined' };
}

export async function getWatchRun(tracker: WatchTracker, ownerEmail: string, watchId: string, runId: string): Promise<WatchRun> {
  const record = await findOwnedWatch(tracker, ownerEmail, watchId);
  const run = UUID.test(runId) ? await tracker.dependencies.watchRepository.getRun(runId.toLowerCase()) : undefined;
  if (run === undefined || run.watchId !== record.id) throw runNotFound();
  return runView(tracker, run);
}

export interface WatchHistory {
  watch: Watch;
  points: HistoryPoint[];
  changes: WatchChange[];
  /** Runs that measured nothing (skipped for the budget, or failed), with the reason: never silently dropped. */
  skipped: Array<{ runId: string; at: string; status: 'skipped' | 'failed'; reason: string | null }>;
  /** The run measuring now, if any. */
  running: { runId: string; at: string } | null;
}

/** Reads a `from`/`to` bound: an ISO date (the whole day) or date-time. */
export function parseHistoryBound(field: 'from' | 'to', value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new TrackingError('invalid_range', `\`${field}\` must be an ISO date.`, 'Send for example from=2026-11-01&to=2026-11-30.');
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const parsed = new Date(dateOnly ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(parsed.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new TrackingError('invalid_range', `\`${field}\` is not an ISO date: ${value.slice(0, 40)}.`, 'Send for example from=2026-11-01&to=2026-11-30.');
  }
  // A bare `to` date includes that whole day.
  if (dateOnly && field === 'to') return new Date(parsed.getTime() + 86_400_000 - 1).toISOString();
  return parsed.toISOString();
}

/** The points (complete runs, oldest first) and changes of the owner's watch, within from/to. */
export async function getWatchHistory(
  tracker: WatchTracker,
  ownerEmail: string,
  watchId: string,
  range: { from?: unknown; to?: unknown } = {},
): Promise<WatchHistory> {
  const record = await findOwnedWatch(tracker, ownerEmail, watchId);
  return historyOf(tracker, record, range);
}

/** The history of a watch record (the caller checked it is theirs). */
export async function historyOf(tracker: WatchTracker, record: WatchRecord, range: { from?: unknown; to?: unknown } = {}): Promise<WatchHistory> {
  const from = parseHistoryBound('from', range.from);
  const to = parseHistoryBound('to', range.to);
  if (from !== undefined && to !== undefined && from > to) throw new TrackingError('invalid_range', '`from` is after `to`.', 'Swap them.');
  const runs = await tracker.dependencies.watchRepository.listRuns(record.id, { from, to });
  const points: HistoryPoint[] = [];
  const changes: WatchChange[] = [];
  const skipped: WatchHistory['skipped'] = [];
  let running: WatchHistory['running'] = null;
  for (const run of runs) {
    if (run.status === 'complete' && run.pointJson !== null) {
      points.push(publicPoint(JSON.parse(run.pointJson) as StoredPoint));
      changes.push(...(JSON.parse(run.changesJson ?? '[]') as WatchChange[]));
    } else if (run.status === 'skipped' || run.status === 'failed') {
      skipped.push({ runId: run.id, at: run.createdAt, status: run.status, reason: run.reason });
    } else if (run.status === 'running') {
      running = { runId: run.id, at: run.createdAt };
    }
  }
  return { watch: watchView(record), points, changes, skipped, running };
}

export const HISTORY_CSV_COLUMNS = [
  'runId',
  'at',
  'mode',
  'provider',
  'model',
  'mentionRate',
  'low',
  'high',
  'answers',
  'named',
  'rank',
  'overallMentionRate',
  'overallLow',
  'overallHigh',
  'shareOfVoice',
  'costUsd',
] as const;

/** The history's points as CSV, one row per run and provider (RFC 4180; cells that a spreadsheet would run as a formula are quoted with a leading '). */
export function historyCsv(history: WatchHistory): string {
  const rows: string[] = [HISTORY_CSV_COLUMNS.join(',')];
  for (const point of history.points) {
    for (const [provider, entry] of Object.entries(point.providers)) {
      if (entry === undefined) continue;
      rows.push(
        [
          point.runId,
          point.at,
          point.mode,
          provider,
          entry.model ?? '',
          entry.mentionRate ?? '',
          entry.low,
          entry.high,
          entry.answers,
          entry.named,
          entry.rank ?? '',
          point.overall.mentionRate ?? '',
          point.overall.low,
          point.overall.high,
          point.shareOfVoice ?? '',
          point.costUsd,
        ]
          .map(csvCell)
          .join(','),
      );
    }
  }
  return `${rows.join('\r\n')}\r\n`;
}

function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
