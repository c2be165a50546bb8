import { describe, expect, it } from 'vitest';
import type { AccountStore, WatchStore } from '../ports.js';
import type { NewWatchRun, WatchAnswerRecord, WatchRecord } from '../watch-repository.js';

/** Two handles on one store stand for two instances; `accounts` is the same store's accounts port (credits). */
export interface WatchStoreHandles {
  first: WatchStore;
  second: WatchStore;
  accounts: AccountStore;
}

const WATCH_ID = '00000000-0000-4000-8000-000000000001';
const OTHER_WATCH_ID = '00000000-0000-4000-8000-000000000002';

function watch(overrides: Partial<WatchRecord> = {}): WatchRecord {
  return {
    id: WATCH_ID,
    ownerEmail: 'Owner@Acme.example',
    brand: 'Acme',
    category: 'project management software',
    website: 'https://acme.example',
    questions: ['What is the best project management software?', 'Which tool should a small team use?'],
    providers: ['openai', 'anthropic'],
    samples: 2,
    schedule: 'daily',
    paused: false,
    alertEmail: true,
    webhookUrl: null,
    webhookSecret: 'secret',
    nextRunAt: '2026-03-10T06:00:00.000Z',
    createdAt: '2026-03-09T06:00:00.000Z',
    updatedAt: '2026-03-09T06:00:00.000Z',
    ...overrides,
  };
}

function newRun(id: string, overrides: Partial<NewWatchRun> = {}): NewWatchRun {
  return {
    id,
    watchId: WATCH_ID,
    status: 'running',
    mode: 'demo',
    questions: ['What is the best project management software?'],
    providers: [{ provider: 'openai', model: 'demo-gpt' }],
    samples: 2,
    reason: null,
    createdAt: '2026-03-10T06:00:01.000Z',
    ...overrides,
  };
}

function answer(runId: string, overrides: Partial<WatchAnswerRecord> = {}): WatchAnswerRecord {
  return {
    runId,
    questionIndex: 0,
    provider: 'openai',
    sampleIndex: 0,
    ok: true,
    model: 'demo-gpt',
    answer: 'Acme and Globex are both good.',
    brands: ['Acme', 'Globex'],
    named: true,
    position: 1,
    failureKind: null,
    costMicroUsd: 1234,
    answeredAt: '2026-03-10T06:00:02.000Z',
    ...overrides,
  };
}

