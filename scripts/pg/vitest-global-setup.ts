// vitest globalSetup: one throwaway PostgreSQL cluster per test run (not per test), when the binaries
// exist, so the store's contract suite runs on PostgreSQL as well as SQLite. Its URL reaches the test
// workers as VISIBILITY_TEST_DATABASE_URL (set it yourself to use another server). Without the binaries
// the PostgreSQL half of the suite is skipped, and says so; .ci/run installs them. Clusters of runs that
// were killed before their teardown are stopped at the next run's start.

import { postgresBinDir, reapStaleClusters, startThrowawayCluster } from './cluster.js';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env['VISIBILITY_TEST_DATABASE_URL'] !== undefined) return undefined;
  if (postgresBinDir() === undefined) {
    process.stderr.write('PostgreSQL binaries not found: the PostgreSQL contract tests are skipped (apt-get install -y postgresql)\n');
    return undefined;
  }
  // A run killed before its teardown (a timeout, Ctrl-C twice) left its cluster running: stop it now.
  reapStaleClusters();
  const cluster = await startThrowawayCluster();
  process.env['VISIBILITY_TEST_DATABASE_URL'] = cluster.url;
  return () => cluster.stop();
}
