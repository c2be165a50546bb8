// The public site in a real browser (headless Chromium through playwright-core): the home forms, the
// streaming audit page, the map button, share and badge pages, and every page scanned for console
// errors (CSP violations included), failed requests and serious accessibility violations (axe-core),
// in light and dark colour schemes and on a narrow phone. Screenshots land in test-artifacts/.
//
// The service runs with BASE_URL equal to its real origin, so the browser's form posts pass the
// same-origin check (pages sent with Referrer-Policy: no-referrer post with "Origin: null", which
// that check accepts only with Sec-Fetch-Site: same-origin); the demo lineup answers from the simulator; the audit crawls a local fixture
// site through CRAWL_HOST_MAP.

import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFixtureSite, SAAS_SITE, type FixtureSite } from '../test-support/fixture-site.js';
import { startTestService, type TestService } from '../test-support/service.js';
import {
  CHROMIUM_PATH,
  freePort,
  HAS_CHROMIUM,
  latestSignInLink,
  launchBrowser,
  screenshot,
  SCREENSHOT_DIR,
  seriousViolations,
  watchPage,
  type PageWatch,
} from './test-support/browser.js';

const OWNER = 'owner@pipedrive.example';
const MOBILE = { width: 375, height: 740 };

if (!HAS_CHROMIUM) {
  console.warn(`browser.test.ts skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH).`);
}

