import { defineConfig } from 'vitest/config';
import { SummaryLineReporter } from './scripts/summary-reporter.js';

// One root config; each workspace is a project. Tests import workspace packages from source
// through the "source" export condition, so they never run against a stale build.
const shared = {
  resolve: { conditions: ['visibility-source'] },
  ssr: { resolve: { conditions: ['visibility-source'] } },
};

// isolate false: a worker imports the SDKs, zod schemas and core once and runs many files with them,
// instead of re-importing everything per file (the biggest CPU cost of the suite). No test relies on a
// fresh module registry: none uses vi.mock, and stubs and fake timers are restored after each test.
const project = (name: string, root: string, testTimeout: number) => ({
  ...shared,
  // Hooks start servers and store audits like tests do: the same allowance on a busy machine.
  test: { name, root, include: ['src/**/*.test.ts'], exclude: ['**/node_modules/**', 'src/**/*.refit.test.ts'], testTimeout, hookTimeout: testTimeout, isolate: false, sequence: { groupOrder: 0 } },
});

// The extractor's refit (minutes of both cores) runs alone once every other file is done: beside the
// suite it starved servers, browsers and audits into timeouts on a 2-core machine.
const refit = {
  ...shared,
  test: { name: 'core-refit', root: './packages/core', include: ['src/**/*.refit.test.ts'], testTimeout: 20_000, isolate: false, sequence: { groupOrder: 1 } },
};

// Test and hook limits stop a hung test; they measure nothing. On the 2-core machine the suite's heaviest
// tests (many audits at once, 30 tracked runs, a browser over every page) took up to twice as long on a slow
// day as on a quiet one, so each limit is about twice the slowest time seen (2026-11-27).
export default defineConfig({
  test: {
    reporters: ['default', new SummaryLineReporter()],
    // Most of the suite waits on sockets (servers on port 0, the simulator, fixture sites, a browser), not
    // on the CPU. Vitest's default on a 2-core machine is one worker (cores - 1), which runs the files one
    // after the other; four keep both cores busy while files wait (`--maxWorkers=N` overrides it).
    maxWorkers: 4,
    // One throwaway PostgreSQL cluster per run (when installed) for the store's PostgreSQL tests.
    globalSetup: ['./scripts/pg/vitest-global-setup.ts'],
    projects: [
      project('core', './packages/core', 40_000),
      project('simulator', './packages/simulator', 40_000),
      project('mcp', './packages/mcp', 60_000),
      project('stdio-bridge', './packages/stdio-bridge', 60_000),
      project('server', './apps/server', 60_000),
      refit,
    ],
  },
});
