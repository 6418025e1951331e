// Chromium for end-to-end tests, launched as the project launches it (Debian's chromium through
// playwright-core, never a downloaded browser), and static host pages on a port of their own.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import type { Settings } from '../../domain/settings';
import { CHROMIUM_ARGS } from '../../integrations/chromium/printer';

export function launchChromium(settings: Settings): Promise<Browser> {
  return chromium.launch({ executablePath: settings['render.chromium-path'], args: CHROMIUM_ARGS });
}

export interface HostPage {
  port: number;
  /** The page served from now on (its content may depend on the port). */
  set(html: string): void;
  close(): Promise<void>;
}

/** Serves one page at every path on 127.0.0.1 (opened as http://localhost:<port>, its origin has that name). */
export function serveHostPage(): Promise<HostPage> {
  let html = '';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        set: (page) => void (html = page),
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
