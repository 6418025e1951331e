// The console's record pages in Chromium: the real app served over HTTP, one browser per test
// file, a browser context per user whose `X-User-Id` header plays the gateway, axe at the two
// sizes the console supports, and documents stored through the platform's own storeDocument (as
// the intake and the ceremony store theirs).
import { AxeBuilder } from '@axe-core/playwright';
import { Readable } from 'node:stream';
import pino from 'pino';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startServer, type RunningServer } from '../../api/server';
import type { DocumentCapability, DocumentKind } from '../../domain/documents/document-fields';
import { createObjectStore } from '../../integrations/docstore/object-store';
import { createScanner } from '../../integrations/docstore/scanner';
import { DocumentRegistry } from '../../services/documents/document-registry';
import { storeDocument } from '../../services/documents/store-document';
import { UploadSlots } from '../../services/documents/upload-slots';
import type { TestContext } from './app';
import { launchChromium } from './browser';
import { screenshot } from './console';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  status: number;
}

/** Registers the server and the browser of one test file (after useTestApp, so its deps exist). */
export function useConsoleBrowser(ctx: TestContext) {
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

  /** `user`'s browser (the gateway's header on every request) at `path`. */
  async function open(user: string, path: string, viewport = DESKTOP, options: BrowserContextOptions = {}): Promise<ConsolePage> {
    const context = await browser.newContext({ extraHTTPHeaders: { 'X-User-Id': user }, viewport, acceptDownloads: true, ...options });
    const page = await context.newPage();
    const res = await page.goto(`${base()}${path}`);
    return { page, context, status: res!.status() };
  }

  /** A GET with `user`'s identity outside the page (a download's bytes and headers). */
  async function fetchAs(user: string, path: string) {
    const res = await fetch(`${base()}${path}`, { headers: { 'X-User-Id': user } });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  }

  return { base, open, fetchAs };
}

/** No serious or critical axe violation on the page as it is now. */
export async function expectAccessible(page: Page) {
  // Only violations are read: axe skips collecting every passing node, which is most of its work.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
}

/** The two sizes the console supports, for `it.each`: one axe run per test. */
export const SIZES = [
  ['1280×800', DESKTOP],
  ['390×844', PHONE],
] as const;

/**
 * Opens `path` as `user` at `viewport` and runs axe on it; with `shot`, the page is also the docs'
 * picture docs/console/<shot>[-phone].png (written when CONSOLE_SCREENSHOTS=1).
 */
export async function expectAccessibleAt(
  open: ReturnType<typeof useConsoleBrowser>['open'],
  user: string,
  path: string,
  viewport: { width: number; height: number },
  shot?: string,
) {
  const { page, status, context } = await open(user, path, viewport);
  expect(status).toBe(200);
  await page.locator('h1').waitFor();
  await expectAccessible(page);
  if (shot) await screenshot(page, viewport === PHONE ? `${shot}-phone` : shot);
  await context.close();
}

/** A READY document stored as the capability's workflow stores one (the intake's PDF, an attachment). */
export async function storeWorkflowDocument(
  ctx: TestContext,
  p: { tenantId: string; capability: DocumentCapability; kind: DocumentKind; processRef: string; ownerEntityId?: string; filename: string; contentType: string; bytes: Buffer },
) {
  const logger = pino({ level: 'silent' });
  const deps = {
    registry: new DocumentRegistry({ db: ctx.db.db, settings: ctx.settings, logger }),
    store: createObjectStore(ctx.settings, ctx.deps.s3)!,
    scanner: createScanner(ctx.settings),
    uploadSlots: new UploadSlots(2),
    maxBytes: ctx.settings['docstore.max-bytes'],
    now: () => new Date(),
    log: logger,
  };
  const caller = { kind: 'workflow' as const, tenantId: p.tenantId, capability: p.capability, workflowId: `console-seed-${p.processRef}` };
  const view = await storeDocument(deps, caller, {
    processRef: p.processRef,
    kind: p.kind,
    capability: p.capability,
    taskId: null,
    ownerEntityId: p.ownerEntityId ?? null,
    filename: p.filename,
    contentType: p.contentType,
    body: Readable.from([p.bytes]),
  });
  expect(view.status).toBe('READY');
  return view;
}

/** The text of the cells of a table row that contains `text`. */
export async function rowCells(page: Page, text: string): Promise<string[]> {
  const row = page.locator('tbody tr', { hasText: text }).first();
  await row.waitFor();
  return (await row.locator('td').allInnerTexts()).map((t) => t.trim());
}
