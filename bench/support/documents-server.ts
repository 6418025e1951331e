// The API server of bench/documents in its own process, so its resident memory is measured in
// isolation. Configured like any node through the environment (DATABASE_URL, S3_ENDPOINT, ...);
// tells the parent its port over IPC and runs a full GC when asked (for the idle baseline).
import pino from 'pino';
import { startServer } from '../../api/server';
import { createDatabase } from '../../db/client';
import { mailerFor } from '../../integrations/mail/mailer';
import { loadSettings } from '../../workers/config';
import { childS3Client } from './child-s3';

const settings = loadSettings();
const database = createDatabase(settings['database.url']!, { max: settings['database.pool-size'] });
const s3 = childS3Client(settings);
const server = await startServer(
  { db: database.db, settings, logger: pino({ level: 'silent' }), s3, mailer: mailerFor(settings), readiness: {} },
  0,
  '127.0.0.1',
);
process.on('message', (m: unknown) => {
  if (m === 'gc') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ gc: true });
  }
});
process.on('disconnect', async () => {
  await server.close();
  s3.destroy();
  await database.close();
  process.exit(0);
});
process.send?.({ port: server.port });
