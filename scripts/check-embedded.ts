// End-to-end check of workers/embedded: starts PostgreSQL, the Temporal dev
// server and SeaweedFS in a temp dir, exercises them (including the S3 object
// lock semantics the documents capability relies on), restarts them to prove
// persistence, and proves that no server outlives its parent — after stop(),
// after Ctrl-C, and after the parent is SIGKILLed.
//
//   npx tsx scripts/check-embedded.ts            run every check, exit 1 on failure
//   npx tsx scripts/check-embedded.ts --serve D  (internal) start servers in D and wait
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { Client, Connection } from '@temporalio/client';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  GetObjectLegalHoldCommand,
  GetObjectLockConfigurationCommand,
  GetObjectRetentionCommand,
  GetBucketVersioningCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  PutObjectRetentionCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  SEARCH_ATTRIBUTES,
  ensureBucket,
  ensureSearchAttributes,
  getFreePort,
  startEmbeddedPostgres,
  startSeaweed,
  startTemporalDevServer,
  type EmbeddedPostgres,
  type SeaweedServer,
  type TemporalDevServer,
} from '../workers/embedded/index.js';

const log = (msg: string) => console.log(`  · ${msg}`);
const results: { name: string; ok: boolean; required: boolean; detail: string }[] = [];

async function check(name: string, fn: () => Promise<string | void>, required = true): Promise<void> {
  try {
    const detail = (await fn()) ?? '';
    results.push({ name, ok: true, required, detail });
    console.log(`  ✓ ${name}${detail ? ` — ${detail}` : ''}`);
  } catch (err) {
    const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    results.push({ name, ok: false, required, detail });
    console.log(`  ${required ? '✗' : '!'} ${name} — ${detail}`);
  }
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function expectS3Error(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    return `${e.name} (${e.$metadata?.httpStatusCode})`;
  }
  throw new Error('expected the request to be refused, it succeeded');
}

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

function s3Client(s3: SeaweedServer): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
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
      for (const name of SEARCH_ATTRIBUTES) assert(customAttributes?.[name] === 2, `${name} missing or not Keyword`);
      return SEARCH_ATTRIBUTES.join(', ');
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

