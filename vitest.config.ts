import { defineConfig } from 'vitest/config';
import { SummaryLineReporter } from './scripts/summary-reporter.js';

// One root config; each workspace is a project. Tests import workspace packages from source
// through the "source" export condition, so they never run against a stale build.
const shared = {
  resolve: { conditions: ['visibility-source'] },
  ssr: { resolve: { conditions: ['visibility-source'] } },
};

export default defineConfig({
  test: {
    reporters: ['default', new SummaryLineReporter()],
    projects: [
      { ...shared, test: { name: 'core', root: './packages/core', include: ['src/**/*.test.ts'], testTimeout: 20_000 } },
      { ...shared, test: { name: 'simulator', root: './packages/simulator', include: ['src/**/*.test.ts'], testTimeout: 20_000 } },
      { ...shared, test: { name: 'mcp', root: './packages/mcp', include: ['src/**/*.test.ts'], testTimeout: 30_000 } },
      { ...shared, test: { name: 'stdio-bridge', root: './packages/stdio-bridge', include: ['src/**/*.test.ts'], testTimeout: 30_000 } },
      { ...shared, test: { name: 'server', root: './apps/server', include: ['src/**/*.test.ts'], testTimeout: 30_000 } },
    ],
  },
});
