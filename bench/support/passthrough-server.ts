// The ceiling a streaming proxy can reach on this machine, measured in the same run as the
// proxy: a bare node:http server in its own process that streams a raw request body into one
// PutObject (length from Content-Length) and a GetObject into its response. No multipart
// parsing, hashing, registry, guard or retention: only the extra hop and process.
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { loadSettings } from '../../workers/config';
import { childS3Client } from './child-s3';

const settings = loadSettings();
const s3 = childS3Client(settings);
const Bucket = settings['s3.bucket'];

const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://passthrough');
    const Key = url.searchParams.get('key') ?? 'passthrough';
    if (req.method === 'PUT') {
      await s3.send(new PutObjectCommand({ Bucket, Key, Body: req, ContentLength: Number(req.headers['content-length']) }));
      res.writeHead(204).end();
      return;
    }
    const out = await s3.send(new GetObjectCommand({ Bucket, Key, VersionId: url.searchParams.get('version') ?? undefined }));
    res.writeHead(200, { 'Content-Length': String(out.ContentLength) });
    await pipeline(out.Body as Readable, res);
  } catch (err) {
    if (!res.headersSent) res.writeHead(502).end((err as Error).message);
    else res.destroy();
  }
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('disconnect', () => {
  server.close();
  s3.destroy();
  process.exit(0);
});
