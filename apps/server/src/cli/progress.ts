import type { MeasurementProgress } from '@visibility/core';

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
  return {
    note(text) {
      closeLine();
      stream.write(`${text}\n`);
    },
    step(event) {
      const line = `  [${event.completed}/${event.total}] ${event.label}`;
      if (redraw) {
        stream.write(`\r\u001b[2K${line}`);
        lineOpen = true;
      } else {
        stream.write(`${line}\n`);
      }
    },
    finish: closeLine,
  };
}
