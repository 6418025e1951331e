// The console shell's browser world: the real app served over HTTP, one Chromium per test file, a
// browser context per person whose X-User-Id (and X-User-Name) headers play the gateway; actions
// waited on by their answer (the main region replaced), never by time; axe at both sizes; and the
// screenshots docs/console.md shows, written when CONSOLE_SCREENSHOTS=1.
import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startServer, type RunningServer } from '../../api/server';
import type { TestContext } from './app';
import { launchChromium } from './browser';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

const SHOTS = fileURLToPath(new URL('../../docs/console/', import.meta.url));

export interface Person {
  context: BrowserContext;
  page: Page;
  /** Opens a console path; answers the status of the last response (after redirects). */
  open(path: string): Promise<number>;
}

/** Registers the server and the browser of one test file (after useTestApp, so its deps exist). */
export function useConsoleWorld(ctx: TestContext) {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer(ctx.deps, 0, '127.0.0.1');
    browser = await launchChromium(ctx.settings);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const base = () => `http://127.0.0.1:${server.port}`;

  /** A person's own browser context: the gateway's identity headers on every request. */
  async function person(user: string, opts: { name?: string; email?: string; viewport?: { width: number; height: number } } = {}): Promise<Person> {
    const headers: Record<string, string> = { 'X-User-Id': user };
    if (opts.name) headers['X-User-Name'] = opts.name;
    if (opts.email) headers['X-User-Email'] = opts.email;
    const context = await browser.newContext({ extraHTTPHeaders: headers, viewport: opts.viewport ?? DESKTOP });
    const page = await context.newPage();
    return {
      context,
      page,
      open: async (path) => (await page.goto(`${base()}${path}`))!.status(),
    };
  }

  return { base, person, browser: () => browser };
}

/**
 * Clicks a console action and waits for its answer: htmx replaces the main region (marked stale
 * first, so the new one is told apart) or the page navigates. Answers the POST's status.
 */
export async function act(page: Page, button: Locator): Promise<number> {
  await page.locator('#main').evaluate((main) => main.setAttribute('data-stale', ''));
  const [res] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), button.click()]);
  await page.locator('#main:not([data-stale])').waitFor();
  return res.status();
}

/** The text of the notice inside `scope` (a row, a form, the main region). */
export async function noticeIn(scope: Locator): Promise<string> {
  const notice = scope.locator('.notice').first();
  await notice.waitFor();
  return (await notice.innerText()).trim();
}

/** The sub-navigation's labels, in order. */
export const accessTabs = (page: Page) => page.getByRole('navigation', { name: 'Access' }).getByRole('link').allInnerTexts();

/** No serious or critical axe violation on the page as it is now. */
export async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
}

/** docs/console/<name>.png of the page as it is, when CONSOLE_SCREENSHOTS=1 (the docs' pictures). */
export async function screenshot(page: Page, name: string) {
  if (process.env['CONSOLE_SCREENSHOTS'] !== '1') return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
}
