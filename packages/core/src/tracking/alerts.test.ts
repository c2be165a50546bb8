// Alerts of a detected change: the owner's mail in the real outbox, and the webhook POSTed to a real local
// HTTP receiver (allowed through the public-host guard by the host map, as CRAWL_HOST_MAP allows fixture
// sites), signed, retried with backoff on fake timers, each try logged.
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createJobRunner } from '../jobs/runner.js';
import { createLogger } from '../logging/logger.js';
import { createMailer } from '../mail/mailer.js';
import type { Provider, ProviderId } from '../providers/types.js';
import { useTempStores } from '../store/test-support/temp-stores.js';
import type { Store } from '../store/store.js';
import { createWatch } from './operations.js';
import { ALERT_RETRY_DELAYS_MS, WatchTracker } from './tracker.js';
import type { TrackingDependencies } from './tracker.js';

const OWNER = 'owner@pipedrive.test';
const START = new Date('2026-11-02T06:00:00.000Z');
const DAY = 86_400_000;
const stores = useTempStores('alerts');

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let receiver: Server;
let received: Received[];
let statuses: number[];

beforeEach(async () => {
  received = [];
  statuses = [];
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.statusCode = statuses.shift() ?? 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(START);
});

afterEach(async () => {
  vi.useRealTimers();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** A provider whose answers name the brand while `named.value` is true. */
function switchableProvider(named: { value: boolean }): Provider {
  return {
    id: 'openai',
    model: 'test-model',
    async ask() {
      const text = named.value ? 'Try **Pipedrive**, then **HubSpot**.' : 'Try **HubSpot** or **Zoho CRM**.';
      return { provider: 'openai', model: 'test-model', text, usage: { inputTokens: 10, outputTokens: 10 }, latencyMs: 1, attempts: 1 };
    },
  };
}

function trackerOn(store: Store, named: { value: boolean }, overrides: Partial<TrackingDependencies> = {}): WatchTracker {
  const port = (receiver.address() as AddressInfo).port;
  return new WatchTracker({
    watchRepository: store.watchRepository,
    jobs: createJobRunner({ store: store.jobRepository }),
    lineup: new Map<ProviderId, Provider>([['openai', switchableProvider(named)]]),
    mode: 'demo',
    baseUrl: 'http://visibility.test',
    logger: createLogger({ level: 'silent' }),
    hostMap: new Map([['hooks.example', `http://127.0.0.1:${port}`]]),
    mailer: createMailer({ smtpUrl: undefined, dataDir: stores.dataDir(), from: 'AI Visibility <no-reply@visibility.test>' }),
    ...overrides,
  });
}

/** Three runs naming the brand every time, then one naming it never: a change, and its alerts. */
async function watchThatChanges(tracker: WatchTracker, named: { value: boolean }, webhookUrl: string): Promise<{ watchId: string; secret: string }> {
  const { watch, webhookSecret } = await createWatch(tracker, OWNER, {
    brand: 'Pipedrive',
    category: 'CRM software',
    schedule: 'daily',
    questions: ['Which CRM is best for a small agency?', 'What CRM do sales teams like?', 'Best CRM for startups?', 'Which CRM is easiest to use?'],
    samples: 5,
    alert: { email: true, webhookUrl },
  });
  for (let day = 0; day < 4; day++) {
    if (day === 3) named.value = false;
    vi.setSystemTime(new Date(START.getTime() + day * DAY));
    await tracker.runDue();
    await tracker.idle();
  }
  return { watchId: watch.id, secret: webhookSecret };
}

describe('alerts of a change', () => {
  it('mails the owner and POSTs the signed change, retrying a failing receiver with backoff, each try logged', async () => {
    const store = stores.open();
    const named = { value: true };
    const tracker = trackerOn(store, named);
    statuses = [500, 503];
    const { watchId, secret } = await watchThatChanges(tracker, named, 'https://hooks.example/visibility?team=7');

    // The first try happened when the run completed: the mail went out, the receiver said 500.
    const outbox = readdirSync(join(stores.dataDir(), 'outbox'));
    expect(outbox).toHaveLength(1);
    // Soft line breaks of quoted-printable joined again.
    const mail = readFileSync(join(stores.dataDir(), 'outbox', outbox[0] as string), 'utf8').replace(/=\r?\n/g, '');
    expect(mail).toContain(`To: ${OWNER}`);
    expect(mail).toContain('Pipedrive');
    expect(mail).toContain(`http://visibility.test/watches/${watchId}`);
    expect(received).toHaveLength(1);

    await vi.advanceTimersByTimeAsync((ALERT_RETRY_DELAYS_MS[0] as number) - 1);
    await tracker.idle();
    expect(received).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await tracker.idle();
    expect(received).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(ALERT_RETRY_DELAYS_MS[1] as number);
    await tracker.idle();
    expect(received).toHaveLength(3);

    const delivery = received[2] as Received;
    expect(delivery.headers['x-visibility-event']).toBe('visibility.change');
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['x-visibility-signature']).toBe(`sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`);
    // Every try carries the same body and signature.
    expect(new Set(received.map((entry) => entry.body)).size).toBe(1);
    const payload = JSON.parse(delivery.body);
    expect(payload).toMatchObject({ event: 'visibility.change', watchId, brand: 'Pipedrive', url: `http://visibility.test/watches/${watchId}` });
    expect(payload.changes.find((change: { provider: string }) => change.provider === 'openai')).toMatchObject({ kind: 'dropped_out', from: 1, to: 0, direction: 'down' });

    const tries = await store.watchRepository.listAlertTries(watchId);
    expect(tries.map((entry) => [entry.channel, entry.tryNumber, entry.ok, entry.httpStatus])).toEqual([
      ['email', 1, true, null],
      ['webhook', 1, false, 500],
      ['webhook', 2, false, 503],
      ['webhook', 3, true, 200],
    ]);
    expect((await store.watchRepository.listAlerts(watchId)).map((alert) => alert.status)).toEqual(['delivered', 'delivered']);
  });

  it('gives up after 5 tries over about ten minutes', async () => {
    const store = stores.open();
    const named = { value: true };
    const tracker = trackerOn(store, named);
    statuses = [500, 500, 500, 500, 500, 500];
    const { watchId } = await watchThatChanges(tracker, named, 'https://hooks.example/visibility');
    const firstTry = Date.now();
    for (const delay of ALERT_RETRY_DELAYS_MS) {
      await vi.advanceTimersByTimeAsync(delay);
      await tracker.idle();
    }
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    await tracker.idle();
    expect(received).toHaveLength(5);
    const tries = (await store.watchRepository.listAlertTries(watchId)).filter((entry) => entry.channel === 'webhook');
    expect(tries).toHaveLength(5);
    const span = Date.parse(tries[4]!.triedAt) - firstTry;
    expect(span).toBeGreaterThanOrEqual(9 * 60_000);
    expect(span).toBeLessThanOrEqual(11 * 60_000);
    expect((await store.watchRepository.listAlerts(watchId)).find((alert) => alert.channel === 'webhook')?.status).toBe('failed');
  });

  it('refuses a webhook whose host turns private at delivery (DNS changed), and logs the refusal', async () => {
    const store = stores.open();
    const named = { value: true };
    const tracker = trackerOn(store, named, { lookup: async () => [{ address: '127.0.0.1', family: 4 }] });
    const { watchId } = await watchThatChanges(tracker, named, 'https://hooks.public-receiver.com/x');
    expect(received).toEqual([]);
    const [attempt] = (await store.watchRepository.listAlertTries(watchId)).filter((entry) => entry.channel === 'webhook');
    expect(attempt).toMatchObject({ ok: false, httpStatus: null });
    expect(attempt?.error).toMatch(/refused: .*non-public address/);
  });

  it('refuses private, loopback and non-http webhook URLs when the watch is created, naming the field', async () => {
    const tracker = trackerOn(stores.open(), { value: true });
    for (const webhookUrl of ['http://127.0.0.1:9/x', 'http://localhost/x', 'ftp://hooks.example.com/', 'http://10.1.2.3/', 'http://[::1]/', 'http://user:pw@hooks.example.com/', 'not a url']) {
      await expect(
        createWatch(tracker, OWNER, { brand: 'Pipedrive', category: 'CRM software', schedule: 'daily', alert: { webhookUrl } }),
      ).rejects.toMatchObject({ isFieldError: true, code: 'invalid_webhook', message: expect.stringContaining('`alert.webhookUrl`') });
    }
  });
});
