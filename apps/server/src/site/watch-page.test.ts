import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WatchHistory } from '@visibility/core';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startTestService, type TestService } from '../test-support/service.js';
import { renderWatchHtml, renderWatchMarkdown } from './watch-page.js';

const HOSTILE = '<script>alert(1)</script>|**x**';

function history(): WatchHistory {
  const point = (runId: string, at: string, rate: number) => ({
    runId,
    at,
    mode: 'demo',
    providers: { openai: { model: 'demo-<i>m</i>', mentionRate: rate, low: rate - 0.1, high: rate + 0.1, answers: 30, named: Math.round(rate * 30), failed: 0, rank: 2 } },
    overall: { mentionRate: rate, low: rate - 0.1, high: rate + 0.1, answers: 30, named: Math.round(rate * 30) },
    shareOfVoice: 0.3,
    topCompetitors: [{ name: `${HOSTILE} CRM`, mentions: 12 }],
    costUsd: 0,
  });
  return {
    watch: {
      id: '2b1f5f0c-7d43-4a57-9d0c-0b3f4a1e2c11',
      brand: HOSTILE,
      category: '</svg><img src=x onerror=alert(2)>',
      website: null,
      questions: ['Best <b>CRM</b>?'],
      providers: ['openai'],
      samples: 3,
      schedule: 'daily',
      paused: false,
      nextRunAt: '2026-11-05T06:00:00.000Z',
      createdAt: '2026-11-01T06:00:00.000Z',
      alert: { email: true, webhookUrl: null },
    },
    points: [point('r1', '2026-11-02T06:00:00.000Z', 0.8), point('r2', '2026-11-03T06:00:00.000Z', 0.82), point('r3', '2026-11-04T06:00:00.000Z', 0.2)],
    changes: [
      {
        at: '2026-11-04T06:00:00.000Z', runId: 'r3', provider: 'openai', kind: 'mention_rate', from: 0.81, to: 0.2, effect: -0.61, fromInterval: [0.7, 0.9], toInterval: [0.1, 0.35],
        pValue: 0.00001, threshold: 0.0025, direction: 'down', baselineAnswers: 60, latestAnswers: 30, baselineRuns: 2,
      },
    ],
    skipped: [{ runId: 'r4', at: '2026-11-05T06:00:00.000Z', status: 'skipped', reason: 'budget: <used up>' }],
    running: null,
  };
}

describe('the watch page', () => {
  it('draws the trend with its interval band and the real change, escaping every untrusted value', () => {
    const html = renderWatchHtml(history());
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>CRM');
    expect(html).not.toContain('<i>m');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('viewBox="0 0 640 220"');
    expect(html.match(/<polygon /g)?.length).toBe(2); // the band, for all providers and for openai
    expect(html).toContain('▼');
    expect(html).toContain('skipped: budget: &lt;used up&gt;');
    expect(html).toContain('/api/watches/2b1f5f0c-7d43-4a57-9d0c-0b3f4a1e2c11/history?format=csv');
    // Every chart sits in a <figure> whose SVG scales with its box (phones).
    expect(html).toContain('class="report-chart-svg"');
  });

  it('has a markdown view with the same runs, escaped', () => {
    const markdown = renderWatchMarkdown(history(), 'http://visibility.test');
    expect(markdown).toContain('# Watch: &lt;script&gt;alert(1)&lt;/script&gt;\\|\\*\\*x\\*\\*');
    expect(markdown).not.toContain('<script>');
    expect(markdown.split('\n').filter((line) => line.startsWith('| 2026-11-0'))).toHaveLength(3);
    expect(markdown).toContain('fell on openai');
  });
});

describe('the watch page over HTTP', () => {
  const SECRET = 'watch-page-test-secret-0123456789abcdef';
  let running: TestService;
  let id: string;
  const cookie = (email: string) => ({ cookie: `${SESSION_COOKIE}=${createSessionToken(email, SECRET)}` });

  beforeAll(async () => {
    running = await startTestService({ SESSION_SECRET: SECRET }, undefined, { watchScheduler: false });
    const created = await fetch(`${running.url}/api/watches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...cookie('owner@acme.test') },
      body: JSON.stringify({ brand: '<b>Acme</b>', category: 'CRM software', schedule: 'daily', questions: ['Which CRM is best for a small agency?'], samples: 1 }),
    });
    id = ((await created.json()) as { id: string }).id;
    await running.service.watchTracker.tick(new Date(Date.now() + 1_000));
    await running.service.watchTracker.idle();
  });
  afterAll(async () => running?.stop());

  it("shows the owner's watch as HTML and markdown, lists it on /account, and hides it from anyone else", async () => {
    const page = await fetch(`${running.url}/watches/${id}`, { headers: cookie('owner@acme.test') });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('&lt;b&gt;Acme&lt;/b&gt;');
    expect(html).not.toContain('<b>Acme');
    expect(html).toContain('<svg class="report-chart-svg"');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const markdown = await fetch(`${running.url}/watches/${id}.md`, { headers: cookie('owner@acme.test') });
    expect(markdown.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await markdown.text()).toContain('# Watch: &lt;b&gt;Acme&lt;/b&gt;');
    const negotiated = await fetch(`${running.url}/watches/${id}`, { headers: { ...cookie('owner@acme.test'), accept: 'text/markdown' } });
    expect(negotiated.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect((await fetch(`${running.url}/watches/${id}`, { headers: cookie('other@else.test') })).status).toBe(404);
    expect((await fetch(`${running.url}/watches/${id}`)).status).toBe(404);
    const account = await (await fetch(`${running.url}/account`, { headers: cookie('owner@acme.test') })).text();
    expect(account).toContain(`href="/watches/${id}"`);
    expect(account).toContain('Your watches');
  });
});
