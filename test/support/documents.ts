// Helpers for the documents tests: real S3 (the run's SeaweedFS), multipart bodies (buffered
// or streamed without Content-Length), and a recorder of every response the tests receive,
// so each file can prove that none of them carried a storage key.
import type { S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { documents } from '../../db/schema/documents';
import { createS3Client } from '../../workers/runtime';
import type { Settings } from '../../domain/settings';
import { testSettings, type TestContext, type Who } from './app';
import { servers } from './servers';

/** The production S3 client (createS3Client) on the test S3, with the default settings unless overridden. */
export function testS3Client(overrides: Partial<Settings> = {}): S3Client {
  const s3 = servers().s3;
  return createS3Client(testSettings({ 's3.region': s3.region, ...overrides }), {
    endpoint: s3.endpoint,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });
}

export interface Recorded {
  where: string;
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

/** Collects every response a test file receives (proxy, registry, and the registry client's own calls). */
export class ResponseRecorder {
  readonly seen: Recorded[] = [];

  async record(where: string, res: Response): Promise<{ status: number; headers: Headers; body: Buffer; text: string; json: any }> {
    const body = Buffer.from(await res.arrayBuffer());
    this.seen.push({ where, status: res.status, headers: [...res.headers], body });
    const text = body.toString('utf8');
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, body, text, json };
  }

  /** A fetch that records what it receives (a clone, so the caller still reads the body). */
  wrapFetch(inner: typeof fetch = fetch): typeof fetch {
    return (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
      const res = await inner(input, init);
      await this.record(`fetch ${String(input)}`, res.clone());
      return res;
    }) as typeof fetch;
  }

  /**
   * The leak check: no recorded body or header contains any storage key of the file's
   * database, whether tenant-relative, physical, or just its `{docId}-{slug}` object name.
   */
  async expectNoStorageKeys(ctx: TestContext) {
    const rows = await ctx.db.db.select({ tenantId: documents.tenantId, storageKey: documents.storageKey }).from(documents);
    expect(rows.length).toBeGreaterThan(0);
    expect(this.seen.length).toBeGreaterThan(0);
    const needles = rows.flatMap((r) => [r.storageKey, `${r.tenantId}/${r.storageKey}`, r.storageKey.split('/').pop()!]);
    const leaks: string[] = [];
    for (const r of this.seen) {
      const text = r.body.toString('latin1') + '\n' + r.body.toString('utf8');
      const head = r.headers.map(([k, v]) => `${k}: ${v}`).join('\n');
      for (const n of needles) {
        if (text.includes(n) || head.includes(n)) leaks.push(`${r.where} (${r.status}) carries ${n}`);
      }
    }
    expect(leaks).toEqual([]);
  }
}

export interface FilePart {
  filename: string;
  data: Buffer;
  contentType?: string;
  /** Raw Content-Disposition parameters instead of filename="..." (e.g. an RFC 5987 filename*). */
  rawDisposition?: string;
  name?: string;
}

export interface MultipartSpec {
  fields: Record<string, string>;
  file?: FilePart;
  /** Put these fields after the file part. */
  trailingFields?: Record<string, string>;
  /** Bytes after the closing delimiter (RFC 2046 lets a body end with an epilogue). */
  epilogue?: string;
}

export function multipart(spec: MultipartSpec): { head: Buffer; data: Buffer; tail: Buffer; contentType: string; length: number } {
  const boundary = `----docs${randomBytes(12).toString('hex')}`;
  const field = (k: string, v: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  let head = Object.entries(spec.fields).map(([k, v]) => field(k, v)).join('');
  let data: Buffer = Buffer.alloc(0);
  if (spec.file) {
    const f = spec.file;
    const disp = f.rawDisposition ?? `filename="${f.filename}"`;
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${f.name ?? 'file'}"; ${disp}\r\nContent-Type: ${f.contentType ?? 'application/octet-stream'}\r\n\r\n`;
    data = f.data;
  }
  const trailing = Object.entries(spec.trailingFields ?? {}).map(([k, v]) => field(k, v)).join('');
  const tail = Buffer.from(`${spec.file ? '\r\n' : ''}${trailing}--${boundary}--\r\n${spec.epilogue ?? ''}`);
  const h = Buffer.from(head, 'utf8');
  return { head: h, data, tail, contentType: `multipart/form-data; boundary=${boundary}`, length: h.length + data.length + tail.length };
}

/** Request init for an upload: a Buffer with Content-Length, or a chunked stream without it. */
export function uploadInit(who: Who, spec: MultipartSpec, opts: { contentLength?: boolean; chunkBytes?: number } = {}): RequestInit {
  const m = multipart(spec);
  const headers: Record<string, string> = { 'X-User-Id': who.user, 'Content-Type': m.contentType };
  if (who.tenant) headers['X-Tenant-Id'] = who.tenant;
  if (opts.contentLength !== false) {
    headers['Content-Length'] = String(m.length);
    return { method: 'POST', headers, body: Buffer.concat([m.head, m.data, m.tail]) };
  }
  const chunk = opts.chunkBytes ?? 16 * 1024;
  const parts = [m.head, m.data, m.tail];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const p of parts) for (let at = 0; at < p.length; at += chunk) controller.enqueue(new Uint8Array(p.subarray(at, at + chunk)));
      controller.close();
    },
  });
  return { method: 'POST', headers, body, duplex: 'half' } as RequestInit;
}

