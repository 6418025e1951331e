import type { Logger } from 'pino';
import { startServer } from '../api/server';
import { ChromiumPrinter } from '../integrations/chromium/printer';
import { mailerFor } from '../integrations/mail/mailer';
import { jwtVerifierFor } from '../integrations/identity/jwt-verifier';
import { measureCompiledCalendars } from '../integrations/metrics/calendars';
import { compiledCalendarCacheFor } from '../services/calendars/compiled-calendars';
import { accessNodeTimingOf, createListeningAccessCache } from './access-cache-listener';
import { bootstrapAccess } from './bootstrap';
import { startMetricsServer } from './metrics-server';
import type { Runtime } from './runtime';
import { startTracing } from '../integrations/tracing/tracing';
import type { Settings } from '../domain/settings';

/** The API of one node, as `npm run start:api` and `npm start` both run it. */
export async function startApiNode(settings: Settings, runtime: Runtime, logger: Logger) {
  // Before the app is built: it mounts the request span middleware only when tracing is on.
  const tracing = startTracing({ serviceName: settings['otel.service-name'] ?? 'platform-api', endpoint: settings['otel.exporter-otlp-endpoint'] });
  await bootstrapAccess(runtime.database.db, settings);
  const access = await createListeningAccessCache(runtime.database.sql, settings['access.cache-ttl-ms'], logger, accessNodeTimingOf(settings));
  // One browser per node, launched on the first submission PDF, closed at shutdown.
  const pdfPrinter = new ChromiumPrinter({ executablePath: settings['render.chromium-path'], timeoutMs: settings['render.timeout-ms'] });
  // One compiled-calendar cache per node, its size on /metrics.
  const compiledCalendars = compiledCalendarCacheFor(settings);
  if (compiledCalendars) measureCompiledCalendars('api', () => compiledCalendars.footprint());
  const server = await startServer(
    {
      db: runtime.database.db,
      settings,
      logger,
      s3: runtime.s3,
      mailer: mailerFor(settings),
      readiness: runtime.readiness,
      accessCache: access.cache,
      pdfPrinter,
      compiledCalendars,
      // auth.mode=jwt: one key set cache per node (docs/identity.md).
      jwtVerifier: jwtVerifierFor(settings),
    },
    settings.port,
  );
  const metrics = await startMetricsServer(settings, { database: runtime.database }, logger);
  return {
    port: server.port,
    /** This process's metrics listener; undefined when metrics.port is 0. */
    metrics,
    async stop() {
      await server.close();
      await pdfPrinter.close();
      await access.stop();
      await metrics?.close();
      await tracing?.flush();
    },
  };
}
