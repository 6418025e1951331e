// A dispatcher in its own process, so a test can SIGKILL it mid-batch. Reads DATABASE_URL and
// TEMPORAL_ADDRESS like any worker node; prints one line per workflow it started and per signal
// it sent. After a signal it holds its batch open (PROBE_SIGNAL_HOLD_MS) so it can be killed
// between delivery and commit.
import { Client, Connection } from '@temporalio/client';
import pino from 'pino';
import { createDatabase } from '../../db/client';
import { OutboxDispatcher, temporalSignaller, temporalStarter } from '../../workers/dispatcher';
import { loadSettings } from '../../workers/config';

const settings = loadSettings();
const database = createDatabase(settings['database.url']!, { max: 4 });
const connection = await Connection.connect({ address: settings['temporal.address']! });
const client = new Client({ connection });
const start = temporalStarter(client, settings['temporal.task-queue']);
const signaller = temporalSignaller(client, settings['temporal.task-queue']);
const holdMs = Number(process.env.PROBE_SIGNAL_HOLD_MS ?? 0);
const dispatcher = new OutboxDispatcher({
  database,
  logger: pino({ level: 'silent' }),
  startWorkflow: async (row) => {
    // Slow starts keep a batch open long enough to be killed in the middle of it.
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 400));
    const runId = await start(row);
    process.stdout.write(`started ${row.businessKey}\n`);
    return runId;
  },
  signals: {
    async signal(row) {
      const sent = await signaller.signal(row);
      process.stdout.write(`signalled ${row.id}\n`);
      await new Promise((r) => setTimeout(r, holdMs));
      return sent;
    },
    signalWithStart: (row) => signaller.signalWithStart(row),
  },
  capabilities: ['PROBE'],
  pollMs: 100,
  batchSize: 50,
  maxAttempts: 5,
  backoffMs: 100,
});
await dispatcher.start();
process.stdout.write('ready\n');
