import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFreePort } from '../../../workers/embedded/child-process';
import { Supervisor } from '../../../workers/supervisor';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { servers } from '../../support/servers';

const entry = (file: string) => fileURLToPath(new URL(`../../../workers/${file}`, import.meta.url));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in time`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('npm start supervision', () => {
  let db: TestDatabase;
  let supervisor: Supervisor;
  let live: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const port = await getFreePort();
    live = `http://127.0.0.1:${port}/health/live`;
    const { temporalAddress, s3 } = servers();
    supervisor = new Supervisor({
      // The real entry points of the API and the dispatcher against the suite's servers.
      roles: [
        { name: 'api', entry: entry('api.ts') },
        { name: 'dispatcher', entry: entry('dispatcher-node.ts') },
      ],
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        TEMPORAL_ADDRESS: temporalAddress,
        S3_ENDPOINT: s3.endpoint,
        S3_REGION: s3.region,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_BUCKET: `supervised-${randomUUID().slice(0, 8)}`,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        METRICS_PORT: '0',
      },
      logger: pino({ level: 'silent' }),
      backoffMs: 100,
      maxBackoffMs: 2_000,
      stopTimeoutMs: 10_000,
    });
    supervisor.start();
  });
  afterAll(async () => {
    await supervisor?.stop();
    await db?.drop();
  });

  const answers = async () => ((await fetch(live)).status === 200 ? true : undefined);

  it('a killed API process is started again and answers, while the other roles keep running', async () => {
    await until('the API answers', answers);
    const api = supervisor.pid('api')!;
    const dispatcher = supervisor.pid('dispatcher')!;
    process.kill(api, 'SIGKILL');
    await until('the API is down', async () => (await fetch(live).then(() => undefined, () => true)));
    await until('a new API process', async () => (supervisor.pid('api') !== api ? true : undefined));
    await until('the API answers again', answers);
    expect(supervisor.pid('dispatcher')).toBe(dispatcher);
    expect(() => process.kill(dispatcher, 0)).not.toThrow();
  });

  it('stop ends every role and starts none again', async () => {
    const pids = [supervisor.pid('api')!, supervisor.pid('dispatcher')!];
    await supervisor.stop();
    for (const pid of pids) expect(() => process.kill(pid, 0), `pid ${pid}`).toThrow();
    await new Promise((r) => setTimeout(r, 500));
    expect(await fetch(live).then(() => 'answered', () => 'refused')).toBe('refused');
  });
});
