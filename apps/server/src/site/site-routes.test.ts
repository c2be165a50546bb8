import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from '../test-support/fixture-site.js';
import { startTestService, type TestService } from '../test-support/service.js';
import { reportKey } from './report-access.js';

const SESSION_SECRET = 'site-routes-test-secret-0123456789abcdef';
const BASE_URL = 'http://visibility.test';
const OWNER = 'owner@pipedrive.example';

let site: FixtureSite;
let running: TestService;
/** The audit the streamed form page ran, with the report link it printed. */
let audit: { id: string; reportPath: string; page: string };

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL, ...headers },
    body,
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${running.url}${path}`, { headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const ownerCookie = () => `${SESSION_COOKIE}=${createSessionToken(OWNER, SESSION_SECRET)}`;

beforeAll(async () => {
  site = await startFixtureSite(SAAS_SITE);
  running = await startTestService({ SESSION_SECRET, CRAWL_HOST_MAP: `pipedrive.test=${site.origin}` });
  const page = await post('/audit', form({ brand: 'Pipedrive', website: 'pipedrive.test', category: 'CRM software', email: OWNER, promptLanguage: '' }));
  expect(page.status).toBe(200);
  const link = /href="(\/report\/([0-9a-f-]{36})\?key=[A-Za-z0-9_-]{32})"/.exec(page.text);
  expect(link, page.text.slice(-2000)).not.toBeNull();
  audit = { id: link?.[2] ?? '', reportPath: link?.[1] ?? '', page: page.text };
}, 120_000);
afterAll(async () => {
  await running.stop();
  await site.close();
});

describe('POST /audit (the home page form)', () => {
  it('streams the progress collapsed, then sends the browser to the report at its own GET address', async () => {
    const details = audit.page.indexOf('<details class="progress-log">');
    const progress = audit.page.indexOf('<ol class="progress"');
    const firstStep = audit.page.indexOf('<li>', progress);
    expect(details).toBeGreaterThan(0);
    // Collapsed: no "open" attribute on the log.
    expect(audit.page).not.toMatch(/<details class="progress-log"[^>]*\bopen\b/u);
    expect(progress).toBeGreaterThan(details);
    expect(firstStep).toBeGreaterThan(progress);
    expect(audit.page).toContain('crawling https://pipedrive.test');
    // Post/redirect/get: the POST answer holds no report, it hops to the report's own URL (a reload never re-posts).
    expect(audit.page).not.toContain('class="report');
    expect(audit.page).toContain(`<meta http-equiv="refresh" content="0; url=${audit.reportPath}">`);
    expect(audit.page.trim().endsWith('</html>')).toBe(true);
    expect(audit.page).toContain('class="demo-banner"');

    // The report page: the report first, with its charts.
    const report = await get(audit.reportPath);
    expect(report.status).toBe(200);
    const main = report.text.slice(report.text.indexOf('<main'));
    expect(main.indexOf('class="report')).toBeGreaterThan(0);
    expect(main.indexOf('class="report')).toBeLessThan(main.indexOf('id="report-private-link"'));
    expect(report.text.match(/<svg[^>]*role="img"/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('answers bad input with the form again, the values kept and the error shown, and spends nothing', async () => {
    const before = (await running.service.store.auditRepository.listAuditsByEmail(OWNER)).length;
    const page = await post('/audit', form({ brand: 'Acme <b>', website: 'http://127.0.0.1/', category: 'CRM' }));
    expect(page.status).toBe(400);
    expect(page.text).toContain('role="alert"');
    expect(page.text).toContain('value="Acme &lt;b&gt;"');
    expect(page.text).toContain('value="http://127.0.0.1/"');
    expect((await running.service.store.auditRepository.listAuditsByEmail(OWNER)).length).toBe(before);
  });

  it('refuses a form posted from another site before doing anything', async () => {
    const page = await post('/audit', form({ brand: 'Acme', website: 'pipedrive.test', category: 'CRM' }), { origin: 'https://evil.example' });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('sends GET /audit and GET /check back to the forms', async () => {
    expect((await get('/audit')).headers.get('location')).toBe('/');
    expect((await get('/check')).status).toBe(303);
  });
});

describe('POST /check', () => {
  it('shows the quick check result, labelled demo', async () => {
    const page = await post('/check', form({ brand: 'Pipedrive', category: 'CRM software' }));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Result for Pipedrive');
    expect(page.text).toMatch(/<code>demo-[^<]+<\/code> \(demo\)/);
  });

  it('answers a missing brand with the form and the spec code words, status 400', async () => {
    const page = await post('/check', form({ brand: '  ', category: 'CRM <i>software</i>' }));
    expect(page.status).toBe(400);
    expect(page.text).toContain('value="CRM &lt;i&gt;software&lt;/i&gt;"');
    expect(page.text).toContain('The brand is missing or empty.');
  });

  it('reads an oversized form as a page-shaped 400, never a crash', async () => {
    const page = await post('/check', form({ brand: 'x'.repeat(40_000) }));
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});

describe('/report/{auditId}', () => {
  it('opens with the private key, without it 404s, and with a wrong key 404s', async () => {
    const page = await get(audit.reportPath);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('x-robots-tag')).toContain('noindex');
    expect(page.text).toContain('Pipedrive');
    expect((await get(`/report/${audit.id}`)).status).toBe(404);
    expect((await get(`/report/${audit.id}?key=${'A'.repeat(32)}`)).status).toBe(404);
    expect((await get(`/report/${audit.id}?key=${reportKey('another-secret', audit.id)}`)).status).toBe(404);
  });

  it('opens for the signed-in owner without the key, and not for someone else', async () => {
    expect((await get(`/report/${audit.id}`, { cookie: ownerCookie() })).status).toBe(200);
    const other = `${SESSION_COOKIE}=${createSessionToken('someone@else.example', SESSION_SECRET)}`;
    expect((await get(`/report/${audit.id}`, { cookie: other })).status).toBe(404);
  });

  it('starts the buyer-question map from the button and shows the grid once measured', async () => {
    const started = await post(`/report/${audit.id}/map${audit.reportPath.slice(audit.reportPath.indexOf('?'))}`, '');
    expect(started.status).toBe(303);
    expect(started.headers.get('location')).toBe(audit.reportPath);
    let page = await get(audit.reportPath);
    for (let attempt = 0; attempt < 60 && page.headers.get('refresh') !== null; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      page = await get(audit.reportPath);
    }
    expect(page.headers.get('refresh')).toBeNull();
    const map = (await (await fetch(`${running.url}/api/audit/${audit.id}/fanout-map`)).json()) as { map?: { questions: string[] } };
    expect(map.map).toBeDefined();
    expect(page.text).toContain((map.map?.questions[0] ?? '').replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;'));
  }, 60_000);

  it('lets the signed-in owner measure the map again from the report for a credit, and keeps the earlier measurement visible', async () => {
    const ownerReport = `/report/${audit.id}`;
    // Nobody but the owner sees the button; the owner without credits is told why there is none.
    expect((await get(audit.reportPath)).text).not.toContain('Measure the buyer questions again');
    expect((await get(ownerReport, { cookie: ownerCookie() })).text).toContain('Measuring again costs one credit; this account has none left.');
    await running.service.store.accountRepository.grantCredits(OWNER, 1);
    const page = await get(ownerReport, { cookie: ownerCookie() });
    expect(page.text).toContain('Measure the buyer questions again (1 credit)');
    expect(page.text).toContain(`action="/report/${audit.id}/map"`);
    // A visitor with only the key cannot re-measure (401 from the core, shown on the page), and spends nothing.
    const refused = await post(`/report/${audit.id}/map${audit.reportPath.slice(audit.reportPath.indexOf('?'))}`, 'rerun=true');
    expect(refused.status).toBe(401);
    expect((await running.service.store.accountRepository.getAccount(OWNER))?.credits).toBe(1);

    const started = await post(`/report/${audit.id}/map`, 'rerun=true', { cookie: ownerCookie() });
    expect(started.status).toBe(303);
    expect((await running.service.store.accountRepository.getAccount(OWNER))?.credits).toBe(0);
    let after = await get(ownerReport, { cookie: ownerCookie() });
    for (let attempt = 0; attempt < 60 && running.service.store.mapRepository.runningJob(audit.id) !== undefined; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    after = await get(ownerReport, { cookie: ownerCookie() });
    expect(running.service.store.mapRepository.completedGenerations(audit.id).map((entry) => entry.generation)).toEqual([2, 1]);
    expect(after.text).toContain('<h3>Earlier measurements</h3>');
    // the date is a <time> element, not its markup shown as text
    expect(after.text).toMatch(/<li>Measurement 1, <time datetime="[^"]+">[^<]+<\/time>: won \d+ of \d+ questions<\/li>/u);
    expect(after.text).not.toContain('&lt;time');
  }, 60_000);
});

describe('share links and badge pages', () => {
  async function mint(kind: 'badge' | 'share'): Promise<string> {
    const page = await post(`/account/audits/${audit.id}/${kind}`, '', { cookie: ownerCookie() });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const token = new RegExp(`/${kind}/(v[bs]_[A-Za-z0-9_-]+)`).exec(page.text)?.[1];
    expect(token).toBeDefined();
    return token ?? '';
  }

  it('mints a share link from the account page and opens it read-only without an account, as HTML and markdown', async () => {
    const token = await mint('share');
    const page = await get(`/share/${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Pipedrive');
    expect(page.text).not.toContain('<form method="post" action="/report/');
    expect(page.headers.get('x-robots-tag')).toContain('noindex');
    const markdown = await get(`/share/${token}.md`);
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(markdown.headers.get('vary')).toBe('Accept');
    expect(markdown.text).toContain('Pipedrive');
    const negotiated = await get(`/share/${token}`, { accept: 'text/markdown' });
    expect(negotiated.text).toBe(markdown.text);
    expect((await get(`/share/${token}`, { accept: 'application/json' })).status).toBe(406);
    expect((await get('/share/vs_doesnotexist')).status).toBe(404);
  });

  it('mints a badge with the embed snippet (anchor to the landing page around the 250x40 image)', async () => {
    const token = await mint('badge');
    const page = await post(`/account/audits/${audit.id}/badge`, '', { cookie: ownerCookie() });
    expect(page.text).toMatch(/&lt;a href=&quot;http:\/\/visibility\.test\/badge\/vb_[^&]+&quot;&gt;&lt;img src=&quot;http:\/\/visibility\.test\/api\/badge\/vb_[^&]+&quot; width=&quot;250&quot; height=&quot;40&quot;/);
    const landing = await get(`/badge/${token}`);
    expect(landing.status).toBe(200);
    // The demo lineup measured nothing: the page's title and heading say what the badge itself says.
    expect(landing.text).toContain('<title>Pipedrive: AI visibility demo, not measured');
    expect(landing.text).not.toMatch(/<h1>[^<]*AI visibility measured/u);
    const svg = await (await fetch(`${running.url}/api/badge/${token}`)).text();
    expect(svg).toContain('demo, not measured');
    expect(landing.text).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(landing.text).toContain(`<img src="http://visibility.test/api/badge/${token}" width="250" height="40"`);
    expect(landing.text).toContain('Pipedrive');
    expect(landing.text).toMatch(/<dt>Measured<\/dt><dd>[A-Z][a-z]+ \d{4}/);
    expect(landing.text).toContain('What was asked');
    expect((await get(`/badge/${token}.md`)).text).toContain('## What was asked');
  });

  it('refuses to mint for anyone but the owner', async () => {
    expect((await post(`/account/audits/${audit.id}/share`, '')).status).toBe(401);
    const other = `${SESSION_COOKIE}=${createSessionToken('someone@else.example', SESSION_SECRET)}`;
    expect((await post(`/account/audits/${audit.id}/share`, '', { cookie: other })).status).toBe(403);
    expect((await post(`/account/audits/${audit.id}/share`, '', { cookie: ownerCookie(), origin: 'https://evil.example' })).status).toBe(403);
  });

  it('lists the audit on the account page with a report link and the two mint buttons', async () => {
    const page = await get('/account', { cookie: ownerCookie() });
    expect(page.text).toContain(`href="/report/${audit.id}"`);
    expect(page.text).toContain(`action="/account/audits/${audit.id}/badge"`);
    expect(page.text).toContain(`action="/account/audits/${audit.id}/share"`);
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
  });

  it('lists the owner\'s badges and share links under the audit and revokes one from its button: the link stops working', async () => {
    const token = await mint('share');
    expect((await get(`/share/${token}`)).status).toBe(200);
    const page = await get('/account', { cookie: ownerCookie() });
    const id = createHash('sha256').update(token).digest('hex').slice(0, 16);
    const action = `/account/audits/${audit.id}/tokens/share/${id}/revoke`;
    expect(page.text).toContain(`action="${action}"`);
    // The raw token is never shown again.
    expect(page.text).not.toContain(token);
    // Someone else cannot revoke it.
    const other = `${SESSION_COOKIE}=${createSessionToken('someone@else.example', SESSION_SECRET)}`;
    expect((await post(action, '', { cookie: other })).status).toBe(403);
    const revoked = await post(action, '', { cookie: ownerCookie() });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/account');
    expect((await get(`/share/${token}`)).status).toBe(404);
    const after = await get('/account', { cookie: ownerCookie() });
    expect(after.text).toMatch(new RegExp(`Share link ${id.slice(0, 8)}, created \\d{4}-\\d\\d-\\d\\d: revoked`, 'u'));
    // Over the API: the same list, with ids and dates, never raw tokens.
    const listed = await fetch(`${running.url}/api/audit/${audit.id}/tokens`, { headers: { cookie: ownerCookie() } });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { tokens: Array<{ id: string; kind: string; revokedAt: string | null }> };
    expect(body.tokens).toContainEqual(expect.objectContaining({ id, kind: 'share', revokedAt: expect.any(String) }));
    expect(JSON.stringify(body)).not.toContain(token);
  });
});
