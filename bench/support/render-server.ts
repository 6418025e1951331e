// The API server of bench/forms-render in its own process (its RSS and its Chromium's are its
// own): configured through the environment like any node, with the node's one ChromiumPrinter,
// closed when the parent disconnects. Tells the parent its port over IPC.
import pino from 'pino';
import { startServer } from '../../api/server';
import { createDatabase } from '../../db/client';
import { ChromiumPrinter } from '../../integrations/chromium/printer';
import { mailerFor } from '../../integrations/mail/mailer';
import { loadSettings } from '../../workers/config';
import { childS3Client } from './child-s3';

const settings = loadSettings();
const database = createDatabase(settings['database.url']!, { max: settings['database.pool-size'] });
const s3 = childS3Client(settings);
const pdfPrinter = new ChromiumPrinter({ executablePath: settings['render.chromium-path'], timeoutMs: settings['render.timeout-ms'] });
const server = await startServer({ db: database.db, settings, logger: pino({ level: 'silent' }), s3, mailer: mailerFor(settings), readiness: {}, pdfPrinter }, 0, '127.0.0.1');
process.on('disconnect', async () => {
  await server.close();
  await pdfPrinter.close();
  s3.destroy();
  await database.close();
  process.exit(0);
});
process.send?.({ port: server.port });
