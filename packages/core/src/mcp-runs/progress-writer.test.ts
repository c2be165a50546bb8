import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logging/logger.js';
import type { McpRunProgress } from '../store/mcp-run-repository.js';
import { stageProgress } from './progress.js';
import { ProgressWriter } from './progress-writer.js';
import { createVisibilityRunTracker } from './tracker.js';

/** A runs port that records each progress write (the SQL guard itself is the runs contract's). */
function recordingStore(): { writes: Array<{ runId: string; progress: McpRunProgress }>; recordProgress(runId: string, progress: McpRunProgress): Promise<boolean> } {
  const writes: Array<{ runId: string; progress: McpRunProgress }> = [];
  return {
    writes,
    async recordProgress(runId, progress) {
      writes.push({ runId, progress });
      return true;
    },
  };
}

const answers = (completed: number) => stageProgress('answers', completed, 81, `answers ${completed}/81`);

describe('ProgressWriter: a run’s progress in the store, throttled', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-03-10T12:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the first progress at once, then at most once a second, the newest of each second when it ends', async () => {
    const store = recordingStore();
    const writer = new ProgressWriter(store);
    writer.offer('run-1', answers(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.writes.map((write) => write.progress.message)).toEqual(['answers 1/81']);

    // 40 answers in 4 seconds (one every 100 ms): 4 more writes, one a second, each the newest when its
    // second was up (41 arrives just after, so it waits for the next)
    for (let completed = 2; completed <= 41; completed += 1) {
      await vi.advanceTimersByTimeAsync(100);
      writer.offer('run-1', answers(completed));
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(store.writes.map((write) => write.progress.message)).toEqual(['answers 1/81', 'answers 10/81', 'answers 20/81', 'answers 30/81', 'answers 40/81']);

    // A run that goes quiet: its last progress is written when the second is up, not left behind
    await vi.advanceTimersByTimeAsync(300);
    writer.offer('run-1', answers(42));
    writer.offer('run-1', answers(43));
    await vi.advanceTimersByTimeAsync(699);
    expect(store.writes).toHaveLength(5);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.writes.at(-1)?.progress).toEqual(answers(43));
    expect(store.writes).toHaveLength(6);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(store.writes).toHaveLength(6);
  });

  it('writes every stage change at once, dropping the older stage’s pending progress', async () => {
    const store = recordingStore();
    const writer = new ProgressWriter(store);
    writer.offer('run-1', stageProgress('crawl', 0, 1, 'crawling https://acme.test/'));
    writer.offer('run-1', stageProgress('crawl', 1, 1, 'site crawled'));
    writer.offer('run-1', stageProgress('questions', 0, 1, 'writing buyer questions'));
    writer.offer('run-1', stageProgress('questions', 1, 1, '9 buyer questions'));
    writer.offer('run-1', answers(1));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(store.writes.map((write) => write.progress.message)).toEqual([
      'crawling https://acme.test/',
      'writing buyer questions',
      // the questions stage's last step waited for its second and was overtaken by the answers
      'answers 1/81',
    ]);
  });

  it('keeps each run to its own second', async () => {
    const store = recordingStore();
    const writer = new ProgressWriter(store);
    writer.offer('run-1', answers(1));
    writer.offer('run-2', answers(1));
    writer.offer('run-1', answers(2));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.writes.map((write) => `${write.runId} ${write.progress.message}`)).toEqual(['run-1 answers 1/81', 'run-2 answers 1/81']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(store.writes.map((write) => `${write.runId} ${write.progress.message}`).at(-1)).toBe('run-1 answers 2/81');
  });

  it('writes what is pending at once on flush, waits for the writes to land and forgets the run', async () => {
    const store = recordingStore();
    let release = (): void => undefined;
    const slow = {
      // The first write hangs until released: the ones after it wait their turn, in order.
      recordProgress: vi.fn(async (runId: string, progress: McpRunProgress) => {
        if (store.writes.length === 0) await new Promise<void>((resolve) => (release = resolve));
        return store.recordProgress(runId, progress);
      }),
    };
    const writer = new ProgressWriter(slow);
    writer.offer('run-1', answers(1));
    writer.offer('run-1', answers(2));
    writer.offer('run-1', stageProgress('done', 1, 1, 'done'));
    let flushed = false;
    const flushing = writer.flush('run-1').then(() => (flushed = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(flushed).toBe(false);
    release();
    await flushing;
    expect(store.writes.map((write) => write.progress.message)).toEqual(['answers 1/81', 'done']);
    expect(writer.trackedRuns).toBe(0);

    const pendingOnly = new ProgressWriter(store);
    pendingOnly.offer('run-2', answers(1));
    pendingOnly.offer('run-2', answers(5));
    await pendingOnly.flush('run-2');
    expect(store.writes.at(-1)).toEqual({ runId: 'run-2', progress: answers(5) });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(store.writes.filter((write) => write.runId === 'run-2')).toHaveLength(2);
  });

  it('logs a write the store refused and goes on with the next', async () => {
    const lines: string[] = [];
    const store = recordingStore();
    let failures = 1;
    const flaky = {
      async recordProgress(runId: string, progress: McpRunProgress): Promise<boolean> {
        if (failures-- > 0) throw new Error('the database is unreachable');
        return store.recordProgress(runId, progress);
      },
    };
    const writer = new ProgressWriter(flaky, { logger: createLogger({ level: 'warn', write: (line) => lines.push(line) }) });
    writer.offer('run-1', answers(1));
    await vi.advanceTimersByTimeAsync(1_000);
    writer.offer('run-1', answers(2));
    await writer.flush('run-1');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('could not store its progress');
    expect(store.writes.map((write) => write.progress.message)).toEqual(['answers 2/81']);
  });

  it('is what the tracker stores its runs’ progress with: memory at once, the store throttled, the last before the lease goes', async () => {
    const store = recordingStore();
    const tracker = createVisibilityRunTracker({ progressStore: store });
    let finish = (): void => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    await tracker.run('run-1', async () => {
      for (let completed = 1; completed <= 30; completed += 1) {
        tracker.publish('run-1', answers(completed));
        await vi.advanceTimersByTimeAsync(10);
      }
      // a late event of an earlier step does not pull progress back, here or in the store
      tracker.publish('run-1', answers(3));
      expect(tracker.latest('run-1')).toMatchObject({ message: 'answers 3/81', percent: answers(30).percent });
      finish();
      return 'done';
    });
    await finished;
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(tracker.latest('run-1')).toBeUndefined());
    expect(store.writes.map((write) => write.progress.message)).toEqual(['answers 1/81', 'answers 3/81']);
    expect(store.writes.at(-1)?.progress.percent).toBe(answers(30).percent);
    await tracker.stop(0);
  });
});