/** Bytes with a recognisable pattern, so a wrong range or a shifted offset cannot match. */
export function patterned(size: number, seed = 7): Buffer {
  const b = Buffer.allocUnsafe(size);
  let x = seed >>> 0;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

type Fetchable = { request(path: string, init?: RequestInit): Response | Promise<Response> };

/** Requests against an app (app.request) or a listening server (base URL), all recorded. */
export function docApi(target: () => Fetchable | string, rec: ResponseRecorder, internalKey?: string) {
  const send = async (path: string, init: RequestInit) => {
    const t = target();
    const res = typeof t === 'string' ? await fetch(`${t}${path}`, init) : await t.request(path, init);
    return rec.record(`${init.method ?? 'GET'} ${path}`, res);
  };
  const headersFor = (who: Who | null, extra: Record<string, string> = {}) => {
    const h: Record<string, string> = { ...extra };
    if (who) {
      h['X-User-Id'] = who.user;
      if (who.tenant) h['X-Tenant-Id'] = who.tenant;
    }
    return h;
  };
  const json = (method: string, path: string, who: Who | null, body?: unknown, extra: Record<string, string> = {}) =>
    send(path, {
      method,
      headers: headersFor(who, body === undefined ? extra : { 'Content-Type': 'application/json', ...extra }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    send,
    upload: (who: Who, spec: MultipartSpec, opts?: { contentLength?: boolean; chunkBytes?: number }) =>
      send('/api/documents', uploadInit(who, spec, opts)),
    get: (path: string, who: Who | null, extra?: Record<string, string>) => json('GET', path, who, undefined, extra),
    del: (path: string, who: Who | null, extra?: Record<string, string>) => json('DELETE', path, who, undefined, extra),
    post: (path: string, who: Who | null, body?: unknown, extra?: Record<string, string>) => json('POST', path, who, body, extra),
    /** The registry's internal routes with X-Internal-Key (override it with extra headers). */
    internal: (method: string, path: string, who: Who | null, body?: unknown, extra: Record<string, string> = {}) =>
      json(method, `/api/internal/documents${path}`, who, body, { 'X-Internal-Key': internalKey ?? '', ...extra }),
  };
}

export type DocApi = ReturnType<typeof docApi>;

export const DOC_CAPABILITIES = ['FORMS', 'SIGNATURES', 'EMAIL'] as const;

/** Upload fields for a FORMS attachment (the carve-out: no started process needed). */
export const formFields = (processRef: string, extra: Record<string, string> = {}) => ({
  processRef,
  kind: 'FORM_ATTACHMENT',
  capability: 'FORMS',
  ...extra,
});

/**
 * A tenant subscribed to FORMS, SIGNATURES and EMAIL with: `writer` (read-write on all),
 * `reader` (read on all), `nobody` (member without grants), `formsOnly` (read-write FORMS only).
 */
export async function seedDocTenant(ctx: TestContext) {
  const { seedTenant } = await import('./fixtures');
  return seedTenant(ctx, {
    members: ['writer', 'reader', 'nobody', 'formsOnly'],
    subscribe: [...DOC_CAPABILITIES],
    grants: [
      ...DOC_CAPABILITIES.map((code) => ({ user: 'writer', code, level: 'read-write' as const })),
      ...DOC_CAPABILITIES.map((code) => ({ user: 'reader', code, level: 'read' as const })),
      { user: 'formsOnly', code: 'FORMS', level: 'read-write' as const },
    ],
  });
}

/** Every version, delete marker and unfinished multipart upload under a key prefix. */
export async function s3State(s3: S3Client, bucket: string, prefix: string) {
  const { ListObjectVersionsCommand, ListMultipartUploadsCommand } = await import('@aws-sdk/client-s3');
  const v = await s3.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: prefix }));
  const u = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }));
  return {
    versions: (v.Versions ?? []).map((x) => ({ key: x.Key!, versionId: x.VersionId!, size: x.Size ?? 0, latest: !!x.IsLatest })),
    deleteMarkers: (v.DeleteMarkers ?? []).map((x) => ({ key: x.Key!, latest: !!x.IsLatest })),
    uploads: (u.Uploads ?? []).map((x) => x.Key!),
  };
}

/** The registry row straight from the database (server-side view, storage key included). */
export async function documentRow(ctx: TestContext, id: string) {
  const { eq } = await import('drizzle-orm');
  const rows = await ctx.db.db.select().from(documents).where(eq(documents.id, id));
  return rows[0];
}
