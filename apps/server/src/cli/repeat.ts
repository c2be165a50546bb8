import { parseArgs } from 'node:util';
import { parseRepeatRequest, runRepeatedBuyerQuestion, REPEAT_RUNS, type RepeatResponse } from '@visibility/core';
import { formatRepeatSummary } from './format.js';
import type { CliIo } from './io.js';
import { EXIT_CODES, runMeasurementCommand, usageError, validationError } from './measurement-run.js';

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
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { provider: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return usageError(io, 'repeat', (error as Error).message, REPEAT_USAGE);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(REPEAT_USAGE);
    return EXIT_CODES.ok;
  }
  if (positionals.length > 1) {
    return usageError(io, 'repeat', `expected one question, got ${positionals.length} arguments; quote the question.`, REPEAT_USAGE);
  }
  let request;
  try {
    // The REST validation, so the CLI refuses exactly what POST /api/tools/repeat refuses.
    request = parseRepeatRequest({ question: positionals[0] ?? '', ...(values.provider === undefined ? {} : { provider: values.provider }) });
  } catch (error) {
    return validationError(io, 'repeat', error, REPEAT_USAGE);
  }

  return runMeasurementCommand<RepeatResponse>(io, {
    name: 'repeat',
    json: values.json,
    describe: (runtime) => {
      const model = runtime.lineup.get(request.provider)?.model;
      return `Asking ${request.provider}${model === undefined ? '' : ` (${model})`} the question ${REPEAT_RUNS} times…`;
    },
    measure: (runtime, options) => runRepeatedBuyerQuestion({ lineup: runtime.lineup, budget: runtime.budget, brandExtractor: runtime.brandExtractor }, request, options),
    summarize: (result, runtime) => formatRepeatSummary(result, { demo: runtime.config.providerMode === 'demo' }),
    assess: assessRepeat,
  });
}