describe.skipIf(!HAS_CHROMIUM)(`the site in Chromium (${CHROMIUM_PATH})`, () => {
  let browser: Browser;
  let site: FixtureSite;
  let running: TestService;
  let baseUrl: string;
  /** Filled as the tests go: each later test needs the audit run through the home page. */
  const state: { auditId?: string; reportUrl?: string; shareUrl?: string; badgeUrl?: string; badgeToken?: string; owner?: BrowserContext } = {};

  beforeAll(async () => {
    rmSync(SCREENSHOT_DIR, { recursive: true, force: true });
    site = await startFixtureSite(SAAS_SITE);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    running = await startTestService({ PORT: String(port), BASE_URL: baseUrl, CRAWL_HOST_MAP: `pipedrive.test=${site.origin}` });
    expect(running.url).toBe(baseUrl);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
    await site?.close();
  });

  /** A page (in a new light-scheme context unless one is given) whose problems are watched. */
  async function open(options: { viewport?: { width: number; height: number }; context?: BrowserContext } = {}) {
    const context = options.context ?? (await browser.newContext({ colorScheme: 'light', viewport: options.viewport ?? { width: 1280, height: 900 } }));
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const watch = watchPage(page);
    return { context, page, watch, close: () => (options.context === undefined ? context.close() : page.close()) };
  }

  function needs<K extends keyof typeof state>(key: K): NonNullable<(typeof state)[K]> {
    const value = state[key];
    if (value === undefined) throw new Error(`${key} is missing: this test needs the audit (and tokens) of the earlier tests, which failed`);
    return value as NonNullable<(typeof state)[K]>;
  }

  /** Resolves with the response of the page a form post redirected to (303), at a path matching `path`. */
  const afterPost = (page: Page, path: RegExp) =>
    page.waitForResponse((response) => response.request().method() === 'GET' && path.test(new URL(response.url()).pathname) && response.request().redirectedFrom()?.method() === 'POST');

  it('runs a quick check from the home form and shows the demo-labelled result', async () => {
    const { page, watch, close } = await open();
    await page.goto(`${baseUrl}/`);
    await page.fill('#check-brand', 'HubSpot');
    await page.fill('#check-category', 'CRM software');
    const answered = page.waitForResponse((response) => response.request().method() === 'POST' && response.url() === `${baseUrl}/check`);
    await page.click('form[action="/check"] button[type="submit"]');
    expect((await answered).status()).toBe(200);
    await page.waitForLoadState('load');

    const result = page.locator('section.result');
    expect(await result.locator('h2').textContent()).toBe('Result for HubSpot');
    expect(await result.locator('.verdict').textContent()).toMatch(/^\d{1,3} \/ 100 · /);
    expect(await result.locator('dd code').textContent()).toMatch(/^demo-/);
    expect(await result.textContent()).toContain('(demo)');
    expect(await result.locator('.notice[role="note"]').textContent()).toContain('Demo lineup');
    expect(await page.locator('.demo-banner').count()).toBe(1);
    // The form to check another brand is there again.
    expect(await page.locator('#check-brand').count()).toBe(1);
    expect(await seriousViolations(page), 'axe on the check result').toEqual([]);
    expect(watch.take()).toEqual([]);
    await close();
  });

  it('runs an audit from the home form: progress streams in collapsed, then the browser lands on the report at its own address', async () => {
    const simulator = running.service.simulator;
    if (simulator === undefined) throw new Error('the demo lineup has no simulator');
    // Slow answers a little, so the progress is visibly streamed before the audit ends.
    simulator.setLatency(100);
    const { page, watch, close } = await open();
    try {
      await page.goto(`${baseUrl}/`);
      await page.fill('#audit-brand', 'Pipedrive');
      await page.fill('#audit-website', 'pipedrive.test');
      await page.fill('#audit-category', 'CRM software');
      await page.fill('#audit-email', OWNER);
      await page.click('form[action="/audit"] button[type="submit"]');

      await page.waitForSelector('details.progress-log ol.progress li', { state: 'attached', timeout: 30_000 });
      const early = await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { querySelector(selector: string): { open?: boolean } | null } }).document;
        return { report: doc.querySelector('section.report') !== null, collapsed: doc.querySelector('details.progress-log')?.open === false };
      });
      expect(early, 'the progress log streams in, collapsed, while the audit still runs').toEqual({ report: false, collapsed: true });

      // Post/redirect/get: the finished page sends the browser to the report's own GET address.
      await page.waitForURL(/\/report\/[0-9a-f-]{36}\?key=[A-Za-z0-9_-]{32}$/u, { timeout: 60_000 });
      await page.waitForLoadState('load');
      const reportUrl = new URL(page.url());
      state.reportUrl = reportUrl.href;
      state.auditId = reportUrl.pathname.split('/')[2];
      expect(await page.locator('#audit-failed').count()).toBe(0);

      // The report is the first thing in the page, with the two charts as accessible inline SVG.
      const report = page.locator('section.report');
      expect(await report.count()).toBe(1);
      expect((await report.boundingBox())?.y ?? 9999, 'the report starts in the first screen').toBeLessThan(400);
      expect(await report.locator('h2').first().textContent()).toContain('Pipedrive');
      const charts = report.locator('svg[role="img"]');
      expect(await charts.count()).toBe(2);
      for (const chart of await charts.all()) {
        expect((await chart.locator('title').textContent())?.trim()).not.toBe('');
        expect((await chart.boundingBox())?.height ?? 0).toBeGreaterThan(20);
      }
      expect(await report.locator('form.report-map-form button').count()).toBe(1);
      // A reload reads the report again; nothing is posted.
      const reloaded = await page.reload();
      expect(reloaded?.request().method()).toBe('GET');
      expect(await page.locator('section.report').count()).toBe(1);

      expect(await seriousViolations(page), 'axe on the report after the audit').toEqual([]);
      expect(watch.take()).toEqual([]);
    } finally {
      simulator.setLatency(0);
      await close();
    }
  }, 150_000);

  it.each([
    { label: 'phone', viewport: { width: 390, height: 844 } },
    { label: 'desktop', viewport: { width: 1280, height: 800 } },
  ])('lays the home forms and the report out at $viewport.width px: forms in the first screen, nothing wider than its box, chart values in view', async ({ viewport }) => {
    const { page, watch, close } = await open({ viewport });
    await page.goto(`${baseUrl}/`);
    const checkForm = await page.locator('form[action="/check"]').boundingBox();
    expect(checkForm?.y ?? 9999, 'the quick-check form starts in the first screen').toBeLessThan(viewport.height - 100);
    const auditForm = await page.locator('form[action="/audit"]').boundingBox();
    if (viewport.width >= 1000) expect(auditForm?.y ?? 9999, 'the audit form starts in the first screen').toBeLessThan(viewport.height - 100);

    await page.goto(needs('reportUrl'));
    // Every element inside the report fits its container (or sits in a box that scrolls on purpose).
    const overflows = await page.evaluate(() => {
      type Box = { left: number; right: number; width: number };
      type El = { tagName: string; className: unknown; id: string; parentElement: El | null; getBoundingClientRect(): Box; scrollWidth: number; clientWidth: number };
      const doc = (globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<El> }; getComputedStyle(element: El): { overflowX: string; position: string; clip: string; clipPath: string } }).document;
      const style = (element: El) => (globalThis as unknown as { getComputedStyle(element: El): { overflowX: string; position: string; clipPath: string } }).getComputedStyle(element);
      const name = (element: El) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${String(element.className).split(' ')[0]}`;
      const problems: string[] = [];
      for (const element of Array.from(doc.querySelectorAll('main *'))) {
        const own = style(element);
        if (own.position === 'absolute' || own.clipPath !== 'none') continue;
        let parent = element.parentElement;
        while (parent !== null && style(parent).overflowX === 'visible' && parent.getBoundingClientRect().width === 0) parent = parent.parentElement;
        if (parent === null) continue;
        if (['auto', 'scroll', 'hidden'].includes(style(parent).overflowX)) continue;
        const box = element.getBoundingClientRect();
        const limit = parent.getBoundingClientRect();
        if (box.width > 0 && (box.right > limit.right + 1 || box.left < limit.left - 1)) problems.push(`${name(element)} (${Math.round(box.left)}–${Math.round(box.right)}) outside ${name(parent)} (${Math.round(limit.left)}–${Math.round(limit.right)})`);
      }
      // A box that scrolls must really need to only when it says so: no scroll container wider than the page.
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      if (root.scrollWidth > root.clientWidth) problems.push(`the page scrolls sideways by ${root.scrollWidth - root.clientWidth}px`);
      return problems.slice(0, 10);
    });
    expect(overflows).toEqual([]);

    // Every value drawn in the charts lies inside its SVG's visible box.
    const hidden = await page.evaluate(() => {
      type Box = { left: number; right: number; top: number; bottom: number; width: number };
      type El = { textContent: string | null; getBoundingClientRect(): Box; closest(selector: string): El | null };
      const doc = (globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<El> } }).document;
      const problems: string[] = [];
      for (const text of Array.from(doc.querySelectorAll('svg.report-chart-svg text.report-chart-value, svg.report-chart-svg text.report-chart-tick'))) {
        const scroller = text.closest('.report-chart-scroll');
        const svg = text.closest('svg');
        if (scroller === null || svg === null) continue;
        const box = text.getBoundingClientRect();
        const view = scroller.getBoundingClientRect();
        if (box.width === 0 || box.right > view.right + 1 || box.left < view.left - 1) problems.push(`"${text.textContent}" at ${Math.round(box.left)}–${Math.round(box.right)} outside ${Math.round(view.left)}–${Math.round(view.right)}`);
      }
      return problems;
    });
    expect(hidden).toEqual([]);
    expect(await page.locator('svg.report-chart-svg text.report-chart-value').count()).toBeGreaterThan(2);
    await screenshot(page, `report-${viewport.width}`);
    expect(watch.take()).toEqual([]);
    await close();
  }, 60_000);

  it('starts the buyer-question map from the report page and shows the grid once it is measured', async () => {
    const reportUrl = needs('reportUrl');
    const { page, watch, close } = await open();
    await page.goto(reportUrl);
    expect(await page.locator('h1').textContent()).toBe('Report: Pipedrive');
    expect(await page.locator('table.report-grid').count()).toBe(0);

    // The report is served with Referrer-Policy: no-referrer, so Chromium posts this form with
    // "Origin: null": the same-origin check must still let it through (Sec-Fetch-Site: same-origin).
    const redirected = afterPost(page, /^\/report\/[0-9a-f-]{36}$/);
    await page.click('form.report-map-form button[type="submit"]');
    const landing = await redirected;
    expect(landing.status()).toBe(200);
    expect(landing.url()).toBe(reportUrl);
    await page.waitForLoadState('load');
    if ((await page.locator('table.report-grid').count()) === 0) {
      // Still running: the page says so and refreshes itself every 5 seconds.
      expect(await landing.headerValue('refresh')).toBe('5');
      expect(await page.locator('main .notice[role="status"]').first().textContent()).toContain('refreshes');
    }

    // Reload (sooner than the page's own refresh) until the grid is there.
    const deadline = Date.now() + 30_000;
    while ((await page.locator('table.report-grid').count()) === 0) {
      if (Date.now() > deadline) throw new Error(`no grid after 30 s; the page says: ${(await page.locator('main').textContent())?.slice(0, 600)}`);
      await page.waitForTimeout(1_000);
      await page.goto(reportUrl);
    }
    const grid = page.locator('table.report-grid');
    expect(await grid.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await grid.locator('thead th[scope="col"]').count()).toBeGreaterThan(1);
    expect(await page.locator('form.report-map-form').count()).toBe(0);
    expect(watch.take()).toEqual([]);
    await close();
  }, 90_000);

  it('signs the owner in by the mailed link, and renders the share page and the badge landing of minted tokens', async () => {
    const auditId = needs('auditId');
    const owner = await browser.newContext({ colorScheme: 'light' });
    state.owner = owner;
    const { page, watch, close } = await open({ context: owner });

    await page.goto(`${baseUrl}/account`);
    await page.fill('#email', OWNER);
    const sent = afterPost(page, /^\/account$/);
    await page.click('form[action="/auth/sign-in"] button[type="submit"]');
    expect((await sent).url()).toBe(`${baseUrl}/account?sent=1`);
    // the response is in, the page may still be loading: going on at once aborts it (ERR_ABORTED)
    await page.waitForURL(`${baseUrl}/account?sent=1`, { waitUntil: 'load' });
    const link = await latestSignInLink(running.dataDir);
    expect(link.startsWith(`${baseUrl}/auth/callback?token=`)).toBe(true);
    await page.goto(link);
    expect(page.url()).toBe(`${baseUrl}/account`);
    expect(await page.locator('h1').textContent()).toBe('Your account');
    expect(await page.locator('main table').textContent()).toContain('Pipedrive');

    // The account page's own form mints a badge and shows its embed code once.
    const minted = page.waitForResponse((response) => response.request().method() === 'POST' && response.url() === `${baseUrl}/account/audits/${auditId}/badge`);
    await page.getByRole('button', { name: 'Badge for Pipedrive' }).click();
    expect((await minted).status()).toBe(200);
    await page.waitForLoadState('load');
    expect(await page.locator('h1').textContent()).toBe('Badge for Pipedrive');
    expect(await page.locator('textarea#embed').inputValue()).toMatch(/^<a href="http:\/\/127\.0\.0\.1:\d+\/badge\/vb_[\w-]+"><img src=/);
    expect(await page.locator('main img').evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);

    // Tokens minted through the JSON API with the browser's session cookie.
    const headers = { origin: baseUrl };
    const badge = await owner.request.post(`${baseUrl}/api/audit/${auditId}/badge-token`, { headers });
    expect(badge.status()).toBe(201);
    const badgeBody = (await badge.json()) as { token: string; landingUrl: string };
    const share = await owner.request.post(`${baseUrl}/api/audit/${auditId}/share-link`, { headers });
    expect(share.status()).toBe(201);
    const shareBody = (await share.json()) as { url: string };
    state.badgeToken = badgeBody.token;
    state.badgeUrl = badgeBody.landingUrl;
    state.shareUrl = shareBody.url;
    expect(state.badgeUrl).toBe(`${baseUrl}/badge/${badgeBody.token}`);
    expect(state.shareUrl.startsWith(`${baseUrl}/share/`)).toBe(true);

    // The share page: the read-only report, anyone with the link, no cookie needed.
    const visitor = await open();
    await visitor.page.goto(state.shareUrl);
    expect(await visitor.page.locator('h1').textContent()).toBe('AI visibility report: Pipedrive');
    expect(await visitor.page.locator('section.report svg[role="img"]').count()).toBe(2);
    expect(await visitor.page.locator('table.report-grid').count()).toBe(1);
    expect(await visitor.page.locator('form').count()).toBe(0);

    // The badge landing: the brand, and the badge image of the same token, loaded.
    await visitor.page.goto(state.badgeUrl);
    // A demo run: the page's title says what the badge says, "demo, not measured".
    expect(await visitor.page.locator('h1').textContent()).toBe('Pipedrive: AI visibility demo, not measured');
    expect(await visitor.page.locator('dl.facts').textContent()).toContain('Pipedrive');
    const image = visitor.page.locator(`main img[src="${baseUrl}/api/badge/${badgeBody.token}"]`);
    expect(await image.count()).toBe(1);
    expect(await image.getAttribute('width')).toBe('250');
    expect(await image.getAttribute('height')).toBe('40');
    expect(await image.evaluate((element) => (element as unknown as { complete: boolean; naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    expect(watch.take()).toEqual([]);
    expect(visitor.watch.take()).toEqual([]);
    await visitor.close();
    await close();
  }, 60_000);

  it('shows no console errors, failed requests or serious axe violations on any page, light and dark, and on a phone (and keeps screenshots)', async () => {
    const sitemap = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
    const publicPages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? '');
    const paths = publicPages.map((url) => new URL(url).pathname);
    for (const required of ['/', '/pricing', '/methodology', '/developers', '/compare', '/blog', '/changelog', '/about', '/contact']) {
      expect(paths, `the sitemap lists ${required}`).toContain(required);
    }
    expect(paths.some((path) => path.startsWith('/compare/'))).toBe(true);
    expect(paths.some((path) => path.startsWith('/blog/'))).toBe(true);
    for (const url of publicPages) expect(url.startsWith(baseUrl), url).toBe(true);

    interface Visit {
      label: string;
      url: string;
      /** Full-page screenshots to keep: in light, in dark. */
      shots?: { light?: string; dark?: string };
      /** At a phone's width the page must not scroll sideways. */
      phone?: boolean;
    }
    const failures: string[] = [];
    /** Loads the page, runs axe in light (every rule) and dark (the colour rules), and collects what went wrong. */
    const scan = async (page: Page, watch: PageWatch, visit: Visit) => {
      const response = await page.goto(visit.url);
      if (response?.status() !== 200) failures.push(`${visit.label}: HTTP ${response?.status()}`);
      for (const line of await seriousViolations(page)) failures.push(`${visit.label} (light): ${line}`);
      if (visit.phone) {
        const overflow = await page.evaluate(() => {
          const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
          return root.scrollWidth - root.clientWidth;
        });
        if (overflow > 0) failures.push(`${visit.label}: the page scrolls sideways by ${overflow}px`);
      }
      if (visit.shots?.light) await screenshot(page, visit.shots.light);
      await page.emulateMedia({ colorScheme: 'dark' });
      for (const line of await seriousViolations(page, ['color-contrast', 'link-in-text-block'])) failures.push(`${visit.label} (dark): ${line}`);
      if (visit.shots?.dark) await screenshot(page, visit.shots.dark);
      await page.emulateMedia({ colorScheme: 'light' });
      for (const problem of watch.take()) failures.push(`${visit.label}: ${problem}`);
    };
    /** Two pages at a time (one per core of a small CI machine); each worker keeps its own page. */
    const scanAll = async (visits: Visit[], options: { viewport?: { width: number; height: number }; context?: BrowserContext } = {}, workers = 2) => {
      const queue = [...visits];
      await Promise.all(
        Array.from({ length: Math.min(workers, queue.length) }, async () => {
          const { page, watch, close } = await open(options);
          for (let visit = queue.shift(); visit !== undefined; visit = queue.shift()) await scan(page, watch, visit);
          await close();
        }),
      );
    };

    await scanAll([
      ...publicPages.map((url): Visit => {
        const path = new URL(url).pathname;
        return { label: path, url, ...(path === '/' ? { shots: { light: 'home' } } : {}) };
      }),
      { label: 'report (private link)', url: needs('reportUrl'), shots: { light: 'report-light', dark: 'report-dark' } },
      { label: 'share page', url: needs('shareUrl'), shots: { light: 'share' } },
      { label: 'badge landing', url: needs('badgeUrl'), shots: { light: 'badge-landing' } },
      { label: 'account (signed out)', url: `${baseUrl}/account` },
    ]);
    await scanAll([{ label: 'account (signed in)', url: `${baseUrl}/account` }], { context: needs('owner') });
    await scanAll(
      [
        { label: 'home (375px)', url: `${baseUrl}/`, phone: true },
        { label: 'report (375px)', url: needs('reportUrl'), phone: true, shots: { light: 'report-mobile' } },
        { label: 'badge landing (375px)', url: needs('badgeUrl'), phone: true },
      ],
      { viewport: MOBILE },
    );

    expect(failures, `\n${failures.join('\n')}\n`).toEqual([]);
    for (const name of ['home', 'report-light', 'report-dark', 'report-mobile', 'share', 'badge-landing']) {
      expect(existsSync(join(SCREENSHOT_DIR, `${name}.png`)), `screenshot ${name}`).toBe(true);
    }
    // Every public page twice through axe (light, then dark): 21-38 s on a quiet 2-core machine, more than
    // 80 s in CI while the extractor's refit test held the other core. The limit only stops a hung browser.
  }, 240_000);
});
