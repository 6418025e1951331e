// Headless Chromium as a PDF printer: one long-lived browser per API node, driven by
// playwright-core over Debian's `chromium` (setting `render.chromium-path`; playwright-core never
// downloads a browser). Launched on the first render, relaunched when it has crashed or exited,
// closed at shutdown. Every render gets a fresh context and page:
// - no network: every request the page makes is aborted (and the context is offline), so the
//   printed HTML can reach nothing outside itself;
// - JavaScript is on only for the document's own nonce'd inline script: the HTML carries a strict
//   Content-Security-Policy (`default-src 'none'`, `script-src 'nonce-…'`), so markup smuggled
//   into a value (already escaped by the print view) could not run either;
// - the document sets a ready flag (`<html data-ready="1">`) once its fonts are laid out; the
//   printer waits for it, then prints A4 with margins and backgrounds;
// - one deadline (`render.timeout-ms`) bounds the whole render; past it the context is closed.
// playwright-core is loaded with the first launch, not with the module: it is a third of a node's
// heap (35 of ~110 MiB on Node 24), which every full collection of a node that never prints
// would mark again (docs/documents.md "Benchmark").
import type { Browser } from 'playwright-core';
import { AppError } from '../../domain/errors';

export interface PdfPrinter {
  /** Prints `html` (a self-contained document that sets the ready flag) to A4 PDF bytes. */
  printPdf(html: string): Promise<Buffer>;
  close(): Promise<void>;
}

export interface ChromiumPrinterOptions {
  executablePath: string;
  timeoutMs: number;
}

/** The flag the print view's inline script sets once the document is ready to print. */
export const READY_SELECTOR = 'html[data-ready="1"]';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

export class ChromiumPrinter implements PdfPrinter {
  private browser: Promise<Browser> | undefined;
  private closed = false;

  constructor(private readonly options: ChromiumPrinterOptions) {}

  /** The running browser, launched (again) when there is none or it has disconnected. */
  private ensureBrowser(): Promise<Browser> {
    if (this.closed) return Promise.reject(new AppError('renderer-unavailable', 'The PDF renderer is shut down'));
    if (!this.browser) {
      const launching = import('playwright-core')
        .then(({ chromium }) => chromium.launch({
          executablePath: this.options.executablePath,
          args: CHROMIUM_ARGS,
          headless: true,
          // The process's own shutdown closes the browser (workers/api-node.ts).
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false,
          timeout: this.options.timeoutMs,
        }))
        .then((browser) => {
          browser.on('disconnected', () => {
            if (this.browser === launching) this.browser = undefined;
          });
          return browser;
        })
        .catch((err: Error) => {
          if (this.browser === launching) this.browser = undefined;
          throw new AppError('renderer-unavailable', `Chromium could not be started: ${firstLine(err.message)}`);
        });
      this.browser = launching;
    }
    return this.browser;
  }

  async printPdf(html: string): Promise<Buffer> {
    const browser = await this.ensureBrowser();
    let context: Awaited<ReturnType<Browser['newContext']>>;
    try {
      context = await browser.newContext({ javaScriptEnabled: true, offline: true, serviceWorkers: 'block', bypassCSP: false });
    } catch (err) {
      // A browser that died between renders: forget it so the next render relaunches.
      if (!browser.isConnected()) this.browser = undefined;
      throw new AppError('renderer-unavailable', `Chromium refused a new page: ${firstLine((err as Error).message)}`);
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AppError('render-timed-out', `The render took longer than ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
    });
    const render = async () => {
      await context.route('**', (route) => route.abort('blockedbyclient'));
      const page = await context.newPage();
      page.setDefaultTimeout(this.options.timeoutMs);
      await page.setContent(html, { waitUntil: 'load' });
      await page.waitForSelector(READY_SELECTOR, { state: 'attached' });
      await page.emulateMedia({ media: 'print' });
      return page.pdf({
        format: 'A4',
        printBackground: true,
        margin: { top: '18mm', right: '16mm', bottom: '18mm', left: '16mm' },
        preferCSSPageSize: false,
      });
    };
    const job = render();
    job.catch(() => {}); // past the deadline its rejection (the closed context) is nobody's answer
    try {
      return await Promise.race([job, deadline]);
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (!browser.isConnected()) {
        this.browser = undefined;
        throw new AppError('renderer-unavailable', 'Chromium exited during the render');
      }
      if ((err as Error).name === 'TimeoutError') throw new AppError('render-timed-out', `The render took longer than ${this.options.timeoutMs} ms`);
      throw err;
    } finally {
      clearTimeout(timer);
      await context.close().catch(() => {});
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = this.browser;
    this.browser = undefined;
    if (pending) await pending.then((b) => b.close()).catch(() => {});
  }
}

const firstLine = (message: string) => message.split('\n')[0]!.slice(0, 300);
