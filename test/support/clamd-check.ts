// Manual smoke check of the real-clamd set-up: `npx tsx test/support/clamd-check.ts`.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ClamdError, createClamdClient } from '../../integrations/clamav/clamd-client';
import { CLAMD_TEST_MARKER, CLAMD_TEST_SIGNATURE, DEFAULT_MAX_BYTES, startClamd } from './clamd';

const maxBytes = DEFAULT_MAX_BYTES;
const dir = await mkdtemp(path.join(os.tmpdir(), 'clamd-check-'));
const started = Date.now();
const clamd = await startClamd({ dir, maxBytes });
console.log(`clamd up on ${clamd.host}:${clamd.port} in ${Date.now() - started} ms`);
const client = createClamdClient({ host: clamd.host, port: clamd.port, timeoutMs: 60_000 });

let failures = 0;
async function check(name: string, fn: () => Promise<string>) {
  const t = Date.now();
  try {
    console.log(`ok   ${name}: ${await fn()} (${Date.now() - t} ms)`);
  } catch (err) {
    failures++;
    console.log(`FAIL ${name}: ${String(err)}`);
  }
}
function atEnd(size: number): Buffer {
  const buf = Buffer.alloc(size, 0x61);
  CLAMD_TEST_MARKER.copy(buf, size - CLAMD_TEST_MARKER.length);
  return buf;
}

try {
  await check('ping', async () => (await client.ping(), 'PONG'));
  await check('clean buffer', async () => {
    const r = await client.scanBuffer(Buffer.from('hello, plain text\n'));
    if (r.verdict !== 'clean') throw new Error(JSON.stringify(r));
    return r.verdict;
  });
  await check('marker buffer', async () => {
    const r = await client.scanBuffer(Buffer.concat([Buffer.from('x'), CLAMD_TEST_MARKER, Buffer.from('y')]));
    if (r.verdict !== 'infected' || !r.signature.startsWith(CLAMD_TEST_SIGNATURE)) throw new Error(JSON.stringify(r));
    return r.signature;
  });
  await check('clean buffer at cap', async () => {
    const r = await client.scanBuffer(Buffer.alloc(maxBytes, 0x61));
    if (r.verdict !== 'clean') throw new Error(JSON.stringify(r));
    return r.verdict;
  });
  await check('marker at the very end of a cap-sized buffer', async () => {
    const r = await client.scanBuffer(atEnd(maxBytes));
    if (r.verdict !== 'infected' || !r.signature.startsWith(CLAMD_TEST_SIGNATURE)) throw new Error(JSON.stringify(r));
    return r.signature;
  });
  await check('marker at the end of a cap-sized stream of 16 KiB chunks', async () => {
    const data = atEnd(maxBytes);
    const chunks = function* () {
      for (let at = 0; at < data.length; at += 16 * 1024) yield data.subarray(at, at + 16 * 1024);
    };
    const r = await client.scanStream(Readable.from(chunks()));
    if (r.verdict !== 'infected') throw new Error(JSON.stringify(r));
    return r.signature;
  });
  await check('over StreamMaxLength is an error', async () => {
    try {
      const r = await client.scanBuffer(Buffer.alloc(clamd.streamMaxLength + 1, 0x61));
      throw new Error(`expected ClamdError, got ${JSON.stringify(r)}`);
    } catch (err) {
      if (!(err instanceof ClamdError)) throw err;
      return `${err.kind}: ${err.message}`;
    }
  });
  await check('closed port is a connection error', async () => {
    const c = createClamdClient({ host: '127.0.0.1', port: 1, timeoutMs: 2_000 });
    try {
      await c.scanBuffer(Buffer.from('x'));
      throw new Error('expected ClamdError');
    } catch (err) {
      if (!(err instanceof ClamdError) || err.kind !== 'connection') throw err;
      return err.kind;
    }
  });
} finally {
  await clamd.stop();
  await rm(dir, { recursive: true, force: true });
}
console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
process.exitCode = failures ? 1 : 0;
