// Argument handling of `visibility repeat`, `visibility check` and `visibility audit` that never reaches the runtime, run in
// process (measure-commands.test.ts and audit-command.test.ts cover the REST validation codes end to end).

import { beforeEach, describe, expect, it } from 'vitest';
import { assessAudit, runAuditCommand } from './audit.js';
import { runCheck } from './check.js';
import type { CliIo } from './io.js';
import { assessRepeat, runRepeat } from './repeat.js';

let stdout: string[];
let stderr: string[];
let io: CliIo;

beforeEach(() => {
  stdout = [];
  stderr = [];
  io = {
    stdout: { write: (text: string) => stdout.push(text) },
    stderr: { write: (text: string) => stderr.push(text) },
    stdin: (async function* () {})(),
    env: {},
    onInterrupt: () => () => {},
    exit: () => {
      throw new Error('exit is not expected here');
    },
  };
});

const written = (lines: string[]): string => lines.join('');

describe('repeat, check and audit arguments', () => {
  it.each([
    { run: runCheck, args: ['Acme', 'CRM'], message: 'expected one brand, got 2 arguments' },
    { run: runCheck, args: ['Acme', '--brand', 'Acme'], message: 'not both' },
    { run: runCheck, args: ['x'.repeat(81)], message: '[missing_brand]' },
    { run: runCheck, args: ['Acme', '--category', 'c'.repeat(121)], message: '[missing_brand]' },
    { run: runRepeat, args: ['best', 'CRM'], message: 'quote the question' },
    { run: runRepeat, args: ['   '], message: '[empty_question]' },
    { run: runRepeat, args: ['best CRM', '--bogus'], message: "'--bogus'" },
    { run: runRepeat, args: ['best CRM', '--provider'], message: "'--provider <value>' argument missing" },
    { run: runAuditCommand, args: ['Acme', 'CRM software', '--website', 'acme.com'], message: 'expected one brand, got 2 arguments' },
    { run: runAuditCommand, args: ['Acme', '--brand', 'Acme'], message: 'not both' },
    { run: runAuditCommand, args: ['Acme', '--lang', 'es'], message: "'--lang'" },
  ])('$args is a usage error: exit 2, message on stderr, nothing on stdout', async ({ run, args, message }) => {
    expect(await run(args, io)).toBe(2);
    expect(written(stderr)).toContain(message);
    expect(written(stdout)).toBe('');
  });

  it('--help prints the command usage on stdout and exits 0', async () => {
    expect(await runRepeat(['--help'], io)).toBe(0);
    expect(await runCheck(['-h'], io)).toBe(0);
    expect(await runAuditCommand(['--help'], io)).toBe(0);
    expect(written(stdout)).toMatch(/^Usage: visibility repeat .*\nUsage: visibility check .*\nUsage: visibility audit /s);
  });
});

describe('assessRepeat', () => {
  const result = (oks: boolean[]) => ({
    question: 'q',
    provider: 'openai' as const,
    model: 'm',
    runsRequested: oks.length,
    runs: oks.map((ok) => (ok ? { ok, brands: [], answer: 'a' } : { ok, brands: [], answer: null, error: 'the provider did not answer in time' })),
    metrics: { okRuns: oks.filter(Boolean).length, comparable: false, pairs: 0, sameSetPairs: 0, jaccardMean: null, union: 0, inAll: [], once: [], perRun: [] },
  });

  it('counts a repeat with some failed runs as measured and one with none answered as not measured', () => {
    expect(assessRepeat(result([true, true, true, true, true]))).toEqual({ exitCode: 0 });
    expect(assessRepeat(result([true, false, true, false, true]))).toEqual({ exitCode: 0, note: expect.stringContaining('2 of 5 runs failed') });
    expect(assessRepeat(result([false, false, false, false, false]))).toEqual({
      exitCode: 3,
      note: expect.stringContaining('no run answered (the provider did not answer in time)'),
    });
  });
});


describe('assessAudit', () => {
  const audit = (measured: boolean, failed: string[]) =>
    ({
      audit: { measured, providersAnswered: measured ? ['openai'] : [], ...(measured ? {} : { notMeasuredReason: 'Every provider asked failed to answer.' }) },
      providerErrors: failed.map((provider) => ({ provider, reason: 'the provider timed out' })),
    }) as unknown as Parameters<typeof assessAudit>[0];

  it('counts an audit with some providers failed as measured and one with nothing measured as not measured', () => {
    expect(assessAudit(audit(true, []))).toEqual({ exitCode: 0 });
    expect(assessAudit(audit(true, ['gemini']))).toEqual({ exitCode: 0, note: 'not measured by gemini (the provider timed out); the score covers openai.' });
    expect(assessAudit(audit(false, ['openai']))).toEqual({ exitCode: 3, note: 'nothing was measured. Every provider asked failed to answer.' });
  });
});
