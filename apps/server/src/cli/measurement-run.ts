// What `visibility repeat` and `visibility check` share: the configured runtime, the progress display,
// Ctrl-C, and the exit codes scripts branch on (documented in docs/cli.md and the usage text).

import { ConfigError, createLogger, loadConfig, MeasurementError, type LogLevelName, type MeasurementOptions } from '@visibility/core';
import { ApiError, type ApiErrorBody } from '../http/api-error.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { describeWait } from './format.js';
import { createProgressDisplay } from './progress.js';

/** The CLI's exit codes for measurements. */
export const EXIT_CODES = {
  /** The measurement ran; the result is on stdout. */
  ok: 0,
  /** Anything unexpected (a bug, an unreadable database); details on stderr. */
  unexpected: 1,
  /** Bad arguments, or a request the REST operation would refuse with a 400. */
  usage: 2,
  /** The measurement could not run (MeasurementError), or a repeat where no run answered. */
  notMeasured: 3,
  /** The configuration (environment) is invalid, as `visibility serve` reports it. */
  config: 78,
  /** Interrupted with Ctrl-C (SIGINT); the provider calls in flight were aborted. */
  interrupted: 130,
} as const;

/** Log levels by verbosity: the CLI logs warnings and errors (on stderr) unless LOG_LEVEL is quieter. */
const LOG_LEVEL_RANK: Readonly<Record<LogLevelName, number>> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

/** How one measurement command runs once its arguments are valid. */
export interface MeasurementCommand<Result> {
  /** The command's name, for messages: "repeat", "check". */
  name: string;
  /** Print the REST operation's JSON (`--json`) instead of the readable summary. */
  json: boolean;
  /** The line shown on stderr before the first provider call. */
  describe(runtime: Runtime): string;
  /** Runs the core measurement against the runtime's lineup. */
  measure(runtime: Runtime, options: Required<Pick<MeasurementOptions, 'onProgress' | 'signal'>>): Promise<Result>;
  /** The readable summary printed on stdout without `--json`. */
  summarize(result: Result, runtime: Runtime): string;
  /** Whether a result that arrived still counts as not measured (exit 3), with the reason for stderr. */
  assess?(result: Result): { exitCode: number; note?: string | undefined };
}

/** Writes a usage error (stderr only, nothing on stdout) and returns exit code 2. */
export function usageError(name: string, message: string, usage: string): number {
  process.stderr.write(`visibility ${name}: ${message}\n${usage}`);
  return EXIT_CODES.usage;
}

/** Turns the REST validation's ApiError into a usage error, so the CLI refuses exactly what the API refuses. */
export function validationError(name: string, error: unknown, usage: string): number {
  if (!(error instanceof ApiError)) throw error;
  return usageError(name, `${error.message} [${error.code}]`, usage);
}

/** Writes the result as one JSON document, the body the HTTP operation answers. */
function writeJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Loads the config, runs the measurement with progress on stderr and Ctrl-C support, prints the result, and returns the exit code. */
export async function runMeasurementCommand<Result>(command: MeasurementCommand<Result>): Promise<number> {
  const progress = createProgressDisplay(process.stderr);
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT_CODES.config;
    }
    throw error;
  }

  // Ctrl-C aborts the provider calls in flight; a second Ctrl-C gives up waiting for them.
  const controller = new AbortController();
  const onInterrupt = (): void => {
    if (controller.signal.aborted) process.exit(EXIT_CODES.interrupted);
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onInterrupt);

  const level: LogLevelName = LOG_LEVEL_RANK[config.logLevel] > LOG_LEVEL_RANK.warn ? config.logLevel : 'warn';
  const logger = createLogger({ level, write: (line) => progress.note(line.replace(/\n$/, '')) });
  let runtime: Runtime | undefined;
  try {
    runtime = await createRuntime(config, logger);
    if (runtime.simulator !== undefined) {
      progress.note('Demo lineup: the answers come from the built-in demo simulator, not from a real model.');
    }
    progress.note(command.describe(runtime));
    const result = await command.measure(runtime, {
      signal: controller.signal,
      onProgress: (event) => {
        // Calls cancelled by Ctrl-C report as failed runs; they are not news.
        if (!controller.signal.aborted) progress.step(event);
      },
    });
    progress.finish();
    const assessment = command.assess?.(result) ?? { exitCode: EXIT_CODES.ok };
    if (command.json) writeJson(result);
    else process.stdout.write(command.summarize(result, runtime));
    if (assessment.note !== undefined) progress.note(`visibility ${command.name}: ${assessment.note}`);
    return assessment.exitCode;
  } catch (error) {
    progress.finish();
    return reportFailure(command, error, controller.signal, config.baseUrl);
  } finally {
    process.off('SIGINT', onInterrupt);
    await runtime?.close();
  }
}

/** Maps a failed measurement to its exit code, with the message on stderr (and the ApiError JSON for `--json`). */
function reportFailure(command: Pick<MeasurementCommand<unknown>, 'name' | 'json'>, error: unknown, signal: AbortSignal, baseUrl: string): number {
  const prefix = `visibility ${command.name}`;
  if (signal.aborted) {
    process.stderr.write(`${prefix}: interrupted; the provider calls in flight were aborted.\n`);
    return EXIT_CODES.interrupted;
  }
  if (error instanceof MeasurementError) {
    const retry = error.retryAfterSeconds === undefined ? '' : `\n  retry after: ${describeWait(error.retryAfterSeconds)} (${error.retryAfterSeconds} s)`;
    process.stderr.write(`${prefix}: ${error.message}\n  code: ${error.code}\n  hint: ${error.hint}${retry}\n`);
    if (command.json) {
      const body: ApiErrorBody = { error: error.message, code: error.code, hint: error.hint, docs: `${baseUrl}/developers` };
      writeJson(body);
    }
    return EXIT_CODES.notMeasured;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`${prefix}: unexpected error: ${detail}\n`);
  return EXIT_CODES.unexpected;
}
