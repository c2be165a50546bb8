import { parseArgs } from 'node:util';
import { normalizeEmail } from '../auth/email-address.js';
import { processIo, type CliIo } from './io.js';

// `visibility watch …`: the operator's side of tracking (docs/tracking.md, docs/cli.md). It works on the store
// of DATA_DIR directly, as the owner's account would over REST, without a session and without spending credits.

const EXIT_OK = 0;
const EXIT_UNEXPECTED = 1;
const EXIT_USAGE = 2;
const EXIT_NOT_MEASURED = 3;

export const WATCH_USAGE = `Usage:
  visibility watch add <brand> --category "<category>" --email <owner> [--website <site>]
        [--schedule daily|weekly] [--samples 1-5] [--question "<q>" …] [--provider <id> …]
        [--webhook <url>] [--no-email-alert] [--json]
  visibility watch list --email <owner> [--json]
  visibility watch run <watchId> [--json]          run it now (no credit) and wait for the result
  visibility watch history <watchId> [--csv] [--from <date>] [--to <date>]
  visibility watch run-due [--now <ISO-time>]      run the watches due at that time (default now) once, resume
                                                   runs whose process died, try due alerts, and exit
`;

function usageError(message: string): number {
  process.stderr.write(`visibility watch: ${message}\n${WATCH_USAGE}`);
  return EXIT_USAGE;
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h', default: false },
  json: { type: 'boolean', default: false },
  csv: { type: 'boolean', default: false },
  category: { type: 'string' },
  email: { type: 'string' },
  website: { type: 'string' },
  schedule: { type: 'string' },
  samples: { type: 'string' },
  question: { type: 'string', multiple: true },
  provider: { type: 'string', multiple: true },
  webhook: { type: 'string' },
  'no-email-alert': { type: 'boolean', default: false },
  from: { type: 'string' },
  to: { type: 'string' },
  now: { type: 'string' },
} as const;

