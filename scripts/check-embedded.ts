// End-to-end check of workers/embedded: starts PostgreSQL, the Temporal dev
// server and SeaweedFS in a temp dir, exercises them (including the S3 object
// lock semantics the documents capability relies on), restarts them to prove
// persistence, and proves that no server outlives its parent — after stop(),
// after Ctrl-C, and after the parent is SIGKILLed.
//
//   npx tsx scripts/check-embedded.ts            run every check, exit 1 on failure
//   npx tsx scripts/check-embedded.ts --serve D  (internal) start servers in D and wait
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeProcesses, serverProcesses, waitForGone } from './processes';
import postgres from 'postgres';
import { Client, Connection } from '@temporalio/client';
import { GetObjectCommand, GetObjectRetentionCommand } from '@aws-sdk/client-s3';
import {
  getFreePort,
  startEmbeddedPostgres,
  startSeaweed,
  startTemporalDevServer,
  type EmbeddedPostgres,
  type SeaweedServer,
  type TemporalDevServer,
} from '../workers/embedded/index.js';
import { ensureSearchAttributes } from '../workers/search-attributes.js';
import { SEARCH_ATTRIBUTE_NAMES } from '../workflows/search-attributes.js';

import { assert, check, log, results } from './check-harness';
import { checkS3, s3Client } from './check-embedded-s3';

interface Servers {
  pg: EmbeddedPostgres;
  temporal: TemporalDevServer;
  s3: SeaweedServer;
}

async function startAll(dir: string, quiet = false): Promise<Servers> {
  const logger = quiet ? undefined : log;
  const timed = async <T>(name: string, start: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    const server = await start();
    logger?.(`${name} up in ${Date.now() - t0} ms`);
    return server;
  };
  const [pgPort, temporalPort, uiPort, s3Port] = await Promise.all([getFreePort(), getFreePort(), getFreePort(), getFreePort()]);
  const [pg, temporal, s3] = await Promise.all([
    timed('postgres', () => startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: pgPort, log: logger })),
    timed('temporal', () =>
      startTemporalDevServer({ dbFile: join(dir, 'temporal', 'temporal.db'), port: temporalPort, uiPort, log: logger }),
    ),
    timed('seaweedfs', () => startSeaweed({ dataDir: join(dir, 's3'), s3Port, log: logger })),
  ]);
  return { pg, temporal, s3 };
}

async function stopAll(servers: Servers): Promise<void> {
  const t0 = Date.now();
  await Promise.all([servers.pg.stop(), servers.temporal.stop(), servers.s3.stop()]);
  log(`all stopped in ${Date.now() - t0} ms`);
}

// --- checks ------------------------------------------------------------------

async function checkPostgres(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    await check('postgres: SELECT 1', async () => {
      const [row] = await sql`select 1 as one`;
      assert(row?.one === 1, 'unexpected result');
    });
    await check('postgres: write a row for the restart check', async () => {
      await sql`create table if not exists embedded_check (v text)`;
      await sql`insert into embedded_check values ('persisted')`;
    });
  } finally {
    await sql.end();
  }
}

async function checkTemporal(server: TemporalDevServer): Promise<void> {
  const connection = await Connection.connect({ address: server.address });
  try {
    await check('temporal: describeNamespace', async () => {
      const ns = await connection.workflowService.describeNamespace({ namespace: server.namespace });
      return `namespace ${ns.namespaceInfo?.name}`;
    });
    await check('temporal: search attributes registered as Keyword', async () => {
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: server.namespace });
      for (const name of SEARCH_ATTRIBUTE_NAMES) assert(customAttributes?.[name] === 2, `${name} missing or not Keyword`);
      return SEARCH_ATTRIBUTE_NAMES.join(', ');
    });
    await check('temporal: ensureSearchAttributes is idempotent', () => ensureSearchAttributes(connection, server.namespace));
    await check('temporal: start a workflow carrying TenantId and find it by query', async () => {
      const client = new Client({ connection, namespace: server.namespace });
      await client.workflow.start('noSuchWorkflow', {
        taskQueue: 'embedded-check',
        workflowId: 'embedded-check:t1:k1',
        searchAttributes: { TenantId: ['t1'], Capability: ['check'], BusinessKey: ['k1'] },
      });
      const deadline = Date.now() + 10_000;
      for (;;) {
        for await (const wf of client.workflow.list({ query: `TenantId = 't1' AND BusinessKey = 'k1'` })) {
          if (wf.workflowId === 'embedded-check:t1:k1') return 'visible via TenantId query';
        }
        if (Date.now() > deadline) throw new Error('workflow not found by search attribute');
        await new Promise((r) => setTimeout(r, 250));
      }
    });
  } finally {
    await connection.close();
  }
}

