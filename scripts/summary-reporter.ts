import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own
 * summary, so CI logs state the count in a form any tool can read.
 */
export class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) failed += 1;
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`);
  }
}
