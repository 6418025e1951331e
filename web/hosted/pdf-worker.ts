// pdf.js's worker, served from our own origin (CSP `worker-src 'self'`, no CDN) at a path named by
// its content hash, like the hosted scripts: the file of the installed pdfjs-dist, unchanged (it is
// a module worker, already built; bundling it again would only change its name).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Context } from 'hono';

interface Worker {
  code: string;
  hash: string;
}

let loaded: Promise<Worker> | undefined;

function worker(): Promise<Worker> {
  loaded ??= readFile(createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.min.mjs'), 'utf8').then((code) => ({
    code,
    hash: createHash('sha256').update(code).digest('hex').slice(0, 16),
  }));
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

/** The path the signing page hands pdf.js as its workerSrc. */
export const pdfWorkerPath = async () => `/hosted/pdfjs/worker.${(await worker()).hash}.mjs`;

/** GET /hosted/pdfjs/:file: the current worker under its own name, 404 for any other. */
export async function servePdfWorker(c: Context): Promise<Response> {
  const w = await worker();
  if (c.req.param('file') !== `worker.${w.hash}.mjs`) return c.text('Not found', 404, { 'X-Content-Type-Options': 'nosniff' });
  return c.body(w.code, 200, {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
  });
}
