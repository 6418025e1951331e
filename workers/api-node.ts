import type { Logger } from 'pino';
import { startServer } from '../api/server';
import { ChromiumPrinter } from '../integrations/chromium/printer';
import { createListeningAccessCache } from './access-cache-listener';
import { bootstrapAccess } from './bootstrap';
import type { Runtime } from './runtime';
import type { Settings } from '../domain/settings';

/** The API of one node, as `npm run start:api` and `npm start` both run it. */
export async function startApiNode(settings: Settings, runtime: Runtime, logger: Logger) {
  await bootstrapAccess(runtime.database.db, settings);
  const access = await createListeningAccessCache(runtime.database.sql, settings['access.cache-ttl-ms'], logger);
  // One browser per node, launched on the first submission PDF, closed at shutdown.
  const pdfPrinter = new ChromiumPrinter({ executablePath: settings['render.chromium-path'], timeoutMs: settings['render.timeout-ms'] });
  const server = await startServer(
    {
      db: runtime.database.db,
      settings,
      logger,
      s3: runtime.s3,
      readiness: runtime.readiness,
      accessCache: access.cache,
      pdfPrinter,
    },
    settings.port,
  );
  return {
    port: server.port,
    async stop() {
      await server.close();
      await pdfPrinter.close();
      await access.stop();
    },
  };
}
