// The watch page in headless Chromium: on a phone and a desktop it fits its width (charts scale with their
// box, the runs table scrolls in its own box), loads without console errors or failed requests (the site's
// CSP forbids scripts and inline styles), and has no serious accessibility violations (axe-core).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createSessionToken, SESSION_COOKIE } from '../auth/session.js';
import { startTestService, type TestService } from '../test-support/service.js';
import { freePort, HAS_CHROMIUM, launchBrowser, screenshot, seriousViolations, watchPage } from './test-support/browser.js';

const SECRET = 'watch-browser-test-secret-0123456789abcdef';
const OWNER = 'owner@pipedrive.example';

describe.skipIf(!HAS_CHROMIUM)('the watch page in Chromium', () => {
  let browser: Browser;
  let running: TestService;
  let baseUrl: string;
  let watchId: string;

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    running = await startTestService({ PORT: String(port), BASE_URL: baseUrl, SESSION_SECRET: SECRET }, undefined, { watchScheduler: false });
    const created = await fetch(`${baseUrl}/api/watches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${createSessionToken(OWNER, SECRET)}` },
      body: JSON.stringify({ brand: 'Pipedrive', category: 'CRM software', schedule: 'daily', samples: 2 }),
    });
    watchId = ((await created.json()) as { id: string }).id;
    const tracker = running.service.watchTracker;
    for (let day = 0; day < 4; day++) {
      if (day === 3) running.service.simulator?.setBrandRate('Pipedrive', 0);
      await tracker.tick(new Date(Date.now() + day * 86_400_000 + 1_000));
      await tracker.idle();
    }
    running.service.simulator?.setBrandRate('Pipedrive', undefined);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });

  it.each([
    { label: 'phone', viewport: { width: 390, height: 844 } },
    { label: 'desktop', viewport: { width: 1280, height: 800 } },
  ])('fits $viewport.width px, with no console errors and no serious axe violations', async ({ label, viewport }) => {
    const context = await browser.newContext({ viewport });
    await context.addCookies([{ name: SESSION_COOKIE, value: createSessionToken(OWNER, SECRET), url: baseUrl }]);
    const page = await context.newPage();
    const watch = watchPage(page);
    try {
      const response = await page.goto(`${baseUrl}/watches/${watchId}`);
      expect(response?.status()).toBe(200);
      expect(await page.locator('svg.report-chart-svg').count()).toBe(4); // all providers, and each of three
      expect(await page.locator('main li', { hasText: 'dropped out' }).count()).toBeGreaterThan(0);
      const sideways = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      expect(sideways, 'the page scrolls sideways').toBeLessThanOrEqual(0);
      const chartWidth = await page.locator('svg.report-chart-svg').first().evaluate((svg) => (svg as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width);
      expect(chartWidth).toBeLessThanOrEqual(viewport.width);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `watch-${label}`);
      expect(watch.take()).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
