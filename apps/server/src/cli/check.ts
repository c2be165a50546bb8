import { checkBrandRecognition, checkQuestions, chooseCheckProvider, parseCheckRequest, type CheckResponse } from '@visibility/core';
import { formatCheckSummary } from './format.js';
import type { CliIo } from './io.js';
import { readCommandLine, runMeasurementCommand, validationError } from './measurement-run.js';

const CHECK_USAGE = 'Usage: visibility check <brand> [--category "<category>"] [--json]   (or --brand <brand>)\n';

/** `visibility check`: checkBrandRecognition against the configured lineup, from a terminal. */
export async function runCheck(argv: string[], io: CliIo): Promise<number> {
  const line = readCommandLine(
    io,
    { name: 'check', usage: CHECK_USAGE, subject: 'brand', quoteHint: 'quote the brand, and give the category with --category.' },
    argv,
    { brand: { type: 'string' }, category: { type: 'string' } },
  );
  if (typeof line === 'number') return line;
  const { values } = line;
  let request;
  try {
    // The REST validation, so the CLI refuses exactly what POST /api/check refuses.
    request = parseCheckRequest({
      brand: line.subject ?? '',
      ...(values['category'] === undefined ? {} : { category: values['category'] }),
    });
  } catch (error) {
    return validationError(io, 'check', error, CHECK_USAGE);
  }
  const blindListAsked = checkQuestions(request.brand, request.category).blindList !== null;

  return runMeasurementCommand<CheckResponse>(io, {
    name: 'check',
    json: line.json,
    describe: (runtime) => {
      const provider = chooseCheckProvider(runtime.lineup);
      const who = provider === null ? '' : ` with ${provider.id} (${provider.model})`;
      return `Checking "${request.brand}"${who}: ${blindListAsked ? 3 : 2} questions…`;
    },
    measure: (runtime, options) => checkBrandRecognition({ lineup: runtime.lineup, budget: runtime.budget }, request, options),
    summarize: (result, runtime) => formatCheckSummary(result, { demo: runtime.config.providerMode === 'demo', blindListAsked }),
  });
}
