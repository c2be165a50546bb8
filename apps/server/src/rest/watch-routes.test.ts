// The watch API end to end: the real service in the demo lineup (the SDK adapters against the simulator),
// a fixture site for the default questions, a real local HTTP receiver for the webhook and the real outbox.
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from '../test-support/fixture-site.js';
import { startTestService, type TestService } from '../test-support/service.js';

const SESSION_SECRET = 'watch-routes-test-secret-0123456789abcdef';
const OWNER = 'owner@pipedrive.test';
const OTHER = 'someone@else.test';
const DAY = 86_400_000;
const API_ERROR = { error: expect.any(String), code: expect.any(String), hint: expect.any(String), docs: 'http://visibility.test/developers' };

let site: FixtureSite;
let running: TestService;
let receiver: Server;
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  site = await startFixtureSite(SAAS_SITE);
  receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  running = await startTestService(
    { CRAWL_HOST_MAP: `pipedrive.test=${site.origin},hooks.example=${hooks}`, SESSION_SECRET },
    undefined,
    { watchScheduler: false },
  );
});
afterAll(async () => {
  await running?.stop();
  await site?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const cookieFor = (email: string): string => `${SESSION_COOKIE}=${createSessionToken(email, SESSION_SECRET)}`;

async function call(method: string, path: string, options: { body?: unknown; email?: string | null; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.email !== null) headers['cookie'] = cookieFor(options.email ?? OWNER);
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${running.url}${path}`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // CSV and empty answers stay text.
  }
  return { status: response.status, headers: response.headers, body };
}

const QUESTIONS = ['Which CRM is best for a small agency?', 'What CRM do sales teams like most?', 'Best CRM software for startups?'];

describe('watches over REST', () => {
  it('needs a signed-in owner, and a same-site origin to change anything', async () => {
    expect(await call('GET', '/api/watches', { email: null })).toMatchObject({ status: 401, body: { ...API_ERROR, code: 'unauthorized' } });
    const crossSite = await call('POST', '/api/watches', { body: { brand: 'Pipedrive', category: 'CRM software', schedule: 'daily' }, headers: { origin: 'https://evil.example' } });
    expect(crossSite).toMatchObject({ status: 403, body: { ...API_ERROR, code: 'cross_origin' } });
  });

  it('refuses bad input with 400 naming the field', async () => {
    const base = { brand: 'Pipedrive', category: 'CRM software', schedule: 'daily', questions: QUESTIONS };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...base, schedule: 'hourly' }, 'invalid_schedule', '`schedule`'],
      [{ ...base, schedule: undefined }, 'invalid_schedule', '`schedule`'],
      [{ ...base, questions: Array.from({ length: 21 }, (_, index) => `Which CRM is best for team ${index}?`) }, 'too_many_questions', '`questions`'],
      [{ ...base, samples: 0 }, 'invalid_samples', '`samples`'],
      [{ ...base, samples: 6 }, 'invalid_samples', '`samples`'],
      [{ ...base, samples: 2.5 }, 'invalid_samples', '`samples`'],
      [{ ...base, brand: '' }, 'missing_required', '`brand`'],
      [{ ...base, providers: ['openai', 'mistral'] }, 'invalid_providers', '`providers`'],
      [{ ...base, alert: { webhookUrl: 'http://127.0.0.1:8080/hook' } }, 'invalid_webhook', '`alert.webhookUrl`'],
      [{ ...base, alert: { webhookUrl: 'http://192.168.1.10/hook' } }, 'invalid_webhook', '`alert.webhookUrl`'],
      [{ ...base, alert: { webhookUrl: 'file:///etc/passwd' } }, 'invalid_webhook', '`alert.webhookUrl`'],
    ];
    for (const [body, code, field] of cases) {
      const answer = await call('POST', '/api/watches', { body });
      expect(answer.status, code).toBe(400);
      expect(answer.body).toEqual({ ...API_ERROR, code });
      expect(answer.body.error).toContain(field);
    }
    expect(await call('POST', '/api/watches', { body: [1] })).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
  });

  it('creates, lists, reads, changes and deletes a watch; another account sees a 404', async () => {
    const created = await call('POST', '/api/watches', { body: { brand: 'Pipedrive', category: 'CRM software', website: 'pipedrive.test', schedule: 'weekly', samples: 2 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ brand: 'Pipedrive', category: 'CRM software', schedule: 'weekly', samples: 2, paused: false, alert: { email: true, webhookUrl: null } });
    expect(created.body.providers.sort()).toEqual(['anthropic', 'gemini', 'openai']);
    // Without questions it takes the ones an audit of the brand would ask (the site read first).
    expect(created.body.questions.length).toBeGreaterThanOrEqual(6);
    expect(created.body.questions.every((question: string) => !/pipedrive/i.test(question))).toBe(true);
    expect(created.body.webhookSecret).toMatch(/^[\w-]{43}$/);
    const id = created.body.id as string;

    const listed = await call('GET', '/api/watches');
    expect(listed.body.watches.map((watch: { id: string }) => watch.id)).toContain(id);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.webhookSecret);
    expect((await call('GET', '/api/watches', { email: OTHER })).body.watches).toEqual([]);
    expect(await call('GET', `/api/watches/${id}`, { email: OTHER })).toMatchObject({ status: 404, body: { ...API_ERROR, code: 'watch_not_found' } });
    expect(await call('GET', '/api/watches/not-a-uuid')).toMatchObject({ status: 404, body: { code: 'watch_not_found' } });

    // As after a weekly run: the next one a week away.
    await running.service.store.watchRepository.updateWatch(id, { nextRunAt: new Date(Date.now() + 7 * DAY).toISOString() }, new Date().toISOString());
    const patched = await call('PATCH', `/api/watches/${id}`, { body: { schedule: 'daily', paused: true, alert: { webhookUrl: 'https://hooks.example/x' } } });
    expect(patched).toMatchObject({ status: 200, body: { schedule: 'daily', paused: true, alert: { email: true, webhookUrl: 'https://hooks.example/x' } } });
    // From weekly to daily: the next run comes within a day, not in a week.
    expect(Date.parse(patched.body.nextRunAt)).toBeLessThanOrEqual(Date.now() + DAY);
    expect(await call('PATCH', `/api/watches/${id}`, { body: { alert: { webhookUrl: 'http://localhost/x' } } })).toMatchObject({ status: 400, body: { code: 'invalid_webhook' } });
    // Only the fields sent change: the mail alert stays off, the webhook goes, the schedule stays daily.
    expect(await call('PATCH', `/api/watches/${id}`, { body: { alert: { email: false } } })).toMatchObject({ body: { alert: { email: false, webhookUrl: 'https://hooks.example/x' } } });
    expect(await call('PATCH', `/api/watches/${id}`, { body: { alert: { webhookUrl: null } } })).toMatchObject({ body: { schedule: 'daily', paused: true, alert: { email: false, webhookUrl: null } } });
    expect(await call('PATCH', `/api/watches/${id}`, { body: { brand: 'Other' } })).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
    expect(await call('PATCH', `/api/watches/${id}`, { email: OTHER, body: { paused: false } })).toMatchObject({ status: 404 });
    expect(await call('DELETE', `/api/watches/${id}`, { email: OTHER })).toMatchObject({ status: 404 });
    expect((await call('DELETE', `/api/watches/${id}`)).status).toBe(204);
    expect((await call('GET', `/api/watches/${id}`)).status).toBe(404);
  });

  it('runs now for a credit, shows the progress, then the history as JSON and CSV with from/to', async () => {
    const created = await call('POST', '/api/watches', { body: { brand: 'HubSpot', category: 'CRM software', schedule: 'daily', questions: QUESTIONS, samples: 1 } });
    const id = created.body.id as string;
    expect(await call('POST', `/api/watches/${id}/runs`)).toMatchObject({ status: 402, body: { ...API_ERROR, code: 'no_credits' } });
    await running.service.store.accountRepository.grantCredits(OWNER, 1);
    const started = await call('POST', `/api/watches/${id}/runs`);
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: 'running', trigger: 'manual', mode: 'demo', joined: false, progress: { total: 9 } });
    await running.service.watchTracker.idle();
    const run = await call('GET', `/api/watches/${id}/runs/${started.body.id}`);
    expect(run.body).toMatchObject({ status: 'complete', progress: { completed: 9, total: 9 }, changes: [] });
    expect(run.body.point.overall.answers).toBe(9);
    expect(await call('GET', `/api/watches/${id}/runs/${started.body.id}`, { email: OTHER })).toMatchObject({ status: 404 });

    const history = await call('GET', `/api/watches/${id}/history`);
    expect(history.body.points).toHaveLength(1);
    const [point] = history.body.points;
    expect(point).toMatchObject({ runId: started.body.id, mode: 'demo', costUsd: 0 });
    expect(point.providers.openai.model).toMatch(/^demo-/);
    expect(point.providers.openai.low).toBeLessThanOrEqual(point.providers.openai.mentionRate);
    expect(point.topCompetitors.length).toBeGreaterThan(0);
    const csv = await call('GET', `/api/watches/${id}/history?format=csv`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('runId,at,mode,provider,model,mentionRate,low,high,answers,named,rank,overallMentionRate,overallLow,overallHigh,shareOfVoice,costUsd');
    expect(lines).toHaveLength(4);
    const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    expect((await call('GET', `/api/watches/${id}/history?to=${yesterday}`)).body.points).toEqual([]);
    expect((await call('GET', `/api/watches/${id}/history?from=${yesterday}`)).body.points).toHaveLength(1);
    expect(await call('GET', `/api/watches/${id}/history?from=last-week`)).toMatchObject({ status: 400, body: { code: 'invalid_range' } });
    expect(await call('GET', `/api/watches/${id}/history`, { email: OTHER })).toMatchObject({ status: 404, body: { code: 'watch_not_found' } });
    expect(await call('POST', `/api/watches/${id}/runs`, { email: OTHER })).toMatchObject({ status: 404, body: { code: 'watch_not_found' } });
    expect(await call('GET', `/api/watches/${id}/history?format=xml`)).toMatchObject({ status: 400, body: { code: 'invalid_format' } });
  });

  it('runs on schedule, detects a shift of the simulated world, mails the owner and POSTs the signed change', async () => {
    const created = await call('POST', '/api/watches', {
      body: { brand: 'Pipedrive', category: 'CRM software', schedule: 'daily', questions: QUESTIONS, samples: 5, alert: { email: true, webhookUrl: 'https://hooks.example/visibility' } },
    });
    const id = created.body.id as string;
    const tracker = running.service.watchTracker;
    const simulator = running.service.simulator!;
    const start = Date.now();
    try {
      for (let day = 0; day < 4; day++) {
        if (day === 3) simulator.setBrandRate('Pipedrive', 0);
        const runs = await tracker.tick(new Date(start + day * DAY + 1_000));
        expect(runs.filter((run) => run.watchId === id)).toHaveLength(1);
        await tracker.idle();
      }
    } finally {
      simulator.setBrandRate('Pipedrive', undefined);
    }
    const history = await call('GET', `/api/watches/${id}/history`);
    expect(history.body.points).toHaveLength(4);
    const fall = history.body.changes.find((change: { provider: string; competitor?: string }) => change.provider === 'overall' && change.competitor === undefined);
    expect(fall).toMatchObject({ kind: 'dropped_out', direction: 'down', to: 0, runId: history.body.points[3].runId });

    const delivery = received.find((entry) => JSON.parse(entry.body).watchId === id);
    expect(delivery?.headers['x-visibility-event']).toBe('visibility.change');
    expect(delivery?.headers['x-visibility-signature']).toBe(`sha256=${createHmac('sha256', created.body.webhookSecret).update(delivery?.body ?? '').digest('hex')}`);
    const outbox = join(running.dataDir, 'outbox');
    const mails = readdirSync(outbox).map((file) => readFileSync(join(outbox, file), 'utf8').replace(/=\r?\n/g, ''));
    expect(mails.some((mail) => mail.includes(`To: ${OWNER}`) && mail.includes(`/watches/${id}`))).toBe(true);
    const watch = await call('GET', `/api/watches/${id}`);
    expect(watch.body.alertLog.map((entry: { channel: string; ok: boolean }) => [entry.channel, entry.ok]).sort()).toEqual([
      ['email', true],
      ['webhook', true],
    ]);
  });
});
