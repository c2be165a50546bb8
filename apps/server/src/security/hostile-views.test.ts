// One hostile payload through every view the service renders for people and assistants: the HTML pages,
// the SVG badge and every markdown view. The payload enters as the brand, the category, the watched
// competitors, a crawled heading and the model's answers (a local OpenAI-compatible server answers with
// it), and no view may carry it raw. Markdown is also rendered the way a client would (marked, which
// passes raw HTML through) to check that no element, link or code span comes out of it.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { marked } from 'marked';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startFixtureSite, type FixtureSite } from '../test-support/fixture-site.js';
import { startTestService, type TestService } from '../test-support/service.js';

const RAW = ['<img src=x onerror=alert(1)>', '<svg onload=alert(1)>', '[x](javascript:alert(1))', '`tick`', 'a|b'] as const;
const PAYLOAD = RAW.join(' ');
// The brand is at most 80 characters, so the payload is spread over the brand, the category and the competitors.
const BRAND = `Hostilebrand ${RAW[0]} ${RAW[2]} ${RAW[4]}`;
const CATEGORY = `CRM ${RAW[1]} ${RAW[3]} software`;
const SESSION_SECRET = 'hostile-views-test-secret-0123456789abcdef';
const OWNER = 'owner@acme.example';
const BASE_URL = 'http://visibility.test';

/** An OpenAI-compatible server whose every answer lists the payload as brands. */
async function startHostileModel(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const content = `Top picks:\n\n1. **Rivalone ${RAW[0]}** — solid.\n2. **Rivaltwo ${RAW[1]}** — fine.\n3. ${RAW[2]} ${RAW[3]} ${RAW[4]} Hostilebrand.`;
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-hostile',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: 'demo-hostile',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 12, completion_tokens: 40, total_tokens: 52 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface View {
  name: string;
  kind: 'html' | 'svg' | 'markdown';
  body: string;
  /** Whether the view shows the brand (then it must show it escaped, or the test proves nothing). */
  showsBrand: boolean;
}