async function checkS3(server: SeaweedServer): Promise<{ bucket: string; key: string; versionId: string; body: string }> {
  const s3 = s3Client(server);
  const bucket = 'embedded-check';
  const key = 'doc.txt';
  const body = 'hello object lock world';
  const inOneDay = () => new Date(Date.now() + 24 * 3600 * 1000);
  let v1 = '', v2 = '', v3 = '';

  await check('s3: ensureBucket twice (create with object lock, then no-op)', async () => {
    await ensureBucket(s3, bucket);
    await ensureBucket(s3, bucket);
    const versioning = await s3.send(new GetBucketVersioningCommand({ Bucket: bucket }));
    const lock = await s3.send(new GetObjectLockConfigurationCommand({ Bucket: bucket }));
    assert(versioning.Status === 'Enabled', `versioning ${versioning.Status}`);
    assert(lock.ObjectLockConfiguration?.ObjectLockEnabled === 'Enabled', 'object lock not enabled');
    return 'versioning Enabled, ObjectLockEnabled';
  });
  await check('s3: PutObject returns a VersionId', async () => {
    const put = async (text: string) => (await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: text }))).VersionId;
    v1 = (await put(body)) ?? '';
    v2 = (await put(`${body} v2`)) ?? '';
    v3 = (await put(`${body} v3`)) ?? '';
    assert(v1 && v2 && v3 && new Set([v1, v2, v3]).size === 3, `version ids ${v1}, ${v2}, ${v3}`);
    return `e.g. ${v1}`;
  });
  await check('s3: PutObjectRetention COMPLIANCE on a VersionId, read back', async () => {
    const until = inOneDay();
    await s3.send(new PutObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: v1, Retention: { Mode: 'COMPLIANCE', RetainUntilDate: until } }));
    const { Retention } = await s3.send(new GetObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: v1 }));
    assert(Retention?.Mode === 'COMPLIANCE', `mode ${Retention?.Mode}`);
    assert(Math.abs((Retention?.RetainUntilDate?.getTime() ?? 0) - until.getTime()) < 1000, `date ${Retention?.RetainUntilDate?.toISOString()}`);
    return `until ${Retention?.RetainUntilDate?.toISOString()}`;
  });
  await check('s3: PutObjectRetention GOVERNANCE on a VersionId, read back', async () => {
    await s3.send(new PutObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: v2, Retention: { Mode: 'GOVERNANCE', RetainUntilDate: inOneDay() } }));
    const { Retention } = await s3.send(new GetObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: v2 }));
    assert(Retention?.Mode === 'GOVERNANCE', `mode ${Retention?.Mode}`);
  });
  await check('s3: retention of one version does not leak to another', async () => {
    const err = await expectS3Error(s3.send(new GetObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: v3 })));
    return `GetObjectRetention on unretained version: ${err}`;
  }, false);
  await check('s3: HeadObject with VersionId reports the lock', async () => {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key, VersionId: v1 }));
    assert(head.ObjectLockMode === 'COMPLIANCE', `ObjectLockMode ${head.ObjectLockMode}`);
    return `ObjectLockMode ${head.ObjectLockMode}, until ${head.ObjectLockRetainUntilDate?.toISOString()}`;
  }, false);
  await check('s3: ranged GetObject with a VersionId', async () => {
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, VersionId: v1, Range: 'bytes=6-11' }));
    const text = await got.Body!.transformToString();
    assert(text === body.slice(6, 12), `got "${text}"`);
    assert(got.$metadata.httpStatusCode === 206, `status ${got.$metadata.httpStatusCode}`);
    return `206 "${text}", ${got.ContentRange}`;
  });
  await check('s3: DeleteObject by VersionId of a COMPLIANCE version is refused', async () => {
    const err = await expectS3Error(s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId: v1 })));
    await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key, VersionId: v1 }));
    return err;
  });
  await check('s3: shortening COMPLIANCE retention is refused', async () => {
    const err = await expectS3Error(
      s3.send(new PutObjectRetentionCommand({ Bucket: bucket, Key: key, VersionId: v1, Retention: { Mode: 'COMPLIANCE', RetainUntilDate: new Date(Date.now() + 3600_000) } })),
    );
    return err;
  }, false);
  await check('s3: DeleteObject by VersionId of a GOVERNANCE version without bypass is refused', async () => {
    return expectS3Error(s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId: v2 })));
  }, false);
  await check('s3: DeleteObject without VersionId on a retained object makes a delete marker', async () => {
    const res = await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    assert(res.DeleteMarker === true, `DeleteMarker ${res.DeleteMarker}`);
    const err = await expectS3Error(s3.send(new GetObjectCommand({ Bucket: bucket, Key: key })));
    const old = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, VersionId: v1 }));
    assert((await old.Body!.transformToString()) === body, 'old version unreadable');
    return `marker ${res.VersionId}; plain GET then ${err}; GET by VersionId still works`;
  });
  await check('s3: DeleteObject by VersionId of a never-retained version purges it', async () => {
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId: v3 }));
    const { Versions } = await s3.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: key }));
    assert(!Versions?.some((v) => v.VersionId === v3), 'version still listed');
    const err = await expectS3Error(s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, VersionId: v3 })));
    return `gone from ListObjectVersions; GET by VersionId ${err}`;
  });
  await check('s3: DeleteObject by VersionId of a GOVERNANCE version with BypassGovernanceRetention', async () => {
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId: v2, BypassGovernanceRetention: true }));
    const { Versions } = await s3.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: key }));
    assert(!Versions?.some((v) => v.VersionId === v2), 'version still listed');
  }, false);
  await check('s3: expired COMPLIANCE retention allows deleting the version', async () => {
    const { VersionId } = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'short.txt', Body: 'x' }));
    await s3.send(new PutObjectRetentionCommand({ Bucket: bucket, Key: 'short.txt', VersionId, Retention: { Mode: 'COMPLIANCE', RetainUntilDate: new Date(Date.now() + 2000) } }));
    await new Promise((r) => setTimeout(r, 3000));
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'short.txt', VersionId }));
  }, false);
  await check('s3: PutObject with ObjectLockMode/RetainUntilDate headers', async () => {
    const { VersionId } = await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'locked-at-put.txt', Body: 'x', ObjectLockMode: 'COMPLIANCE', ObjectLockRetainUntilDate: inOneDay() }),
    );
    const { Retention } = await s3.send(new GetObjectRetentionCommand({ Bucket: bucket, Key: 'locked-at-put.txt', VersionId }));
    assert(Retention?.Mode === 'COMPLIANCE', `mode ${Retention?.Mode}`);
  }, false);
  await check('s3: legal hold on a VersionId blocks its deletion', async () => {
    const { VersionId } = await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'held.txt', Body: 'x' }));
    await s3.send(new PutObjectLegalHoldCommand({ Bucket: bucket, Key: 'held.txt', VersionId, LegalHold: { Status: 'ON' } }));
    const hold = await s3.send(new GetObjectLegalHoldCommand({ Bucket: bucket, Key: 'held.txt', VersionId }));
    assert(hold.LegalHold?.Status === 'ON', `hold ${hold.LegalHold?.Status}`);
    const err = await expectS3Error(s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'held.txt', VersionId })));
    await s3.send(new PutObjectLegalHoldCommand({ Bucket: bucket, Key: 'held.txt', VersionId, LegalHold: { Status: 'OFF' } }));
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'held.txt', VersionId }));
    return `held delete ${err}; released delete ok`;
  }, false);
  await check('s3: multipart upload (lib-storage Upload, 3 parts) with ranged read across a part boundary', async () => {
    const data = randomBytes(11 * 1024 * 1024);
    const upload = new Upload({ client: s3, params: { Bucket: bucket, Key: 'big.bin', Body: data }, partSize: 5 * 1024 * 1024, queueSize: 2 });
    const done = await upload.done();
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'big.bin', VersionId: done.VersionId }));
    const bytes = Buffer.from(await got.Body!.transformToByteArray());
    assert(sha(bytes) === sha(data), 'content differs');
    const start = 5 * 1024 * 1024 - 10;
    const ranged = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'big.bin', VersionId: done.VersionId, Range: `bytes=${start}-${start + 19}` }));
    const slice = Buffer.from(await ranged.Body!.transformToByteArray());
    assert(slice.equals(data.subarray(start, start + 20)), 'ranged bytes differ');
    await s3.send(new PutObjectRetentionCommand({ Bucket: bucket, Key: 'big.bin', VersionId: done.VersionId, Retention: { Mode: 'GOVERNANCE', RetainUntilDate: inOneDay() } }));
    return `VersionId ${done.VersionId ?? '(none returned)'}, ETag ${done.ETag}, retention settable`;
  });
  await check('s3: unsigned request is refused', async () => {
    const response = await fetch(`${server.endpoint}/${bucket}/${key}?versionId=${v1}`);
    assert(response.status === 403, `status ${response.status}`);
    return `HTTP ${response.status}`;
  });
  s3.destroy();
  return { bucket, key, versionId: v1, body };
}

