import type { LogLevelName } from '../config/config.js';

const LEVEL_RANK: Record<LogLevelName, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type LogFields = Record<string, unknown>;

/** A structured logger: one JSON object per line, with bound fields such as a request id. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(bindings: LogFields): Logger;
}

export interface LoggerOptions {
  level?: LogLevelName;
  /** Where lines go; the CLI passes stderr so stdout stays for results. */
  write?: (line: string) => void;
  now?: () => Date;
}

function serialiseError(error: Error): LogFields {
  return { type: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
}

let currentTimeMs = Number.NaN;
let currentTimeText = '';
/** The ISO time of now, formatted once per millisecond (under load many lines share one). */
function currentTime(): string {
  const nowMs = Date.now();
  if (nowMs !== currentTimeMs) {
    currentTimeMs = nowMs;
    currentTimeText = new Date(nowMs).toISOString();
  }
  return currentTimeText;
}

/** Creates a JSON-lines logger; errors in fields are expanded so they survive JSON. */
export function createLogger(options: LoggerOptions = {}, bindings: LogFields = {}): Logger {
  const threshold = LEVEL_RANK[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const time = options.now === undefined ? currentTime : ((now: () => Date) => () => now().toISOString())(options.now);
  const emit = (level: Exclude<LogLevelName, 'silent'>, message: string, fields?: LogFields) => {
    if (LEVEL_RANK[level] < threshold) return;
    const record: LogFields = { time: time(), level, msg: message, ...bindings };
    // for-in, not Object.entries: this runs once per request (the access-log line).
    for (const key in fields) {
      const value = fields[key];
      record[key] = value instanceof Error ? serialiseError(value) : value;
    }
    let line: string;
    try {
      line = JSON.stringify(record);
    } catch {
      line = JSON.stringify({ time: record.time, level, msg: message, note: 'fields could not be serialised' });
    }
    write(`${line}\n`);
  };
  return {
    debug: (message, fields) => emit('debug', message, fields),
    info: (message, fields) => emit('info', message, fields),
    warn: (message, fields) => emit('warn', message, fields),
    error: (message, fields) => emit('error', message, fields),
    child: (childBindings) => createLogger(options, { ...bindings, ...childBindings }),
  };
}

/** A `write` for createLogger that joins the lines of one event-loop turn into one write. */
export interface BatchedWrite {
  write(line: string): void;
  /** Writes what is pending now (call on exit so no line is lost). */
  flush(): void;
}

/**
 * Joins lines into one `output` call per event-loop turn (flushed by setImmediate), or sooner once
 * `maxPendingBytes` are waiting. Under load the service writes an access-log line per request; written
 * one by one to a pipe, each is its own synchronous system call (about a fifth of the CPU of a cheap
 * read, docs/benchmarks.md). The order of lines is kept; what a hard kill (SIGKILL) can lose is the
 * current turn's lines, which the caller's exit handler flushes in every other case.
 */
export function createBatchedWrite(output: (text: string) => void, options: { maxPendingBytes?: number } = {}): BatchedWrite {
  const maxPendingBytes = options.maxPendingBytes ?? 64 * 1024;
  let pending: string[] = [];
  let pendingBytes = 0;
  let scheduled = false;
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    pendingBytes = 0;
    output(text);
  };
  return {
    write(line) {
      pending.push(line);
      pendingBytes += line.length;
      if (pendingBytes >= maxPendingBytes) {
        flush();
        return;
      }
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          flush();
        });
      }
    },
    flush,
  };
}
