import { parseArgs } from 'node:util';
import { normalizeEmail } from '../auth/email-address.js';
import type { CliIo } from './io.js';

// The exit codes of docs/cli.md (EXIT_CODES in measurement-run.ts), repeated here so that a usage
// error answers before the core library (and its provider SDKs) is loaded.
const EXIT_OK = 0;
const EXIT_USAGE = 2;

const CREDITS_USAGE = 'Usage: visibility credits grant <email> <n>   (n: a whole number from 1 to 1000000)\n';

/** A grant this large is almost certainly a typo (a pasted id, an extra zero), so it is refused rather than applied. */
const MAX_GRANT = 1_000_000;

function usageError(io: CliIo, message: string): number {
  io.stderr.write(`visibility credits: ${message}\n${CREDITS_USAGE}`);
  return EXIT_USAGE;
}

/** `visibility credits grant <email> <n>`: adds credits to an account (creating it), prints the new balance. */
export async function runCredits(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h', default: false } }, allowPositionals: true, strict: true });
  } catch (error) {
    return usageError(io, (error as Error).message);
  }
  if (parsed.values.help) {
    io.stdout.write(CREDITS_USAGE);
    return EXIT_OK;
  }
  const [action, address, amount, ...extra] = parsed.positionals;
  if (action !== 'grant') return usageError(io, action === undefined ? 'missing the action (grant).' : `unknown action "${action}".`);
  if (address === undefined || amount === undefined || extra.length > 0) return usageError(io, 'expected exactly an email and a number.');
  const email = normalizeEmail(address);
  if (email === undefined) return usageError(io, `"${address}" is not a valid email address of at most 120 characters.`);
  // Digits only: "3.0", "1e3", "+3" and " 3" are refused rather than guessed at.
  const credits = /^[0-9]+$/.test(amount) ? Number(amount) : Number.NaN;
  if (!Number.isSafeInteger(credits) || credits < 1 || credits > MAX_GRANT) {
    return usageError(io, `"${amount}" is not a whole number from 1 to ${MAX_GRANT}.`);
  }

  const [{ createLogger }, { loadCliConfig }, { openRuntimeStore }] = await Promise.all([
    import('@visibility/core'),
    import('./measurement-run.js'),
    import('../runtime.js'),
  ]);
  const config = loadCliConfig(io);
  if (typeof config === 'number') return config;
  // Only the store (SQLite in DATA_DIR, or PostgreSQL with DATABASE_URL): no provider lineup, simulator or mailer.
  const store = await openRuntimeStore(config, createLogger({ level: 'warn', write: (line) => io.stderr.write(`${line}\n`) }));
  try {
    const balance = await store.accountRepository.grantCredits(email, credits);
    io.stdout.write(`${email} now has ${balance} credit${balance === 1 ? '' : 's'}
`);
    return EXIT_OK;
  } finally {
    await store.close();
  }
}
