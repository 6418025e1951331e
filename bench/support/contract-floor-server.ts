// The least an upload that keeps the documents contract costs on this machine, measured in the
// same run as the proxy: a bare node:http server in its own process that parses the same
// multipart body with busboy, counts and hashes the file part with the proxy's ByteCounter
// (SHA-256, size) and streams it into S3 with the proxy's streamedUpload (first part streamed,
// its length from Content-Length, the small rest as part 2). No registry rows, guard, retention,
// framework, metrics or logging: between it and the pass-through lies what the contract's bytes
// cost; between it and the proxy, what the platform around them costs.
import busboy from 'busboy';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ByteCounter } from '../../domain/documents/byte-counter';
import { guaranteedFileBytes } from '../../domain/documents/multipart-envelope';
import { streamedUpload } from '../../integrations/docstore/streamed-upload';
import { loadSettings } from '../../workers/config';
import { childS3Client } from './child-s3';

const settings = loadSettings();
const s3 = childS3Client(settings);
const Bucket = settings['s3.bucket'];
let uploads = 0;

const server = createServer((req, res) => {
  const contentType = req.headers['content-type'] ?? '';
  const declared = Number(req.headers['content-length']);
  let fed = 0;
  const parser = busboy({ headers: { 'content-type': contentType }, limits: { files: 1 } });
  const fail = (err: unknown) => {
    if (!res.headersSent) res.writeHead(502).end((err as Error).message);
  };
  parser.on('file', (_name, file) => {
    const head = guaranteedFileBytes(declared, fed, contentType);
    const counter = new ByteCounter({ maxBytes: Number.MAX_SAFE_INTEGER });
    file.pipe(counter);
    streamedUpload(s3, { Bucket, Key: `floor/obj-${uploads++}`, ContentType: 'application/octet-stream' }, counter, head).then(
      (out) => res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...counter.result(), versionId: out.VersionId })),
      fail,
    );
  });
  parser.on('error', fail);
  req.on('data', (chunk: Buffer) => (fed += chunk.length));
  req.pipe(parser);
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('disconnect', () => {
  server.close();
  s3.destroy();
  process.exit(0);
});
