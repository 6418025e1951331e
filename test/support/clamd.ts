// Starts a private, real clamd for tests: its own config, port and signature
// database (generated here with sigtool, never downloaded by freshclam).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createClamdClient } from '../../integrations/clamav/clamd-client';
import { getFreePort } from '../../workers/embedded/child-process';

/**
 * Bytes the test signature matches anywhere in a file. Random-looking so no
 * real file carries it; lower-case without spaces so it survives ClamAV's HTML
 * normalisation (an upper-case marker in an HTML file goes undetected).
 */
export const CLAMD_TEST_MARKER_TEXT = 'tcp-clamd-test-marker-7f3a9c1e5b2d4086a4e2c0b8d6f4e2a0-q9zx';
export const CLAMD_TEST_MARKER: Buffer = Buffer.from(CLAMD_TEST_MARKER_TEXT, 'ascii');
/** clamd reports unofficial signatures as `<name>.UNOFFICIAL`; match with startsWith. */
export const CLAMD_TEST_SIGNATURE = 'Tcp.Test.ClamdMarker';

export const DEFAULT_MAX_BYTES = 25 * 1024 * 1024;
const MIB = 1024 * 1024;

export interface StartClamdOptions {
  /** Working directory for config, database, temp files and log (created if missing). */
  dir: string;
  /** Upload cap; files of this size must be scanned in full. */
  maxBytes?: number;
  startTimeoutMs?: number;
  clamdPath?: string;
  sigtoolPath?: string;
}

export interface RunningClamd {
  host: string;
  port: number;
  /** clamd's StreamMaxLength: one byte more is refused with an ERROR reply. */
  streamMaxLength: number;
  logFile: string;
  stop(): Promise<void>;
}

export async function startClamd(options: StartClamdOptions): Promise<RunningClamd> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const clamd = options.clamdPath ?? findBinary('clamd', ['/usr/sbin/clamd', '/usr/bin/clamd', '/usr/local/sbin/clamd']);
  const sigtool = options.sigtoolPath ?? findBinary('sigtool', ['/usr/bin/sigtool', '/usr/local/bin/sigtool']);
  const dir = path.resolve(options.dir);
  const dbDir = path.join(dir, 'db');
  const tmpDir = path.join(dir, 'tmp');
  await mkdir(dbDir, { recursive: true });
  await mkdir(tmpDir, { recursive: true });
  await writeSignatureDatabase(sigtool, dbDir);

  // The port is picked before clamd binds it; retry if another process won the race.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await getFreePort();
    const limits = clamdLimits(maxBytes);
    const configFile = path.join(dir, 'clamd.conf');
    const logFile = path.join(dir, 'clamd.log');
    await writeFile(configFile, clamdConfig({ port, dbDir, tmpDir, logFile, ...limits }));
    try {
      const stop = await launch(clamd, configFile, port, logFile, options.startTimeoutMs ?? 60_000);
      return { host: '127.0.0.1', port, streamMaxLength: limits.streamMaxLength, logFile, stop };
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

/**
 * Limits chosen so that a file at the cap is scanned completely and nothing
 * beyond a limit can come back clean: StreamMaxLength leaves one MiB of
 * headroom over the cap (more is an ERROR reply), MaxFileSize/MaxScanSize are
 * at least that, and AlertExceedsMax turns any skipped remainder into a
 * Heuristics.Limits.Exceeded detection instead of a silent OK.
 */
export function clamdLimits(maxBytes: number) {
  // Keeps 4x headroom within clamd's 4 GiB option ceiling.
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0 || maxBytes > 512 * MIB) {
    throw new RangeError('startClamd supports caps from 1 byte to 512 MiB');
  }
  const streamMaxLength = maxBytes + MIB;
  return {
    streamMaxLength,
    // Applies to derived content too (normalised scripts grow past their
    // source); the input itself is already bounded by StreamMaxLength.
    maxFileSize: 4 * streamMaxLength,
    // Extracted content of containers counts too; keep clamd's 400M default as a floor.
    maxScanSize: Math.max(4 * streamMaxLength, 400 * MIB),
    // HTML is matched on its normalised forms (comments stripped, lower-cased),
    // not its raw bytes, so these caps must cover a cap-sized page or script too.
    maxHtmlNormalize: Math.max(40 * MIB, streamMaxLength),
    maxHtmlNoTags: Math.max(8 * MIB, streamMaxLength),
    maxScriptNormalize: Math.max(20 * MIB, streamMaxLength),
  };
}

