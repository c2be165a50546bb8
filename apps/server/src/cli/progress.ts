import type { MeasurementProgress, ProviderId, StartAuditProgress } from '@visibility/core';

/** Where progress goes: stderr, so stdout carries only the result. */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
}

/** A progress display for one measurement, on a stream that is not stdout. */
export interface ProgressDisplay {
  /** Prints one message line (the start of the measurement, a note, a warning). */
  note(text: string): void;
  /** Shows a finished step: `  [3/5] run 3 of 5: ok`. */
  step(event: MeasurementProgress): void;
  /** Shows a status line that the next status or done replaces on a terminal (its own line elsewhere). */
  status(text: string): void;
  /** Shows a status line that stays: replaces the open status line on a terminal, then ends the line. */
  done(text: string): void;
  /** Ends the display; a redrawn line is closed with a newline. Safe to call twice. */
  finish(): void;
}

/**
 * On a terminal the step line is redrawn in place (`\r`); elsewhere (a pipe, a log file, a test) every
 * step is its own line, so the output stays readable after the fact.
 */
export function createProgressDisplay(stream: ProgressStream): ProgressDisplay {
  const redraw = stream.isTTY === true;
  let lineOpen = false;
  const closeLine = (): void => {
    if (!lineOpen) return;
    stream.write('\n');
    lineOpen = false;
  };
  const status = (line: string): void => {
    if (redraw) {
      stream.write(`\r\u001b[2K${line}`);
      lineOpen = true;
    } else {
      stream.write(`${line}\n`);
    }
  };
  return {
    note(text) {
      closeLine();
      stream.write(`${text}\n`);
    },
    step(event) {
      status(`  [${event.completed}/${event.total}] ${event.label}`);
    },
    status,
    done(text) {
      status(text);
      closeLine();
    },
    finish: closeLine,
  };
}

/**
 * The audit's live progress: one line per stage (crawl, buyer questions, answers, findings); the answers
 * line counts each provider's calls, `  answers: openai 12/24, anthropic 10/24, gemini 11/24`.
 * `providers` is the lineup in the order it is asked; each provider gets the same number of calls.
 */
export function createAuditProgress(display: ProgressDisplay, providers: readonly ProviderId[]): (event: StartAuditProgress) => void {
  const answered = new Map<ProviderId, number>(providers.map((provider) => [provider, 0]));
  return (event) => {
    const finished = event.completed >= event.total;
    if (event.stage === 'answers') {
      if (event.provider !== undefined) answered.set(event.provider, (answered.get(event.provider) ?? 0) + 1);
      const perProvider = answered.size === 0 ? event.total : Math.ceil(event.total / answered.size);
      const counts = [...answered].map(([provider, count]) => `${provider} ${count}/${perProvider}`).join(', ');
      const line = `  answers: ${counts}`;
      if (finished) display.done(line);
      else display.status(line);
      return;
    }
    const line = `  ${event.stage}: ${event.label}`;
    if (finished) display.done(line);
    else display.status(line);
  };
}
