// GET /api/documents/{docId}/content: resolve through the registry (guard: read; 409 not
// READY, 423 QUARANTINED), then stream the pinned version from S3. One Range gives 206;
// several ranges get the whole body with 200 (RFC 9110 lets a server ignore Range).
import type { Context } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { countDocumentBytes } from '../../integrations/metrics/documents';
import { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { contentDisposition } from '../../domain/documents/content-disposition';
import { contentRangeHeader, parseRange } from '../../domain/documents/range';
import { physicalKey } from '../../domain/documents/storage-key';
import { AppError } from '../../domain/errors';
import type { AppEnv } from '../env';
import { problem } from '../middleware/errors';
import { registryCaller } from './request-parts';
import type { DocumentsRuntime } from './runtime';

export async function downloadDocument(c: Context<AppEnv>, rt: DocumentsRuntime, docId: string): Promise<Response> {
  const store = rt.requireStore();
  const caller = registryCaller(c);
  const r = await rt.registry.resolve(caller, docId);
  const size = r.document.sizeBytes ?? 0;
  const etag = `"${r.document.sha256}"`;
  // If-Range naming another representation means "send it whole".
  const ifRange = c.req.header('If-Range');
  const range = ifRange !== undefined && ifRange !== etag ? ({ kind: 'none' } as const) : parseRange(c.req.header('Range'), size);
  const headers: Record<string, string> = {
    'Accept-Ranges': 'bytes',
    ETag: etag,
    'Cache-Control': 'private, no-cache',
  };
  if (range.kind === 'unsatisfiable') {
    for (const [k, v] of Object.entries(headers)) c.header(k, v);
    c.header('Content-Range', contentRangeHeader(null, size));
    return problem(c, 'range-not-satisfiable', `The range is outside the document's ${size} bytes`);
  }
  const single = range.kind === 'single' ? { start: range.start, end: range.end } : undefined;
  let read;
  try {
    read = await store.read(physicalKey(caller.tenantId, r.storageKey), r.storageVersionId, single);
  } catch (err) {
    c.get('log').warn({ docId, err: (err as Error).message }, 'reading a document from storage failed');
    throw new AppError('storage-unavailable', 'Object storage did not return the document');
  }
  const length = single ? single.end - single.start + 1 : size;
  Object.assign(headers, {
    'Content-Type': r.document.contentType,
    'Content-Length': String(length),
    'Content-Disposition': contentDisposition(r.document.filename),
    'X-Content-Type-Options': 'nosniff',
  });
  if (single) headers['Content-Range'] = contentRangeHeader(single, size);
  const status = single ? 206 : 200;
  countDocumentBytes('download', length);
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (outgoing instanceof ServerResponse) {
    // Served by @hono/node-server: pipe S3's Node stream straight into the socket (no web-stream hop).
    outgoing.writeHead(status, { ...headers, 'X-Request-Id': c.get('requestId') });
    pipeline(read.body, outgoing).catch((err: Error) => c.get('log').debug({ docId, err: err.message }, 'download stream ended early'));
    return RESPONSE_ALREADY_SENT;
  }
  const body = Readable.toWeb(read.body) as unknown as WebReadableStream<Uint8Array>;
  return c.body(body as unknown as ReadableStream, status, headers);
}
