// Reads what the conformance CLI wrote (one checks.json per scenario) and the expected-failures file,
// and renders docs/mcp-conformance.md from them, so the document is always the last real run.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One check of a scenario, as the conformance CLI writes it. */
interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
  warnings: number;
}

/** Scenarios that pass without exercising this server's own tools, and why they still pass. */
const NOMINAL_PASSES: Readonly<Record<string, string>> = {
  'tools-call-simple-text':
    'Calls the reference tool test_simple_text, which this server does not have. The SDK answers an unknown tool with an isError result carrying text, and text content is all this scenario checks. Our own text results are tested in tools.test.ts.',
  'tools-call-error':
    'Calls the reference tool test_error_handling, which this server does not have. The SDK answers an unknown tool with isError: true and a message, which is what this scenario checks. Our own isError results (invalid_website, rate_limited, run_not_found) are tested in tools.test.ts.',
};

/** What each passing scenario shows about this server. */
const PASS_NOTES: Readonly<Record<string, string>> = {
  'server-initialize': 'Initialize handshake over streamable HTTP with a session id.',
  ping: 'ping answers {}.',
  'tools-list': 'Both tools list a name, a description and an input schema (the output schemas are snapshotted in mcp-http.test.ts).',
  'server-sse-multiple-streams': 'Three concurrent POST streams on one session are all accepted.',
  'dns-rebinding-protection': 'A foreign Host/Origin is refused 403; localhost is accepted.',
};

/** The scenario names in the order the CLI lists them (`conformance list --server`). */
export function parseScenarioList(output: string): string[] {
  return output
    .split('\n')
    .map((line) => /^\s+-\s+(\S+)\s*$/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

/** The expected failures with the reason after each entry's `#`. */
export function parseExpectedFailures(yaml: string): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const line of yaml.split('\n')) {
    const entry = /^\s+-\s+([a-z0-9-]+)\s*(?:#\s*(.*))?$/.exec(line);
    if (entry?.[1] !== undefined) reasons.set(entry[1], (entry[2] ?? '').trim());
  }
  return reasons;
}

/** Each scenario's check counts, from the CLI's output folder (`server-<scenario>-<timestamp>/checks.json`). */
export function readResults(outputDir: string, scenarios: readonly string[]): ScenarioResult[] {
  const folders = readdirSync(outputDir);
  return scenarios.map((scenario) => {
    const folder = folders.find((name) => name.startsWith(`server-${scenario}-`) && /-\d{4}-\d{2}-\d{2}T/.test(name.slice(`server-${scenario}`.length)));
    if (folder === undefined) throw new Error(`the conformance run wrote no result for ${scenario}`);
    const checks = JSON.parse(readFileSync(join(outputDir, folder, 'checks.json'), 'utf8')) as Check[];
    return {
      scenario,
      passed: checks.filter((check) => check.status === 'SUCCESS').length,
      failed: checks.filter((check) => check.status === 'FAILURE').length,
      warnings: checks.filter((check) => check.status === 'WARNING').length,
    };
  });
}

/** docs/mcp-conformance.md. */
export function renderConformanceReport(results: readonly ScenarioResult[], expectedFailures: ReadonlyMap<string, string>, version: string): string {
  const passing = results.filter((result) => result.failed === 0);
  const rows = results.map((result) => {
    const outcome = result.failed > 0 ? 'expected failure' : result.scenario in NOMINAL_PASSES ? 'pass (nominal)' : 'pass';
    const why = result.failed > 0 ? (expectedFailures.get(result.scenario) ?? '') : (NOMINAL_PASSES[result.scenario] ?? PASS_NOTES[result.scenario] ?? '');
    return `| \`${result.scenario}\` | ${outcome} | ${result.passed} / ${result.failed} / ${result.warnings} | ${why.replaceAll('|', '\\|')} |`;
  });
  return [
    '# MCP conformance',
    '',
    `Results of the server scenarios of \`@modelcontextprotocol/conformance\` ${version} (suite \`all\`, active and pending) against \`/mcp\`,`,
    'run by `apps/server/src/mcp/conformance.test.ts` on the real service (demo lineup, port 0). This page is that test\'s file',
    'snapshot: the test fails when a run differs from it; after a deliberate change, regenerate it with',
    '`npx vitest run --project server src/mcp/conformance -u`.',
    '',
    'The CLI runs with `--expected-failures apps/server/src/mcp/conformance-expected-failures.yaml`: it fails on any other',
    'failure and on a listed scenario that starts passing. The server is tools-only (three tools, no resources, prompts,',
    'completions, logging, sampling or elicitation), and most scenarios call the conformance suite\'s reference tools by',
    'name, so they cannot pass here; each listed failure gives its reason. What these scenarios would check about our own',
    'tools (progress, isError results, output schemas) is tested in `tools.test.ts` and `mcp-http.test.ts`.',
    '',
    `Summary: ${passing.length} of ${results.length} scenarios pass (${passing.filter((result) => result.scenario in NOMINAL_PASSES).length} of them nominally), ${results.length - passing.length} are expected failures, none unexpected.`,
    '',
    '| Scenario | Result | Checks pass / fail / warn | Why |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
