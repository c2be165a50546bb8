import { parseAuditRequest, startVisibilityAudit, type Mailer, type StartAuditProgress, type StoredAudit } from '@visibility/core';
import { formatAuditSummary } from './format.js';
import type { CliIo } from './io.js';
import { EXIT_CODES, loadCliConfig, readCommandLine, runMeasurementCommand, validationError } from './measurement-run.js';
import { createAuditProgress } from './progress.js';

const AUDIT_USAGE =
  'Usage: visibility audit <brand> --website <site> --category "<category>" [--competitors "A, B"] [--location X] [--language en|es] [--email addr] [--json]   (or --brand <brand>)\n';

/** Exit 3 when nothing was measured (no provider answered, or no question could be asked); failed providers beside answered ones are part of the audit. */
export function assessAudit(result: StoredAudit): { exitCode: number; note?: string | undefined } {
  if (!result.audit.measured) {
    return { exitCode: EXIT_CODES.notMeasured, note: `nothing was measured. ${result.audit.notMeasuredReason ?? 'No provider answered.'}` };
  }
  if (result.providerErrors.length > 0) {
    const failed = result.providerErrors.map((failure) => `${failure.provider} (${failure.reason})`).join(', ');
    return { exitCode: EXIT_CODES.ok, note: `not measured by ${failed}; the score covers ${result.audit.providersAnswered.join(', ')}.` };
  }
  return { exitCode: EXIT_CODES.ok };
}

/** `visibility audit`: startVisibilityAudit against the configured lineup, from a terminal. */
export async function runAuditCommand(argv: string[], io: CliIo): Promise<number> {
  const line = readCommandLine(
    io,
    { name: 'audit', usage: AUDIT_USAGE, subject: 'brand', quoteHint: 'quote the brand, and give the rest with --website, --category….' },
    argv,
    {
      brand: { type: 'string' },
      website: { type: 'string' },
      category: { type: 'string' },
      competitors: { type: 'string' },
      location: { type: 'string' },
      language: { type: 'string' },
      email: { type: 'string' },
    },
  );
  if (typeof line === 'number') return line;
  const { values } = line;
  // The configuration first: CRAWL_HOST_MAP decides which websites the validation accepts.
  const config = loadCliConfig(io);
  if (typeof config === 'number') return config;
  let request;
  try {
    // The REST validation, so the CLI refuses exactly what POST /api/audit refuses.
    request = parseAuditRequest(
      {
        brand: line.subject,
        website: values['website'],
        category: values['category'],
        competitors: values['competitors'],
        location: values['location'],
        promptLanguage: values['language'],
        email: values['email'],
      },
      { hostMap: config.crawlHostMap },
    );
  } catch (error) {
    return validationError(io, 'audit', error, AUDIT_USAGE);
  }

  // Where the result mail went, for the summary (mail never fails the audit; a failure is logged on stderr).
  let delivery = 'not sent (see the warning on stderr)';
  return runMeasurementCommand<StoredAudit, StartAuditProgress>(io, {
    name: 'audit',
    json: line.json,
    config,
    describe: (runtime) => {
      const providers = [...runtime.lineup.values()].map((provider) => `${provider.id} (${provider.model})`).join(', ');
      return `Auditing "${request.brand}" (${request.website}) in "${request.category}" with ${providers === '' ? 'no provider' : providers}…`;
    },
    progress: (runtime, display) => createAuditProgress(display, [...runtime.lineup.keys()]),
    measure: (runtime, { signal, onProgress, logger }) => {
      const mailer: Mailer = {
        async send(message) {
          const sent = await runtime.mailer.send(message);
          delivery = sent.delivery === 'outbox' ? `written to the outbox: ${sent.outboxPath ?? config.dataDir}` : 'sent by SMTP';
          return sent;
        },
      };
      return startVisibilityAudit(
        {
          lineup: runtime.lineup,
          brandExtractor: runtime.brandExtractor,
          budget: runtime.budget,
          mode: config.providerMode,
          auditRepository: runtime.store.auditRepository,
          mailer,
          baseUrl: config.baseUrl,
          crawlHostMap: config.crawlHostMap,
          logger,
        },
        request,
        { signal, onProgress },
      );
    },
    summarize: (result, runtime) =>
      formatAuditSummary(result, {
        demo: runtime.config.providerMode === 'demo',
        email: request.email === undefined ? undefined : { address: request.email, delivery },
      }),
    assess: assessAudit,
  });
}
