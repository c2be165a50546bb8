// What `visibility repeat`, `visibility check` and `visibility audit` share: the configured runtime, the progress display,
// Ctrl-C, and the exit codes scripts branch on (documented in docs/cli.md and the usage text).

import { setMaxListeners } from 'node:events';
import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;
import {
  ConfigError,
  createLogger,
  loadConfig,
  MeasurementError,
  RequestValidationError,
  StoreUnavailableError,
  type Config,
  type LogLevelName,
  type Logger,
  type MeasurementProgress,
} from '@visibility/core';
import { createRuntime, type Runtime } from '../runtime.js';
import { describeWait } from './format.js';
import type { CliIo } from './io.js';
import { createProgressDisplay, type ProgressDisplay } from './progress.js';

/** The CLI's exit codes for measurements. */
export const EXIT_CODES = {
  /** The measurement ran; the result is on stdout. */
  ok: 0,
  /** Anything unexpected (a bug, an unreadable database); details on stderr. */
  unexpected: 1,
  /** Bad arguments, or a request the REST operation would refuse with a 400. */
  usage: 2,
  /** The measurement could not run (MeasurementError, an audit that could not be saved), or ran and measured nothing. */
  notMeasured: 3,
  /** The configuration (environment) is invalid, as `visibility serve` reports it. */
  config: 78,
  /** Interrupted with Ctrl-C (SIGINT); the provider calls in flight were aborted. */
  interrupted: 130,
} as const;

/** Log levels by verbosity: the CLI logs warnings and errors (on stderr) unless LOG_LEVEL is quieter. */
const LOG_LEVEL_RANK: Readonly<Record<LogLevelName, number>> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

/** What a measurement gets besides the runtime: Ctrl-C's signal, the progress callback, the CLI's logger. */
export interface MeasureOptions<Progress> {
  signal: AbortSignal;
  onProgress: (event: Progress) => void;
  logger: Logger;
}

/** How one measurement command runs once its arguments are valid. */
export interface MeasurementCommand<Result, Progress extends MeasurementProgress = MeasurementProgress> {
  /** The command's name, for messages: "repeat", "check", "audit". */
  name: string;
  /** Print the REST operation's JSON (`--json`) instead of the readable summary. */
  json: boolean;
  /** The configuration, when the command loaded it already (to validate its arguments); else loaded here. */
  config?: Config | undefined;
  /** The line shown on stderr before the first provider call. */
  describe(runtime: Runtime): string;
  /** Runs the core measurement against the runtime's lineup. */
  measure(runtime: Runtime, options: MeasureOptions<Progress>): Promise<Result>;
  /** How progress events are shown (default: one `  [3/5] label` step each). */
  progress?(runtime: Runtime, display: ProgressDisplay): (event: Progress) => void;
  /** The readable summary printed on stdout without `--json`. */
  summarize(result: Result, runtime: Runtime): string;
  /** Whether a result that arrived still counts as not measured (exit 3), with the reason for stderr. */
  assess?(result: Result): { exitCode: number; note?: string | undefined };
}

/** Loads the configuration from the environment; a ConfigError is reported on stderr and becomes exit 78. */
export function loadCliConfig(io: CliIo): Config | number {
  try {
    return loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT_CODES.config;
    }
    throw error;
  }
}

/** The options every measurement command takes besides its own. */
const COMMON_OPTIONS = {
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsOptionsConfig;

/** A measurement command's arguments: --json, the subject, and its own options' values (strings). */
export interface CommandLine {
  json: boolean;
  subject: string | undefined;
  values: Readonly<Record<string, string | boolean | undefined>>;
}

/**
 * Reads a measurement command's arguments: its `options` plus --json and --help, and at most one
 * positional, the `subject` ("brand" or "question"); when `--brand` is an option the brand comes one
 * way or the other, not both. Usage errors and --help are answered here: the exit code comes back
 * instead of the arguments.
 */
export function readCommandLine(
  io: CliIo,
  command: { name: string; usage: string; subject: 'brand' | 'question'; quoteHint: string },
  argv: string[],
  options: ParseArgsOptionsConfig,
): CommandLine | number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, ...COMMON_OPTIONS }, allowPositionals: true, strict: true });
  } catch (error) {
    return usageError(io, command.name, (error as Error).message, command.usage);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const { positionals } = parsed;
  if (values['help'] === true) {
    io.stdout.write(command.usage);
    return EXIT_CODES.ok;
  }
  if (positionals.length > 1) {
    return usageError(io, command.name, `expected one ${command.subject}, got ${positionals.length} arguments; ${command.quoteHint}`, command.usage);
  }
  const flag = values['brand'];
  if (positionals.length === 1 && flag !== undefined) {
    return usageError(io, command.name, 'give the brand either as an argument or with --brand, not both.', command.usage);
  }
  return { json: values['json'] === true, subject: positionals[0] ?? (typeof flag === 'string' ? flag : undefined), values };
}

