import { parseArgs } from 'node:util';
import { checkBrandRecognition, checkQuestions, chooseCheckProvider, parseCheckRequest, type CheckResponse } from '@visibility/core';
import { formatCheckSummary } from './format.js';
import type { CliIo } from './io.js';
import { EXIT_CODES, runMeasurementCommand, usageError, validationError } from './measurement-run.js';

const CHECK_USAGE = 'Usage: visibility check <brand> [--category "<category>"] [--json]   (or --brand <brand>)\n';

/** `visibility check`: checkBrandRecognition against the configured lineup, from a terminal. */
export async function runCheck(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        brand: { type: 'string' },
        category: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return usageError(io, 'check', (error as Error).message, CHECK_USAGE);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(CHECK_USAGE);
    return EXIT_CODES.ok;
  }
  if (positionals.length > 1) {
    return usageError(io, 'check', `expected one brand, got ${positionals.length} arguments; quote the brand, and give the category with --category.`, CHECK_USAGE);
  }
  if (positionals.length === 1 && values.brand !== undefined) {
    return usageError(io, 'check', 'give the brand either as an argument or with --brand, not both.', CHECK_USAGE);
  }
  let request;
  try {
    // The REST validation, so the CLI refuses exactly what POST /api/check refuses.
    request = parseCheckRequest({
      brand: positionals[0] ?? values.brand ?? '',
      ...(values.category === undefined ? {} : { category: values.category }),
    });
  } catch (error) {
    return validationError(io, 'check', error, CHECK_USAGE);
  }
  const blindListAsked = checkQuestions(request.brand, request.category).blindList !== null;

  return runMeasurementCommand<CheckResponse>(io, {
    name: 'check',
    json: values.json,
    describe: (runtime) => {
      const provider = chooseCheckProvider(runtime.lineup);
      const who = provider === null ? '' : ` with ${provider.id} (${provider.model})`;
      return `Checking "${request.brand}"${who}: ${blindListAsked ? 3 : 2} questions…`;
    },
    measure: (runtime, options) => checkBrandRecognition({ lineup: runtime.lineup, budget: runtime.budget }, request, options),
    summarize: (result, runtime) => formatCheckSummary(result, { demo: runtime.config.providerMode === 'demo', blindListAsked }),
  });
}
