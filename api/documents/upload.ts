// POST /api/documents: the multipart envelope. busboy parses the request; the fields must come
// before the file part, whose stream goes to storeDocument (guard, byte cap and hash, S3, scan,
// finalize) as it arrives. What is decided here is only about the envelope: its fields, a part
// after the file, a body that ends before the length its Content-Length promised.
import busboy from 'busboy';
import type { Context } from 'hono';
import { Readable } from 'node:stream';
import { ENVELOPE_BYTES, guaranteedFileBytes } from '../../domain/documents/multipart-envelope';
import { AppError, badRequest } from '../../domain/errors';
import { HeadNotReached } from '../../integrations/docstore/head-split';
import type { DocumentView } from '../../services/documents/document-view';
import type { AuthorizeInput, RegistryCaller } from '../../services/documents/registry-client';
import { documentTooLarge, storeDocument, type BodyEnvelope } from '../../services/documents/store-document';
import type { AppEnv } from '../env';
import { registryCaller } from './request-parts';
import type { DocumentsRuntime } from './runtime';
import { MIME_TYPE, UploadFields } from './schemas';
import { countDocumentBytes } from '../../integrations/metrics/documents';

/** Who uploads, under which fields and cap, and where the stored document is found: the proxy's user by default, an embed session on the public route. */
export interface UploadTarget {
  caller: RegistryCaller;
  maxBytes: number;
  /** The authorize fields from the multipart fields (which came before the file). */
  fieldsOf(fields: Record<string, string>): Omit<AuthorizeInput, 'filename' | 'contentType'>;
  location(view: DocumentView): string;
  /** The 201 body. */
  present(view: DocumentView): unknown;
}

/** The proxy's POST /api/documents: the identity middleware's user, fields from the form parts. */
export function userUploadTarget(c: Context<AppEnv>): UploadTarget {
  return {
    caller: registryCaller(c),
    maxBytes: c.get('deps').settings['docstore.max-bytes'],
    fieldsOf(fields) {
      const meta = UploadFields.safeParse(fields);
      if (!meta.success) {
        const issue = meta.error.issues[0];
        throw badRequest('validation-failed', `Invalid upload field ${issue?.path.join('.')}: ${issue?.message}`);
      }
      return meta.data;
    },
    location: (view) => `/api/documents/${view.id}`,
    present: (view) => view,
  };
}

export async function uploadDocument(c: Context<AppEnv>, rt: DocumentsRuntime, target: UploadTarget = userUploadTarget(c)): Promise<Response> {
  const { maxBytes, caller } = target;
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new AppError('multipart-required', 'Upload a file as multipart/form-data');
  }
  const declared = Number(c.req.header('content-length') ?? Number.NaN);
  // Cheap early refusal; the exact cap is enforced on the file stream either way.
  if (Number.isFinite(declared) && declared > maxBytes + ENVELOPE_BYTES) throw documentTooLarge(maxBytes);
  const store = rt.requireStore();
  const log = c.get('log');

  const source = requestBody(c);
  let fed = 0;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      preservePath: true, // traversal in a filename must reach the validator, not be cut off silently
      defParamCharset: 'utf8',
      limits: { files: 1, fields: 10, fieldSize: 1024, fieldNameSize: 64 },
    });
  } catch {
    throw badRequest('malformed-multipart', 'The multipart Content-Type has no usable boundary');
  }

  const fields: Record<string, string> = {};
  let fileSeen = false;
  let lateError: AppError | undefined;
  let parseError: AppError | undefined;
  let resolveHandled!: (r: Response) => void;
  let rejectHandled!: (err: unknown) => void;
  // Settles with the file's outcome; an error answers at once, without waiting for the rest of the body.
  const handled = new Promise<Response>((res, rej) => {
    resolveHandled = res;
    rejectHandled = rej;
  });
  const parsed = new Promise<void>((resolve, reject) => {
    parser.on('field', (name: string, value: string, info: busboy.FieldInfo) => {
      if (fileSeen) lateError ??= badRequest('field-after-file', `Field ${name} came after the file; send fields first`);
      else if (info.valueTruncated || info.nameTruncated) lateError ??= badRequest('field-too-long', `Field ${name} is too long`);
      else fields[name] = value;
    });
    // With limits.files = 1 busboy never announces a second file (it raises filesLimit instead).
    parser.on('file', (name: string, stream: Readable, info: busboy.FileInfo) => {
      fileSeen = true;
      storeFile(name, stream, info, guaranteedFileBytes(declared, fed, contentType)).then(resolveHandled, rejectHandled);
    });
    for (const limit of ['filesLimit', 'fieldsLimit']) {
      parser.on(limit, () => (lateError ??= badRequest('too-many-parts', 'One file part and at most ten fields')));
    }
    parser.on('close', resolve);
    parser.on('error', (err: unknown) => {
      parseError = badRequest('malformed-multipart', `The multipart body is malformed or incomplete: ${(err as Error).message}`);
      reject(parseError);
    });
  });
  parsed.then(
    () => {
      if (!fileSeen) rejectHandled(lateError ?? badRequest('file-part-missing', 'The multipart body has no file part'));
    },
    (err) => {
      if (!fileSeen) rejectHandled(err);
    },
  );
  // After the file: a parse error or a late field, whichever the body showed, is the answer.
  const envelope: BodyEnvelope = {
    async complete() {
      await parsed;
      if (lateError) throw lateError;
    },
    async explain(err) {
      if (err instanceof HeadNotReached) {
        // The file ended before its promised length: what followed it names the error.
        await parsed.catch(() => {});
        return (
          parseError ??
          lateError ??
          badRequest('multipart-trailing-data', `More than ${ENVELOPE_BYTES} bytes follow the file part; the file must be the last part`)
        );
      }
      return parseError ?? lateError;
    },
  };

  source.on('error', (err) => parser.destroy(err));
  // Request bytes handed to the parser so far: when the file part starts, Content-Length minus
  // this (and the closing boundary) is a lower bound on the file's size, which lets the first
  // S3 part stream without being collected. Listening before pipe() counts a chunk by the time
  // the parser sees it; chunks the parser has not reached yet only lower the bound.
  source.on('data', (chunk: Buffer) => (fed += chunk.length));
  source.pipe(parser);

  async function storeFile(name: string, file: Readable, info: busboy.FileInfo, knownMinBytes: number): Promise<Response> {
    try {
      if (name !== 'file') throw badRequest('file-part-name', 'The file part must be named "file"');
      if (lateError) throw lateError;
      const meta = target.fieldsOf(fields);
      if (!info.filename) throw badRequest('filename-required', 'The file part needs a filename');
      const type = MIME_TYPE.test(info.mimeType) ? info.mimeType : 'application/octet-stream';
      const view = await storeDocument({ ...rt.storeDeps(store, log), maxBytes }, caller, {
        ...meta,
        filename: info.filename,
        contentType: type,
        body: file,
        knownMinBytes,
        envelope,
      });
      countDocumentBytes('upload', view.sizeBytes ?? 0);
      return c.json(target.present(view), 201, { Location: target.location(view) });
    } catch (err) {
      // Let busboy read on to the end, so the answer is not held up by an unread body.
      file.resume();
      throw err;
    }
  }

  return handled;
}

/** The raw Node request when served by @hono/node-server (no web-stream hop), else the fetch body. */
function requestBody(c: Context<AppEnv>): Readable {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (incoming instanceof Readable) return incoming;
  const body = c.req.raw.body;
  if (!body) throw badRequest('file-part-missing', 'The request has no body');
  return Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
}