function sha(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
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

// --- orphan detection ----------------------------------------------------------

interface Proc {
  pid: number;
  ppid: number;
  cmdline: string;
}

async function listProcesses(): Promise<Proc[]> {
  const procs: Proc[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      procs.push({ pid: Number(entry), ppid: Number(fields[1]), cmdline });
    } catch {
      // exited while we looked
    }
  }
  return procs;
}

/**
 * The servers (their command line names the data dir) and everything they
 * forked. Descendants are found by parent pid, not session: postgres children
 * call setsid() themselves.
 */
async function serverProcesses(dir: string): Promise<Proc[]> {
  const procs = await listProcesses();
  const found = new Map<number, Proc>();
  for (const p of procs) {
    if (p.cmdline.includes(dir) && !p.cmdline.includes('--serve') && p.pid !== process.pid) found.set(p.pid, p);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (!found.has(p.pid) && found.has(p.ppid)) {
        found.set(p.pid, p);
        grew = true;
      }
    }
  }
  return [...found.values()];
}

/** Waits until none of `seen` is alive and nothing new runs from `dir`. */
async function waitForGone(seen: Proc[], dir: string, timeoutMs: number): Promise<Proc[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = new Set((await listProcesses()).map((p) => p.pid));
    const left = [...seen.filter((p) => alive.has(p.pid)), ...(await serverProcesses(dir)).filter((p) => !seen.some((s) => s.pid === p.pid))];
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 200));
  }
}

function describe(procs: Proc[]): string {
  return procs.map((p) => `${p.pid} ${p.cmdline.slice(0, 80)}`).join('; ');
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
      assert(left.length === 0, `left behind: ${describe(left)}`);
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
      assert(left.length === 0, `left behind: ${describe(left)}`);
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
