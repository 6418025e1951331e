// S3 for development and tests: SeaweedFS `weed mini` (master, volume, filer
// and S3 gateway in one process).
//
// Why mini rather than `weed server -s3`: the latter's filer waits a fixed 15 s
// for its gRPC streams plus a 10 s volume pre-stop on SIGTERM (~27 s per stop);
// mini stops in ~4 s. Every port is given explicitly because the defaults
// (8333, 9333, 23646, ...) would collide between `npm start` and `npm test`,
// and the implicit gRPC "port + 10000" overflows for ports above 55535.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { getFreePort, spawnServer, waitUntilReady } from './child-process.js';
import { ensureTool } from './tools.js';

export interface SeaweedOptions {
  /** Volumes, filer metadata and mini's own `mini.options` live here between runs. */
  dataDir: string;
  s3Port: number;
  /** Credentials of the single admin identity; any values work, they are written to the S3 config. */
  accessKeyId?: string;
  secretAccessKey?: string;
  logFile?: string;
  startTimeoutMs?: number;
  log?: (msg: string) => void;
}

export interface SeaweedServer {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** SeaweedFS serves buckets by path only (no bucket.host DNS). */
  forcePathStyle: true;
  stop(): Promise<void>;
}

const REGION = 'us-east-1';

export async function startSeaweed(options: SeaweedOptions): Promise<SeaweedServer> {
  const { s3Port, log } = options;
  const dataDir = resolve(options.dataDir);
  const accessKeyId = options.accessKeyId ?? 'embedded-admin';
  const secretAccessKey = options.secretAccessKey ?? 'embedded-admin-secret';
  await mkdir(dataDir, { recursive: true });
  const weed = await ensureTool('weed', { log });

  // Rewritten every start so changed credentials take effect.
  const s3Config = join(dataDir, 's3-config.json');
  await writeFile(
    s3Config,
    JSON.stringify({
      identities: [
        {
          name: 'admin',
          credentials: [{ accessKey: accessKeyId, secretKey: secretAccessKey }],
          actions: ['Admin', 'Read', 'List', 'Tagging', 'Write'],
        },
      ],
    }),
    { mode: 0o600 },
  );

  const ports = await freePorts(9, s3Port);
  const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3Grpc, admin, adminGrpc] = ports as [
    number, number, number, number, number, number, number, number, number,
  ];
  const args = [
    'mini',
    `-dir=${dataDir}`,
    '-ip=127.0.0.1',
    '-ip.bind=127.0.0.1',
    `-master.port=${master}`, `-master.port.grpc=${masterGrpc}`,
    `-volume.port=${volume}`, `-volume.port.grpc=${volumeGrpc}`,
    `-filer.port=${filer}`, `-filer.port.grpc=${filerGrpc}`,
    `-s3.port=${s3Port}`, `-s3.port.grpc=${s3Grpc}`,
    `-admin.port=${admin}`, `-admin.port.grpc=${adminGrpc}`,
    `-s3.config=${s3Config}`,
    '-s3.port.iceberg=0', '-s3.port.lance=0',
    '-webdav=false', '-admin.ui=false',
    '-master.telemetry=false',
    // mini sizes volumes at 1 GiB and caps their count by free disk (~80 here);
    // every bucket is a collection holding at least one volume, so the cap
    // would be a bucket limit. Volumes are sparse files, a high cap costs nothing.
    '-volume.max=1000',
  ];
  const child = spawnServer({
    name: 'seaweedfs',
    command: weed,
    args,
    cwd: dataDir,
    logFile: options.logFile ?? join(dataDir, 'seaweed.log'),
    stopGraceMs: 15_000,
    log,
  });

  const endpoint = `http://127.0.0.1:${s3Port}`;
  const s3 = new S3Client({ endpoint, region: REGION, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
  try {
    await waitUntilReady(
      child,
      // The gateway answers before a volume server has registered with the
      // master, and until then the first write fails with "no free volumes".
      async () => (await volumeServerRegistered(master)) && (await s3.send(new ListBucketsCommand({})), true),
      { what: `S3 on ${endpoint} with a volume server registered`, timeoutMs: options.startTimeoutMs ?? 60_000 },
    );
  } catch (err) {
    await child.stop();
    throw err;
  } finally {
    s3.destroy();
  }
  log?.(`seaweedfs: S3 ready at ${endpoint} (data ${dataDir})`);
  const stop = async () => {
    await child.stop();
    await removeSockets([s3Port, ...ports]);
  };
  return { endpoint, region: REGION, accessKeyId, secretAccessKey, forcePathStyle: true, stop };
}

/**
 * weed leaves /tmp/seaweedfs-<component>[-grpc]-<port>.sock behind on every
 * run (harmless: it replaces them on reuse, but they pile up).
 */
async function removeSockets(ports: number[]): Promise<void> {
  const names = await readdir('/tmp').catch(() => [] as string[]);
  const suffixes = ports.map((port) => `-${port}.sock`);
  const ours = names.filter((n) => n.startsWith('seaweedfs-') && suffixes.some((s) => n.endsWith(s)));
  await Promise.all(ours.map((n) => rm(join('/tmp', n), { force: true })));
}

async function volumeServerRegistered(masterPort: number): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${masterPort}/dir/status`, { signal: AbortSignal.timeout(2000) });
  const status = (await response.json()) as {
    Topology?: { DataCenters?: { Racks?: { DataNodes?: unknown[] }[] }[] };
  };
  const nodes = status.Topology?.DataCenters?.flatMap((dc) => dc.Racks ?? []).flatMap((r) => r.DataNodes ?? []) ?? [];
  return nodes.length > 0;
}

/** `count` distinct ports, none of them the S3 port the caller chose (perhaps from settings). */
async function freePorts(count: number, taken: number): Promise<number[]> {
  // getFreePort never repeats a port within this process; only the caller's S3 port needs keeping out.
  const ports: number[] = [];
  while (ports.length < count) {
    const port = await getFreePort();
    if (port !== taken) ports.push(port);
  }
  return ports;
}