/** Writes a usage error (stderr only, nothing on stdout) and returns exit code 2. */
export function usageError(io: CliIo, name: string, message: string, usage: string): number {
  io.stderr.write(`visibility ${name}: ${message}\n${usage}`);
  return EXIT_CODES.usage;
}

/** Turns core's request validation (REST's 400) into a usage error, so the CLI refuses exactly what the API refuses. */
export function validationError(io: CliIo, name: string, error: unknown, usage: string): number {
  if (!(error instanceof RequestValidationError)) throw error;
  return usageError(io, name, `${error.message} [${error.code}]`, usage);
}

/** Writes the result as one JSON document, the body the HTTP operation answers. */
function writeJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Loads the config, runs the measurement with progress on stderr and Ctrl-C support, prints the result, and returns the exit code. */
export async function runMeasurementCommand<Result, Progress extends MeasurementProgress = MeasurementProgress>(
  io: CliIo,
  command: MeasurementCommand<Result, Progress>,
): Promise<number> {
  const progress = createProgressDisplay(io.stderr);
  const config = command.config ?? loadCliConfig(io);
  if (typeof config === 'number') return config;

  // Ctrl-C aborts the provider calls in flight; a second Ctrl-C gives up waiting for them.
  const controller = new AbortController();
  // Every concurrent provider call listens on this one signal (an audit makes dozens at once).
  setMaxListeners(0, controller.signal);
  const onInterrupt = (): void => {
    if (controller.signal.aborted) io.exit(EXIT_CODES.interrupted);
    controller.abort(new Error('interrupted'));
  };
  const stopListening = io.onInterrupt(onInterrupt);

  const level: LogLevelName = LOG_LEVEL_RANK[config.logLevel] > LOG_LEVEL_RANK.warn ? config.logLevel : 'warn';
  const logger = createLogger({ level, write: (line) => progress.note(line.replace(/\n$/, '')) });
  let runtime: Runtime | undefined;
  try {
    runtime = await createRuntime(config, logger);
    if (runtime.simulator !== undefined) {
      progress.note('Demo lineup: the answers come from the built-in demo simulator, not from a real model.');
    }
    progress.note(command.describe(runtime));
    const show = command.progress?.(runtime, progress) ?? ((event: Progress) => progress.step(event));
    const result = await command.measure(runtime, {
      signal: controller.signal,
      onProgress: (event) => {
        // Calls cancelled by Ctrl-C report as failed runs; they are not news.
        if (!controller.signal.aborted) show(event);
      },
      logger,
    });
    progress.finish();
    const assessment = command.assess?.(result) ?? { exitCode: EXIT_CODES.ok };
    if (command.json) writeJson(io, result);
    else io.stdout.write(command.summarize(result, runtime));
    if (assessment.note !== undefined) progress.note(`visibility ${command.name}: ${assessment.note}`);
    return assessment.exitCode;
  } catch (error) {
    progress.finish();
    return reportFailure(io, command, error, controller.signal, config.baseUrl);
  } finally {
    stopListening();
    await runtime?.close();
  }
}

/** Maps a failed measurement to its exit code, with the message on stderr (and the ApiError JSON for `--json`). */
function reportFailure(io: CliIo, command: { name: string; json: boolean }, error: unknown, signal: AbortSignal, baseUrl: string): number {
  const prefix = `visibility ${command.name}`;
  if (signal.aborted) {
    io.stderr.write(`${prefix}: interrupted; the provider calls in flight were aborted.\n`);
    return EXIT_CODES.interrupted;
  }
  if (error instanceof MeasurementError || error instanceof StoreUnavailableError) {
    const hint = error.hint;
    const retry = error.retryAfterSeconds === undefined ? '' : `\n  retry after: ${describeWait(error.retryAfterSeconds)} (${error.retryAfterSeconds} s)`;
    io.stderr.write(`${prefix}: ${error.message}\n  code: ${error.code}\n  hint: ${hint}${retry}\n`);
    if (command.json) {
      const body = { error: error.message, code: error.code, hint, docs: `${baseUrl}/developers` };
      writeJson(io, body);
    }
    return EXIT_CODES.notMeasured;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr.write(`${prefix}: unexpected error: ${detail}\n`);
  return EXIT_CODES.unexpected;
}