function clamdConfig(c: {
  port: number;
  dbDir: string;
  tmpDir: string;
  logFile: string;
  streamMaxLength: number;
  maxFileSize: number;
  maxScanSize: number;
  maxHtmlNormalize: number;
  maxHtmlNoTags: number;
  maxScriptNormalize: number;
}): string {
  return [
    `DatabaseDirectory ${c.dbDir}`,
    `TemporaryDirectory ${c.tmpDir}`,
    `LogFile ${c.logFile}`,
    'LogTime yes',
    'LogFileMaxSize 0',
    'Foreground yes',
    // No LocalSocket: TCP only, loopback only.
    `TCPSocket ${c.port}`,
    'TCPAddr 127.0.0.1',
    `StreamMaxLength ${c.streamMaxLength}`,
    `MaxFileSize ${c.maxFileSize}`,
    `MaxScanSize ${c.maxScanSize}`,
    `MaxHTMLNormalize ${c.maxHtmlNormalize}`,
    `MaxHTMLNoTags ${c.maxHtmlNoTags}`,
    `MaxScriptNormalize ${c.maxScriptNormalize}`,
    'AlertExceedsMax yes',
    // Our database has no bytecode; skip the bytecode engine and the reload checks.
    'Bytecode no',
    'SelfCheck 3600',
    'ConcurrentDatabaseReload no',
    'ExitOnOOM yes',
    '',
  ].join('\n');
}

async function writeSignatureDatabase(sigtool: string, dbDir: string): Promise<void> {
  const hex = (await run(sigtool, ['--hex-dump'], CLAMD_TEST_MARKER)).trim();
  if (!/^[0-9a-f]+$/.test(hex) || hex.length !== CLAMD_TEST_MARKER.length * 2) {
    throw new Error(`sigtool --hex-dump gave unexpected output: ${hex.slice(0, 100)}`);
  }
  // .ndb body signature: name:target(0 = any file):offset(* = anywhere):hex.
  await writeFile(path.join(dbDir, 'tcp-test.ndb'), `${CLAMD_TEST_SIGNATURE}:0:*:${hex}\n`);
}

async function launch(
  clamd: string,
  configFile: string,
  port: number,
  logFile: string,
  startTimeoutMs: number,
): Promise<() => Promise<void>> {
  // clamd has no parent-death option, so a tiny shell supervises it: when our
  // end of its stdin pipe closes (stop(), or this process dying even by
  // SIGKILL), it terminates clamd.
  const script = '"$0" --config-file="$1" </dev/null & c=$!; echo "$c"; cat >/dev/null; kill "$c" 2>/dev/null; wait "$c"';
  const child = spawn('/bin/sh', ['-c', script, clamd, configFile], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const clamdPid = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number.parseInt(d.toString(), 10)));
    child.once('error', reject);
    child.once('exit', () => reject(new Error(`clamd supervisor exited early: ${stderr}`)));
  });
  const killNow = () => {
    try {
      process.kill(clamdPid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killNow);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => {
    exited = true;
    resolve();
  }));

  const stop = async () => {
    process.off('exit', killNow);
    if (exited) return;
    child.stdin.end();
    const timer = setTimeout(() => {
      killNow();
      child.kill('SIGKILL');
    }, 10_000);
    await exit;
    clearTimeout(timer);
  };

  const client = createClamdClient({ host: '127.0.0.1', port, timeoutMs: 2_000 });
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`clamd exited during start-up: ${stderr}\n${await tail(logFile)}`);
    }
    try {
      await client.ping();
      return stop;
    } catch (err) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`clamd did not answer PING within ${startTimeoutMs} ms: ${String(err)}\n${stderr}\n${await tail(logFile)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function findBinary(name: string, candidates: string[]): string {
  // /usr/sbin is often missing from a non-root PATH.
  return candidates.find((p) => existsSync(p)) ?? name;
}

function run(command: string, args: string[], input: Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}: ${err}`))));
    child.stdin.end(input);
  });
}

async function tail(file: string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).slice(-4000);
  } catch {
    return '';
  }
}