/** `visibility watch add|list|run|history|run-due`. */
export async function runWatchCommand(argv: string[], io: CliIo = processIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(WATCH_USAGE);
    return EXIT_OK;
  }
  const [action, subject, ...extra] = positionals;
  if (extra.length > 0) return usageError(`unexpected argument "${extra[0]}".`);
  let now: Date | undefined;
  if (values.now !== undefined) {
    now = new Date(values.now);
    if (action !== 'run-due') return usageError('--now is for run-due.');
    if (Number.isNaN(now.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(values.now)) return usageError(`--now "${values.now}" is not an ISO time.`);
  }
  let email: string | undefined;
  if (values.email !== undefined) {
    email = normalizeEmail(values.email);
    if (email === undefined) return usageError(`"${values.email}" is not a valid email address.`);
  }
  switch (action) {
    case 'add':
      if (subject === undefined || values.category === undefined || email === undefined) return usageError('add needs <brand>, --category and --email.');
      break;
    case 'list':
      if (email === undefined) return usageError('list needs --email.');
      break;
    case 'run':
    case 'history':
      if (subject === undefined) return usageError(`${action} needs a watch id.`);
      break;
    case 'run-due':
      break;
    default:
      return usageError(action === undefined ? 'missing the action (add, list, run, history, run-due).' : `unknown action "${action}".`);
  }

  const [core, { loadCliConfig }, { createRuntime }] = await Promise.all([
    import('@visibility/core'),
    import('./measurement-run.js'),
    import('../runtime.js'),
  ]);
  const config = loadCliConfig(io);
  if (typeof config === 'number') return config;
  const logger = core.createLogger({ level: config.logLevel === 'debug' ? 'debug' : 'warn', write: (line) => process.stderr.write(line) });
  const runtime = await createRuntime(config, logger);
  const tracker = runtime.watchTracker;
  const out = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  try {
    if (action === 'add') {
      const body: Record<string, unknown> = {
        brand: subject,
        category: values.category,
        schedule: values.schedule ?? 'daily',
        ...(values.website === undefined ? {} : { website: values.website }),
        ...(values.samples === undefined ? {} : { samples: /^\d+$/.test(values.samples) ? Number(values.samples) : values.samples }),
        ...(values.question === undefined ? {} : { questions: values.question }),
        ...(values.provider === undefined ? {} : { providers: values.provider }),
        alert: { email: !values['no-email-alert'], ...(values.webhook === undefined ? {} : { webhookUrl: values.webhook }) },
      };
      const created = await core.createWatch(tracker, email as string, body, { crawl: core.crawlSite });
      if (values.json) out({ ...created.watch, webhookSecret: created.webhookSecret });
      else {
        process.stdout.write(`watch ${created.watch.id}: ${created.watch.brand} (${created.watch.category}), ${created.watch.schedule}, ${created.watch.questions.length} questions × ${created.watch.providers.join(', ')} × ${created.watch.samples}\n`);
        process.stdout.write(`first run due ${created.watch.nextRunAt}; webhook secret (shown once): ${created.webhookSecret}\n`);
      }
      return EXIT_OK;
    }
    if (action === 'list') {
      const watches = await core.listWatches(tracker, email as string);
      if (values.json) out({ watches });
      else for (const watch of watches) process.stdout.write(`${watch.id}  ${watch.brand} (${watch.category})  ${watch.schedule}${watch.paused ? ' paused' : ''}  next ${watch.nextRunAt}\n`);
      return EXIT_OK;
    }
    if (action === 'run-due') {
      const started = await tracker.tick(now ?? new Date());
      await tracker.idle();
      let failed = 0;
      for (const begun of started) {
        const run = await core.runView(tracker, (await runtime.store.watchRepository.getRun(begun.id)) ?? begun);
        if (run.status !== 'complete') failed += 1;
        process.stdout.write(`${run.watchId} run ${run.id}: ${run.status}${run.reason === null ? '' : ` (${run.reason})`}${run.changes.length > 0 ? `, ${run.changes.length} change(s)` : ''}\n`);
      }
      if (started.length === 0) process.stdout.write('no watch was due\n');
      return failed > 0 && failed === started.length ? EXIT_NOT_MEASURED : EXIT_OK;
    }
    const record = await runtime.store.watchRepository.getWatch(String(subject).toLowerCase());
    if (record === undefined) {
      process.stderr.write(`visibility watch: there is no watch ${subject}\n`);
      return EXIT_USAGE;
    }
    if (action === 'run') {
      const { run } = await core.startRunNow(tracker, record, null);
      await tracker.idle();
      const finished = await core.runView(tracker, (await runtime.store.watchRepository.getRun(run.id)) as NonNullable<Awaited<ReturnType<typeof runtime.store.watchRepository.getRun>>>);
      if (values.json) out(finished);
      else {
        const overall = finished.point?.overall;
        process.stdout.write(`run ${finished.id}: ${finished.status}${finished.reason === null ? '' : ` (${finished.reason})`}\n`);
        if (overall !== undefined) process.stdout.write(`named in ${overall.named} of ${overall.answers} answers (95% interval ${Math.round(overall.low * 100)}–${Math.round(overall.high * 100)}%)\n`);
        for (const change of finished.changes) process.stdout.write(`change: ${core.describeChange(change, record.brand)}\n`);
      }
      return finished.status === 'complete' ? EXIT_OK : EXIT_NOT_MEASURED;
    }
    // history
    const history = await core.historyOf(tracker, record, { from: values.from, to: values.to });
    if (values.csv) process.stdout.write(core.historyCsv(history));
    else if (values.json) out(history);
    else {
      for (const point of history.points) {
        const rate = point.overall.mentionRate === null ? 'n/a' : `${Math.round(point.overall.mentionRate * 100)}%`;
        process.stdout.write(`${point.at}  ${rate}  [${Math.round(point.overall.low * 100)}–${Math.round(point.overall.high * 100)}%]  ${point.overall.answers} answers\n`);
      }
      for (const change of history.changes) process.stdout.write(`change ${change.at}: ${core.describeChange(change, record.brand)}\n`);
      for (const skipped of history.skipped) process.stdout.write(`${skipped.status} ${skipped.at}: ${skipped.reason ?? ''}\n`);
    }
    return EXIT_OK;
  } catch (error) {
    if (error instanceof core.TrackingError) {
      process.stderr.write(`visibility watch: ${error.message} [${error.code}]\n  hint: ${error.hint}\n`);
      return error.isFieldError ? EXIT_USAGE : EXIT_NOT_MEASURED;
    }
    process.stderr.write(`visibility watch: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT_UNEXPECTED;
  } finally {
    await runtime.close();
  }
}
