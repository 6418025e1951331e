/**
 * A local RFC 3161 timestamp authority over HTTP: `openssl ts -reply` behind a node:http handler,
 * with its own test root and TSA certificate (extKeyUsage timeStamping, critical). It echoes the
 * request's nonce and honours certReq as OpenSSL does. Tests steer it with `behave`: `fail`
 * answers 503, `alter-nonce` stamps a request whose nonce was changed (a valid token that does
 * not echo the caller's nonce), `no-cert` stamps it as if certReq were false, `bad-signature`
 * flips the token's last byte (its signature value), `endless` streams bytes without a length
 * until the caller hangs up.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { issue, makeRoot, openssl } from './openssl-ca';

export type TsaBehaviour = 'ok' | 'fail' | 'alter-nonce' | 'no-cert' | 'bad-signature' | 'endless';

export interface TsaStandIn {
  readonly url: string;
  /** The test root that issued the TSA certificate. */
  readonly caPem: string;
  readonly caFile: string;
  /** The TSA's own certificate. */
  readonly tsaPem: string;
  readonly tsaFile: string;
  /** Timestamp requests received so far. */
  readonly requests: () => number;
  readonly behave: (behaviour: TsaBehaviour) => void;
  readonly stop: () => Promise<void>;
}

const config = (dir: string) => `
[ tsa ]
default_tsa = stand_in
[ stand_in ]
dir = ${dir}
serial = $dir/tsaserial
crypto_device = builtin
signer_cert = $dir/tsa.pem
certs = $dir/tsa.pem
signer_key = $dir/tsa.key
signer_digest = sha256
default_policy = 1.3.6.1.4.1.99999.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;

/** The query OpenSSL is given: the caller's, or one changed to make the answer wrong in a chosen way. */
function queryFor(behaviour: TsaBehaviour, query: Buffer): Buffer {
  if (behaviour !== 'alter-nonce' && behaviour !== 'no-cert') return query;
  const req = pkijs.TimeStampReq.fromBER(new Uint8Array(query));
  if (behaviour === 'alter-nonce') req.nonce = new asn1js.Integer({ value: 4242 });
  else req.certReq = false;
  return Buffer.from(req.toSchema().toBER());
}

export async function startTsa(): Promise<TsaStandIn> {
  const dir = await mkdtemp(join(tmpdir(), 'tsa-stand-in-'));
  const root = await makeRoot(dir, 'tsa-root');
  const tsa = await issue(dir, root, 'tsa', ['keyUsage=critical,digitalSignature', 'extendedKeyUsage=critical,timeStamping']);
  await writeFile(join(dir, 'tsaserial'), '01\n');
  await writeFile(join(dir, 'tsa.cnf'), config(dir));

  let behaviour: TsaBehaviour = 'ok';
  let count = 0;
  // openssl rewrites its serial file on each reply: one reply at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const reply = (query: Buffer): Promise<Buffer> => {
    const n = ++count;
    const run = queue.then(async () => {
      const q = join(dir, `q${n}.tsq`);
      const r = join(dir, `r${n}.tsr`);
      await writeFile(q, queryFor(behaviour, query));
      await openssl(['ts', '-reply', '-config', join(dir, 'tsa.cnf'), '-queryfile', q, '-out', r], dir);
      const out = await readFile(r);
      if (behaviour === 'bad-signature') out[out.length - 1]! ^= 0x01;
      await Promise.all([rm(q), rm(r)]);
      return out;
    });
    queue = run.catch(() => undefined);
    return run;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (behaviour === 'fail') {
        count++;
        res.writeHead(503).end();
        return;
      }
      if (behaviour === 'endless') {
        count++;
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' });
        const chunk = Buffer.alloc(64 * 1024, 0x30);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on('drain', pump);
        pump();
        return;
      }
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') {
        res.writeHead(400).end();
        return;
      }
      reply(Buffer.concat(chunks)).then(
        (body) => res.writeHead(200, { 'content-type': 'application/timestamp-reply', 'content-length': body.length }).end(body),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    caPem: root.pem,
    caFile: root.certFile,
    tsaPem: tsa.pem,
    tsaFile: tsa.certFile,
    requests: () => count,
    behave: (b) => {
      behaviour = b;
    },
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