async function checkPersistence(servers: Servers, s3Object: Awaited<ReturnType<typeof checkS3>>): Promise<void> {
  await check('restart: postgres row survived', async () => {
    const sql = postgres(servers.pg.url, { max: 1 });
    try {
      const rows = await sql`select v from embedded_check`;
      assert(rows[0]?.v === 'persisted', 'row missing');
    } finally {
      await sql.end();
    }
  });
  await check('restart: temporal workflow and search attributes survived', async () => {
    const connection = await Connection.connect({ address: servers.temporal.address });
    try {
      const client = new Client({ connection });
      const description = await client.workflow.getHandle('embedded-check:t1:k1').describe();
      return `status ${description.status.name}`;
    } finally {
      await connection.close();
    }
  });
  await check('restart: S3 object version and its retention survived', async () => {
    const s3 = s3Client(servers.s3);
    try {
      const { bucket, key, versionId, body } = s3Object;
      const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, VersionId: versionId }));
      assert((await got.Body!.transformToString()) === body, 'content differs');
      const { Retention } = await s3.send(new GetObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: versionId }));
      assert(Retention?.Mode === 'COMPLIANCE', `mode ${Retention?.Mode}`);
    } finally {
      s3.destroy();
    }
  });
}

async function checkParentDeath(signal: 'SIGINT' | 'SIGKILL'): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), `embedded-${signal.toLowerCase()}-`));
  try {
    await check(`no orphans after the parent gets ${signal}`, async () => {
      const script = fileURLToPath(import.meta.url);
      const child = spawn(process.execPath, ['--import', 'tsx', script, '--serve', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      await new Promise<void>((resolvePromise, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('READY')) resolvePromise();
        });
        child.once('exit', (code) => reject(new Error(`serve process exited early (${code}): ${output}`)));
      });
      const running = await serverProcesses(dir);
      assert(running.length >= 3, `expected at least 3 server processes, saw ${running.length}`);
      const t0 = Date.now();
      child.kill(signal);
      await new Promise((r) => child.once('exit', r));
      const left = await waitForGone(running, dir, 30_000);
      assert(left.length === 0, `left behind: ${describeProcesses(left)}`);
      return `${running.length} server processes (incl. postgres helpers) gone ${Date.now() - t0} ms after ${signal}`;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// --- main ----------------------------------------------------------------------

async function serve(dir: string): Promise<void> {
  await startAll(dir, true);
  console.log('READY');
  // Keep the event loop alive; the test sends us a signal.
  setInterval(() => undefined, 60_000);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'embedded-check-'));
  console.log(`data in ${dir}`);
  try {
    console.log('first start (initialises data):');
    let servers = await startAll(dir);
    await checkPostgres(servers.pg.url);
    await checkTemporal(servers.temporal);
    const s3Object = await checkS3(servers.s3);
    const running = await serverProcesses(dir);
    await stopAll(servers);
    await check('no server process left after stop()', async () => {
      const left = await waitForGone(running, dir, 5_000);
      assert(left.length === 0, `left behind: ${describeProcesses(left)}`);
      return `${running.length} processes gone`;
    });

    console.log('second start (existing data):');
    servers = await startAll(dir);
    await checkPersistence(servers, s3Object);
    await stopAll(servers);

    console.log('parent death:');
    await checkParentDeath('SIGINT');
    await checkParentDeath('SIGKILL');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  const failed = results.filter((r) => !r.ok && r.required);
  const notes = results.filter((r) => !r.ok && !r.required);
  console.log(`\n${results.length - failed.length - notes.length} passed, ${failed.length} failed`);
  if (notes.length) console.log(`informational checks that did not hold: ${notes.map((n) => n.name).join('; ')}`);
  process.exitCode = failed.length ? 1 : 0;
}

const serveIndex = process.argv.indexOf('--serve');
if (serveIndex >= 0) {
  await serve(process.argv[serveIndex + 1]!);
} else {
  await main();
}
