// Helpers of the site's browser tests (browser.test.ts): a headless Chromium through playwright-core,
// a page watcher that collects console errors and failed requests, an axe-core scan, the sign-in
// link from the mail outbox, and full-page screenshots kept as test artifacts.

import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser } from 'mailparser';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium; CI installs it. Without it the browser tests skip with a message. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM_PATH);

export const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-artifacts', 'screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/** A free TCP port on 127.0.0.1 (listen on 0, close, reuse the number), so BASE_URL can name the real origin. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** What went wrong on a page: console errors (CSP violations among them), uncaught errors, failed requests. */
export interface PageWatch {
  /** Problems seen since the last take(); take() empties the list. */
  take(): string[];
}

export function watchPage(page: Page): PageWatch {
  let problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? 'unknown'})`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} for ${response.request().method()} ${response.url()}`);
  });
  return {
    take() {
      const taken = problems;
      problems = [];
      return taken;
    },
  };
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/**
 * Runs axe-core on the page (injected through CDP, so the page's CSP does not apply to it) and
 * returns its serious and critical violations as readable lines; `only` limits the rules run.
 */
export async function seriousViolations(page: Page, only?: string[]): Promise<string[]> {
  const injected = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe !== 'undefined');
  if (!injected) await page.evaluate(AXE_SOURCE);
  const violations: AxeViolation[] = await page.evaluate(
    (rules) =>
      (globalThis as unknown as { axe: { run(options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe
        .run({
          resultTypes: ['violations'],
          // No timers, no frames (the site has none), no stylesheet preloading: faster, same findings for these pages.
          performanceTimer: false,
          iframes: false,
          preload: false,
          ancestry: false,
          xpath: false,
          ...(rules === null ? {} : { runOnly: { type: 'rule', values: rules } }),
        })
        .then((results) => results.violations),
    only ?? null,
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n` +
        violation.nodes
          .slice(0, 8)
          .map((node) => `    ${JSON.stringify(node.target)} ${(node.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300)}`)
          .join('\n'),
    );
}

/** The newest sign-in link mailed to the outbox of DATA_DIR (the audit's result mail is skipped). */
export async function latestSignInLink(dataDir: string): Promise<string> {
  const folder = join(dataDir, 'outbox');
  const files = existsSync(folder) ? readdirSync(folder).sort().reverse() : [];
  for (const file of files) {
    const mail = await simpleParser(readFileSync(join(folder, file)));
    const link = /(https?:\/\/[^\s]+\/auth\/callback\?token=[A-Za-z0-9_%-]+)/.exec(mail.text ?? '')?.[1];
    if (link !== undefined) return link;
  }
  throw new Error(`no sign-in link in the outbox (${files.length} mails)`);
}

/** A full-page screenshot into test-artifacts/screenshots/<name>.png at the repository root. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