/** The watches port's contract: watches, scheduled and manual runs, answers and alerts, exact across instances. */
export function watchStoreContract(name: string, open: () => Promise<WatchStoreHandles>): void {
  describe(`watches port contract: ${name}`, () => {
    it('creates, reads, lists, counts, patches and deletes watches', async () => {
      const { first, second } = await open();
      await first.createWatch(watch());
      await first.createWatch(watch({ id: OTHER_WATCH_ID, brand: 'Globex', paused: true, createdAt: '2026-03-09T07:00:00.000Z' }));
      const stored = await second.getWatch(WATCH_ID);
      expect(stored).toEqual({ ...watch(), ownerEmail: 'owner@acme.example' });
      expect(await second.getWatch('00000000-0000-4000-8000-00000000ffff')).toBeUndefined();
      expect((await second.listWatches('OWNER@acme.example')).map((entry) => [entry.brand, entry.paused])).toEqual([
        ['Acme', false],
        ['Globex', true],
      ]);
      expect(await second.countWatches('owner@ACME.example')).toBe(2);
      expect(await second.countWatches('nobody@acme.example')).toBe(0);

      expect(await second.updateWatch(WATCH_ID, { schedule: 'weekly', webhookUrl: 'https://hooks.acme.example/a' }, '2026-03-09T08:00:00.000Z')).toBe(true);
      expect(await first.getWatch(WATCH_ID)).toMatchObject({
        schedule: 'weekly',
        paused: false,
        alertEmail: true,
        webhookUrl: 'https://hooks.acme.example/a',
        nextRunAt: '2026-03-10T06:00:00.000Z',
        updatedAt: '2026-03-09T08:00:00.000Z',
      });
      // A field left out keeps its value; webhookUrl: null clears it.
      expect(await first.updateWatch(WATCH_ID, { paused: true, alertEmail: false, webhookUrl: null, nextRunAt: '2026-03-11T06:00:00.000Z' }, '2026-03-09T09:00:00.000Z')).toBe(true);
      expect(await second.getWatch(WATCH_ID)).toMatchObject({ schedule: 'weekly', paused: true, alertEmail: false, webhookUrl: null, nextRunAt: '2026-03-11T06:00:00.000Z' });
      expect(await first.updateWatch('00000000-0000-4000-8000-00000000ffff', { paused: false }, '2026-03-09T09:00:00.000Z')).toBe(false);

      expect(await second.deleteWatch(OTHER_WATCH_ID)).toBe(true);
      expect(await second.deleteWatch(OTHER_WATCH_ID)).toBe(false);
      expect(await first.countWatches('owner@acme.example')).toBe(1);
    });

    it('lists due watches, most overdue first, leaving paused and future ones out', async () => {
      const { first, second } = await open();
      await first.createWatch(watch({ nextRunAt: '2026-03-10T06:00:00.000Z' }));
      await first.createWatch(watch({ id: OTHER_WATCH_ID, nextRunAt: '2026-03-10T05:00:00.000Z' }));
      await first.createWatch(watch({ id: '00000000-0000-4000-8000-000000000003', nextRunAt: '2026-03-10T04:00:00.000Z', paused: true }));
      await first.createWatch(watch({ id: '00000000-0000-4000-8000-000000000004', nextRunAt: '2026-03-10T07:00:00.000Z' }));
      expect((await second.dueWatches('2026-03-10T06:00:00.000Z', 10)).map((entry) => entry.id)).toEqual([OTHER_WATCH_ID, WATCH_ID]);
      expect((await second.dueWatches('2026-03-10T06:00:00.000Z', 1)).map((entry) => entry.id)).toEqual([OTHER_WATCH_ID]);
    });

    it('lets exactly one of two instances claim a due watch (compare-and-set on next_run_at)', async () => {
      const { first, second } = await open();
      await first.createWatch(watch());
      const claims = await Promise.all(
        [first, second, first, second].map((handle, index) =>
          handle.claimScheduledRun({
            watchId: WATCH_ID,
            expectedNextRunAt: '2026-03-10T06:00:00.000Z',
            nextRunAt: '2026-03-11T06:00:00.000Z',
            run: newRun(`00000000-0000-4000-8000-0000000001${index}0`),
            now: '2026-03-10T06:00:01.000Z',
          }),
        ),
      );
      const won = claims.filter((claim) => claim !== undefined);
      expect(won).toHaveLength(1);
      expect(won[0]).toMatchObject({ watchId: WATCH_ID, trigger: 'schedule', scheduledFor: '2026-03-10T06:00:00.000Z', status: 'running', completedAt: null, chargedEmail: null });
      expect(await first.getWatch(WATCH_ID)).toMatchObject({ nextRunAt: '2026-03-11T06:00:00.000Z', updatedAt: '2026-03-10T06:00:01.000Z' });
      expect(await second.listRuns(WATCH_ID)).toHaveLength(1);
      expect(await second.runningRunIds()).toEqual([won[0]?.id]);

      // The next slot while that run is still running: recorded as skipped, with the reason.
      const skipped = await second.claimScheduledRun({
        watchId: WATCH_ID,
        expectedNextRunAt: '2026-03-11T06:00:00.000Z',
        nextRunAt: '2026-03-12T06:00:00.000Z',
        run: newRun('00000000-0000-4000-8000-000000000200', { createdAt: '2026-03-11T06:00:01.000Z' }),
        now: '2026-03-11T06:00:01.000Z',
      });
      expect(skipped).toMatchObject({ status: 'skipped', reason: `run ${won[0]?.id} of this watch was still running`, completedAt: '2026-03-11T06:00:01.000Z' });
      // A skip reason given by the scheduler (the budget) wins; a paused watch is never claimed.
      const budgetSkip = await first.claimScheduledRun({
        watchId: WATCH_ID,
        expectedNextRunAt: '2026-03-12T06:00:00.000Z',
        nextRunAt: '2026-03-13T06:00:00.000Z',
        run: newRun('00000000-0000-4000-8000-000000000300', { createdAt: '2026-03-12T06:00:01.000Z' }),
        skipReason: 'the monthly budget is used up',
        now: '2026-03-12T06:00:01.000Z',
      });
      expect(budgetSkip).toMatchObject({ status: 'skipped', reason: 'the monthly budget is used up' });
      await first.updateWatch(WATCH_ID, { paused: true }, '2026-03-12T07:00:00.000Z');
      expect(
        await second.claimScheduledRun({
          watchId: WATCH_ID,
          expectedNextRunAt: '2026-03-13T06:00:00.000Z',
          nextRunAt: '2026-03-14T06:00:00.000Z',
          run: newRun('00000000-0000-4000-8000-000000000400', { createdAt: '2026-03-13T06:00:01.000Z' }),
          now: '2026-03-13T06:00:01.000Z',
        }),
      ).toBeUndefined();
      expect((await first.listRuns(WATCH_ID)).map((run) => run.status)).toEqual(['running', 'skipped', 'skipped']);
    });

    it('starts one manual run for concurrent starts on two instances, spending exactly one credit', async () => {
      const { first, second, accounts } = await open();
      await first.createWatch(watch());
      await accounts.grantCredits('owner@acme.example', 3);
      const starts = await Promise.all(
        [first, second, first, second].map((handle, index) =>
          handle.startManualRun({ run: newRun(`00000000-0000-4000-8000-0000000005${index}0`), chargedEmail: 'Owner@Acme.example', now: '2026-03-10T06:00:01.000Z' }),
        ),
      );
      expect(starts.map((start) => start.outcome).sort()).toEqual(['joined', 'joined', 'joined', 'started']);
      const started = starts.find((start) => start.outcome === 'started');
      const runId = started?.outcome === 'started' ? started.run.id : undefined;
      for (const start of starts) if (start.outcome !== 'no_credits') expect(start.run.id).toBe(runId);
      expect(started).toMatchObject({ run: { trigger: 'manual', scheduledFor: null, chargedEmail: 'owner@acme.example', status: 'running' } });
      expect((await accounts.getAccount('owner@acme.example'))?.credits).toBe(2);

      // A scheduled claim while the manual run runs is recorded as skipped, never a second running run.
      const claim = await second.claimScheduledRun({
        watchId: WATCH_ID,
        expectedNextRunAt: '2026-03-10T06:00:00.000Z',
        nextRunAt: '2026-03-11T06:00:00.000Z',
        run: newRun('00000000-0000-4000-8000-000000000600'),
        now: '2026-03-10T06:00:02.000Z',
      });
      expect(claim?.status).toBe('skipped');
    });

    it('never runs a scheduled and a manual run of one watch at once, whichever instance starts each', async () => {
      const { first, second } = await open();
      for (let round = 0; round < 8; round += 1) {
        const watchId = `00000000-0000-4000-8000-0000000c00${String(round).padStart(2, '0')}`;
        await first.createWatch(watch({ id: watchId }));
        const [claimed, started] = await Promise.all([
          (round % 2 === 0 ? first : second).claimScheduledRun({
            watchId,
            expectedNextRunAt: '2026-03-10T06:00:00.000Z',
            nextRunAt: '2026-03-11T06:00:00.000Z',
            run: newRun(`00000000-0000-4000-8000-0000000d00${String(round).padStart(2, '0')}`, { watchId }),
            now: '2026-03-10T06:00:01.000Z',
          }),
          (round % 2 === 0 ? second : first).startManualRun({
            run: newRun(`00000000-0000-4000-8000-0000000e00${String(round).padStart(2, '0')}`, { watchId }),
            chargedEmail: null,
            now: '2026-03-10T06:00:01.000Z',
          }),
        ]);
        const runs = await first.listRuns(watchId);
        expect(runs.filter((run) => run.status === 'running')).toHaveLength(1);
        // Either the manual run started and the claim was skipped, or the claim ran and the manual start joined it.
        if (started.outcome === 'started') expect(claimed?.status).toBe('skipped');
        else expect(started).toMatchObject({ outcome: 'joined', run: { id: claimed?.id, trigger: 'schedule' } });
      }
    });

    it('refuses a manual run without credits, and charges nothing for the operator or a skipped run', async () => {
      const { first, second, accounts } = await open();
      await first.createWatch(watch());
      await accounts.ensureAccount('owner@acme.example');
      expect(await first.startManualRun({ run: newRun('00000000-0000-4000-8000-000000000700'), chargedEmail: 'owner@acme.example', now: '2026-03-10T06:00:01.000Z' })).toEqual({
        outcome: 'no_credits',
      });
      expect(await second.getRun('00000000-0000-4000-8000-000000000700')).toBeUndefined();
      const skipped = await second.recordSkippedRun(newRun('00000000-0000-4000-8000-000000000710', { reason: 'the monthly budget is used up' }), 'manual');
      expect(skipped).toMatchObject({ status: 'skipped', trigger: 'manual', reason: 'the monthly budget is used up', completedAt: '2026-03-10T06:00:01.000Z' });
      const operator = await second.startManualRun({ run: newRun('00000000-0000-4000-8000-000000000720'), chargedEmail: null, now: '2026-03-10T06:00:01.000Z' });
      expect(operator).toMatchObject({ outcome: 'started', run: { chargedEmail: null, status: 'running' } });
      expect((await accounts.getAccount('owner@acme.example'))?.credits).toBe(0);
    });

    it('stores each answer once and lists runs by time', async () => {
      const { first, second } = await open();
      await first.createWatch(watch());
      const run = await first.recordSkippedRun(newRun('00000000-0000-4000-8000-000000000800', { createdAt: '2026-03-08T06:00:00.000Z' }), 'schedule');
      const started = await first.startManualRun({ run: newRun('00000000-0000-4000-8000-000000000810'), chargedEmail: null, now: '2026-03-10T06:00:01.000Z' });
      expect(started.outcome).toBe('started');
      const runId = '00000000-0000-4000-8000-000000000810';
      expect(await first.insertAnswer(answer(runId, { provider: 'openai', sampleIndex: 1 }))).toBe(true);
      expect(await second.insertAnswer(answer(runId, { provider: 'openai', sampleIndex: 1, answer: 'again' }))).toBe(false);
      expect(await second.insertAnswer(answer(runId, { provider: 'anthropic', ok: false, model: null, answer: null, brands: [], named: false, position: null, failureKind: 'timeout', costMicroUsd: 0 }))).toBe(true);
      expect(await first.insertAnswer(answer(runId))).toBe(true);
      expect(await second.countAnswers(runId)).toBe(3);
      const answers = await second.listAnswers(runId);
      expect(answers.map((entry) => [entry.provider, entry.sampleIndex])).toEqual([
        ['anthropic', 0],
        ['openai', 0],
        ['openai', 1],
      ]);
      expect(answers[1]).toEqual(answer(runId));
      expect(answers[0]).toMatchObject({ ok: false, named: false, brands: [], failureKind: 'timeout', costMicroUsd: 0 });
      expect(answers[2]?.answer).toBe('Acme and Globex are both good.');

      expect((await second.listRuns(WATCH_ID)).map((entry) => entry.id)).toEqual([run.id, runId]);
      expect((await second.listRuns(WATCH_ID, { from: '2026-03-09T00:00:00.000Z' })).map((entry) => entry.id)).toEqual([runId]);
      expect((await second.listRuns(WATCH_ID, { to: '2026-03-08T06:00:00.000Z' })).map((entry) => entry.id)).toEqual([run.id]);
      expect(await second.listRuns(WATCH_ID, { from: '2026-03-08T06:00:00.001Z', to: '2026-03-10T06:00:00.000Z' })).toEqual([]);
    });

    it('finishes a run once, queueing its alerts once, and lists earlier complete runs newest first', async () => {
      const { first, second } = await open();
      await first.createWatch(watch());
      for (const [index, day] of ['07', '08', '09'].entries()) {
        const id = `00000000-0000-4000-8000-00000000090${index}`;
        await first.startManualRun({ run: newRun(id, { createdAt: `2026-03-${day}T06:00:00.000Z` }), chargedEmail: null, now: `2026-03-${day}T06:00:00.000Z` });
        const outcome = { status: 'complete' as const, reason: null, pointJson: `{"day":"${day}"}`, changesJson: '[]', completedAt: `2026-03-${day}T06:05:00.000Z` };
        const alerts =
          index === 2
            ? [
                { id: '00000000-0000-4000-8000-000000000a01', watchId: WATCH_ID, runId: id, channel: 'email' as const, target: 'owner@acme.example', payload: '{}', nextTryAt: '2026-03-09T06:05:00.000Z', createdAt: '2026-03-09T06:05:00.000Z' },
                { id: '00000000-0000-4000-8000-000000000a02', watchId: WATCH_ID, runId: id, channel: 'webhook' as const, target: 'https://hooks.acme.example/a', payload: '{"event":"x"}', nextTryAt: '2026-03-09T06:05:00.000Z', createdAt: '2026-03-09T06:05:00.000Z' },
              ]
            : [];
        const results = await Promise.all([first.finishRun(id, outcome, alerts), second.finishRun(id, outcome, alerts)]);
        expect(results.filter(Boolean)).toHaveLength(1);
      }
      expect(await second.runningRunIds()).toEqual([]);
      expect(await second.getRun('00000000-0000-4000-8000-000000000902')).toMatchObject({ status: 'complete', pointJson: '{"day":"09"}', changesJson: '[]', completedAt: '2026-03-09T06:05:00.000Z' });
      expect((await second.earlierCompleteRuns(WATCH_ID, '2026-03-09T06:00:00.000Z', 5)).map((run) => run.pointJson)).toEqual(['{"day":"08"}', '{"day":"07"}']);
      expect((await second.earlierCompleteRuns(WATCH_ID, '2026-03-10T00:00:00.000Z', 1)).map((run) => run.pointJson)).toEqual(['{"day":"09"}']);
      expect((await first.listAlerts(WATCH_ID)).map((alert) => [alert.channel, alert.status, alert.tries])).toEqual([
        ['email', 'pending', 0],
        ['webhook', 'pending', 0],
      ]);
    });

    it('claims each alert try once across instances and logs every try', async () => {
      const { first, second } = await open();
      await first.createWatch(watch());
      const runId = '00000000-0000-4000-8000-000000000b00';
      await first.startManualRun({ run: newRun(runId), chargedEmail: null, now: '2026-03-10T06:00:01.000Z' });
      expect(await second.nextAlertTryAt()).toBeUndefined();
      await first.finishRun(runId, { status: 'complete', reason: null, pointJson: '{}', changesJson: '[]', completedAt: '2026-03-10T06:05:00.000Z' }, [
        { id: '00000000-0000-4000-8000-000000000b01', watchId: WATCH_ID, runId, channel: 'webhook', target: 'https://hooks.acme.example/a', payload: '{}', nextTryAt: '2026-03-10T06:05:00.000Z', createdAt: '2026-03-10T06:05:00.000Z' },
        { id: '00000000-0000-4000-8000-000000000b02', watchId: WATCH_ID, runId, channel: 'email', target: 'owner@acme.example', payload: '{}', nextTryAt: '2026-03-10T06:06:00.000Z', createdAt: '2026-03-10T06:05:00.000Z' },
      ]);
      expect(await second.nextAlertTryAt()).toBe('2026-03-10T06:05:00.000Z');
      expect((await second.dueAlerts('2026-03-10T06:05:30.000Z', 10)).map((alert) => alert.channel)).toEqual(['webhook']);
      expect((await second.dueAlerts('2026-03-10T06:06:00.000Z', 10)).map((alert) => alert.channel)).toEqual(['webhook', 'email']);

      const webhook = '00000000-0000-4000-8000-000000000b01';
      const claims = await Promise.all([first, second, first, second].map((handle) => handle.claimAlertTry(webhook, 0, '2026-03-10T06:06:00.000Z')));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await first.dueAlerts('2026-03-10T06:05:30.000Z', 10)).map((alert) => alert.channel)).toEqual([]);
      await second.recordAlertTry(webhook, { tryNumber: 1, triedAt: '2026-03-10T06:05:01.000Z', ok: false, httpStatus: 500, error: 'HTTP 500' }, { status: 'pending', nextTryAt: '2026-03-10T06:05:31.000Z' });
      expect(await first.claimAlertTry(webhook, 0, '2026-03-10T06:07:00.000Z')).toBe(false);
      expect(await first.claimAlertTry(webhook, 1, '2026-03-10T06:07:00.000Z')).toBe(true);
      await first.recordAlertTry(webhook, { tryNumber: 2, triedAt: '2026-03-10T06:05:31.000Z', ok: true, httpStatus: 204, error: null }, { status: 'delivered', nextTryAt: null });
      // A try logged twice (a retried write) is kept once.
      await second.recordAlertTry(webhook, { tryNumber: 2, triedAt: '2026-03-10T06:05:32.000Z', ok: true, httpStatus: 204, error: null }, { status: 'delivered', nextTryAt: null });
      expect(await first.claimAlertTry(webhook, 2, '2026-03-10T06:08:00.000Z')).toBe(false);

      expect(await second.listAlertTries(WATCH_ID)).toEqual([
        { alertId: webhook, channel: 'webhook', runId, tryNumber: 1, triedAt: '2026-03-10T06:05:01.000Z', ok: false, httpStatus: 500, error: 'HTTP 500' },
        { alertId: webhook, channel: 'webhook', runId, tryNumber: 2, triedAt: '2026-03-10T06:05:31.000Z', ok: true, httpStatus: 204, error: null },
      ]);
      expect((await second.listAlerts(WATCH_ID)).map((alert) => [alert.channel, alert.status, alert.tries, alert.nextTryAt])).toEqual([
        ['email', 'pending', 0, '2026-03-10T06:06:00.000Z'],
        ['webhook', 'delivered', 2, null],
      ]);
      expect(await second.nextAlertTryAt()).toBe('2026-03-10T06:06:00.000Z');

      // Deleting the watch takes its runs, answers and alerts with it.
      await first.insertAnswer(answer(runId));
      expect(await second.deleteWatch(WATCH_ID)).toBe(true);
      expect(await first.getRun(runId)).toBeUndefined();
      expect(await first.countAnswers(runId)).toBe(0);
      expect(await first.listAlerts(WATCH_ID)).toEqual([]);
      expect(await first.nextAlertTryAt()).toBeUndefined();
    });
  });
}