describe('every HTML, SVG and markdown view neutralises one hostile payload', () => {
  let model: Awaited<ReturnType<typeof startHostileModel>>;
  let site: FixtureSite;
  let running: TestService;
  const views: View[] = [];

  beforeAll(async () => {
    model = await startHostileModel();
    site = await startFixtureSite({
      pages: {
        '/': { body: `<!doctype html><html lang="en"><head><title>Hostilebrand</title></head><body><h1>CRM for ${PAYLOAD} teams</h1><h2>Built for ${RAW[0]} agencies</h2></body></html>` },
        '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
      },
    });
    running = await startTestService({
      SESSION_SECRET,
      CRAWL_HOST_MAP: `hostile.test=${site.origin}`,
      PROVIDER_MODE: 'live',
      OPENAI_API_KEY: 'hostile',
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: 'demo-hostile',
    });
    const cookie = `${SESSION_COOKIE}=${createSessionToken(OWNER, SESSION_SECRET, new Date())}`;
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${running.url}${path}`, { headers });
      return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
    };
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${running.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    const audit = await post('/api/audit', {
      brand: BRAND,
      website: 'hostile.test',
      category: CATEGORY,
      competitors: `Rivalthree ${RAW[0]}, ${RAW[1]} ${RAW[3]}`,
      email: OWNER,
    });
    expect(audit.status, JSON.stringify(audit.body)).toBe(200);
    const auditId = String(audit.body.id);
    expect((await post(`/api/audit/${auditId}/fanout-map`, {})).status).toBe(200);
    const owner = { cookie, origin: BASE_URL };
    const badge = await post(`/api/audit/${auditId}/badge-token`, {}, owner);
    const share = await post(`/api/audit/${auditId}/share-link`, {}, owner);
    expect([badge.status, share.status]).toEqual([201, 201]);
    const badgeToken = String(badge.body.token);
    const shareToken = String(String(share.body.url ?? share.body.token).split('/').pop());

    const form = async (path: string, fields: Record<string, string>) => {
      const response = await fetch(`${running.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL },
        body: new URLSearchParams(fields).toString(),
      });
      return response.text();
    };
    const markdown = { accept: 'text/markdown' };
    const pages: Array<[string, View['kind'], Promise<{ body: string }> | Promise<string>, boolean]> = [
      ['report page (owner)', 'html', get(`/report/${auditId}`, { cookie }), true],
      ['share page', 'html', get(`/share/${shareToken}`), true],
      ['share page .md', 'markdown', get(`/share/${shareToken}.md`), true],
      ['share page, Accept: text/markdown', 'markdown', get(`/share/${shareToken}`, markdown), true],
      ['badge landing page', 'html', get(`/badge/${badgeToken}`), true],
      ['badge landing page .md', 'markdown', get(`/badge/${badgeToken}.md`), true],
      ['badge landing page, Accept: text/markdown', 'markdown', get(`/badge/${badgeToken}`, markdown), true],
      ['badge SVG', 'svg', get(`/api/badge/${badgeToken}`), true],
      ['account page', 'html', get('/account', { cookie }), true],
      ['site audit form result', 'html', form('/audit', { brand: BRAND, website: 'hostile.test', category: CATEGORY }), true],
      ['site check form result', 'html', form('/check', { brand: BRAND, category: CATEGORY }), true],
      ['share link not found .md', 'markdown', get(`/share/${encodeURIComponent(PAYLOAD)}.md`), false],
      ['unknown page .md', 'markdown', get(`/${encodeURIComponent(PAYLOAD)}.md`), false],
      ['unknown page', 'html', get(`/${encodeURIComponent(PAYLOAD)}`), false],
      ['llms.txt', 'markdown', get('/llms.txt'), false],
      ['llms-full.txt', 'markdown', get('/llms-full.txt'), false],
    ];
    // The result mail (written to the outbox: no SMTP_URL) has an HTML part too.
    const outbox = join(running.dataDir, 'outbox');
    const resultMail = readdirSync(outbox).find((file) => readFileSync(join(outbox, file), 'utf8').includes('AI visibility audit'));
    expect(resultMail).toBeDefined();
    const mail = await simpleParser(readFileSync(join(outbox, resultMail as string)));
    views.push({ name: 'result mail (HTML part)', kind: 'html', body: typeof mail.html === 'string' ? mail.html : '', showsBrand: true });
    for (const [name, kind, pending, showsBrand] of pages) {
      const answered = await pending;
      views.push({ name, kind, body: typeof answered === 'string' ? answered : answered.body, showsBrand });
    }
  }, 120_000);

  afterAll(async () => {
    await running?.stop();
    await site?.close();
    await model?.close();
  });

  it('carries no part of the payload raw, in any view', () => {
    expect(views.length).toBeGreaterThan(10);
    for (const view of views) {
      if (view.showsBrand) expect(view.body, `${view.name} does not show the brand at all`).toMatch(/Hostilebrand/u);
      for (const raw of RAW) {
        // Link syntax, backticks and pipes are inert text in HTML and SVG; only markdown has to neutralise them.
        if (view.kind !== 'markdown' && (raw === RAW[2] || raw === RAW[3] || raw === RAW[4])) continue;
        expect(view.body.includes(raw), `${view.name} carries ${raw} raw`).toBe(false);
      }
      // In markdown even "\<img …\>" is raw HTML to the original Markdown, which only unescapes a few characters.
      if (view.kind === 'markdown') expect(view.body, view.name).not.toMatch(/<(?:img|svg)/iu);
    }
  });

  it('renders each markdown view, as a client would, into no element, link or code span of the payload', () => {
    for (const view of views.filter((candidate) => candidate.kind === 'markdown')) {
      const html = marked.parse(view.body, { gfm: true, async: false });
      // A real element or event attribute, not the escaped text "&lt;img … onerror=…&gt;".
      expect(html, view.name).not.toMatch(/<(?:img|svg|script)\b|<[^>]*\son\w+=|href="javascript:/iu);
      expect(html, view.name).not.toMatch(/<code>tick<\/code>/u);
    }
  });
});
