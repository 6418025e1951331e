import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import type { AppDeps } from './deps';

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

/** The only serve() of the code base. Resolves once the port is bound. */
export function startServer(deps: AppDeps, port: number, hostname = '0.0.0.0'): Promise<RunningServer> {
  const app = createApp(deps);
  return new Promise((resolve, reject) => {
    let server: ServerType;
    try {
      server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
        resolve({
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done());
              // Idle keep-alive sockets would hold close() open.
              (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
            }),
        });
      });
      server.once('error', reject);
    } catch (err) {
      reject(err);
    }
  });
}
