import { parseRepeatRequest, runRepeatedBuyerQuestion, REPEAT_RUNS, type RepeatResponse } from '@visibility/core';
import { formatRepeatSummary } from './format.js';
import type { CliIo } from './io.js';
import { EXIT_CODES, readCommandLine, runMeasurementCommand, validationError } from './measurement-run.js';

const REPEAT_USAGE = 'Usage: visibility repeat "<question>" [--provider openai|gemini|anthropic] [--json]\n';

/** Exit 3 when no run answered (nothing was measured); failed runs beside answered ones are part of the measurement (exit 0). */
export function assessRepeat(result: RepeatResponse): { exitCode: number; note?: string | undefined } {
  const failed = result.runsRequested - result.metrics.okRuns;
  if (result.metrics.okRuns === 0) {
    return { exitCode: EXIT_CODES.notMeasured, note: `no run answered (${result.runs[0]?.error ?? 'no answer'}); nothing was measured.` };
  }
  if (failed > 0) {
    return { exitCode: EXIT_CODES.ok, note: `${failed} of ${result.runsRequested} runs failed; the metrics cover the ${result.metrics.okRuns} that answered.` };
  }
  return { exitCode: EXIT_CODES.ok };
}

/** `visibility repeat`: runRepeatedBuyerQuestion against the configured lineup, from a terminal. */
export async function runRepeat(argv: string[], io: CliIo): Promise<number> {
  const line = readCommandLine(
    io,
    { name: 'repeat', usage: REPEAT_USAGE, subject: 'question', quoteHint: 'quote the question.' },
    argv,
    { provider: { type: 'string' } },
  );
  if (typeof line === 'number') return line;
  const { values } = line;
  let request;
  try {
    // The REST validation, so the CLI refuses exactly what POST /api/tools/repeat refuses.
    request = parseRepeatRequest({ question: line.subject ?? '', ...(values['provider'] === undefined ? {} : { provider: values['provider'] }) });
  } catch (error) {
    return validationError(io, 'repeat', error, REPEAT_USAGE);
  }

  return runMeasurementCommand<RepeatResponse>(io, {
    name: 'repeat',
    json: line.json,
    describe: (runtime) => {
      const model = runtime.lineup.get(request.provider)?.model;
      return `Asking ${request.provider}${model === undefined ? '' : ` (${model})`} the question ${REPEAT_RUNS} times…`;
    },
    measure: (runtime, options) => runRepeatedBuyerQuestion({ lineup: runtime.lineup, budget: runtime.budget, brandExtractor: runtime.brandExtractor }, request, options),
    summarize: (result, runtime) => formatRepeatSummary(result, { demo: runtime.config.providerMode === 'demo' }),
    assess: assessRepeat,
  });
}
