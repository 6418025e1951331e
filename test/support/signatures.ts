// Helpers for the signatures tests: a tenant subscribed to SIGNATURES with its users, signing
// schemas, and PDFs generated with pdf-lib (a real PDF library, not hand-written bytes).
import { randomUUID } from 'node:crypto';
import { degrees, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { expect } from 'vitest';
import { client, type TestContext, type Who } from './app';
import { seedTenant } from './fixtures';

export const SIG_BASE = '/api/signature-definitions';

/** A valid signing schema: two signers (sequential), a SIGNATURE field each, one required variable. */
export const validSigningSchema = (pageCount = 2, key: string = randomUUID()) => ({
  document: { key, name: 'contract.pdf', pageCount },
  signers: [
    { id: 'employee', label: 'Employee', order: 1, verify: 'NONE', color: '#1f77b4' },
    { id: 'manager', label: 'Manager', order: 2 },
  ],
  fields: [
    { id: 'f1', signerId: 'employee', type: 'SIGNATURE', page: 1, x: 72, y: 600, w: 180, h: 50 },
    { id: 'f2', signerId: 'employee', type: 'DATE', page: 1, x: 300, y: 600, w: 100, h: 20 },
    { id: 'f3', signerId: 'manager', type: 'SIGNATURE', page: pageCount, x: 72, y: 700, w: 180, h: 50 },
  ],
  variables: [{ key: 'salary', label: 'Salary', required: true }],
  routing: 'sequential',
});

/** A tenant subscribed to `capabilities`: owner, editor, other (read-write), reader (read), outsider (no grant). */
export async function seedDefinitionTenant(ctx: TestContext, capability: string) {
  const t = await seedTenant(ctx, { members: ['editor', 'other', 'reader', 'outsider'], subscribe: [capability] });
  const api = client(ctx);
  for (const [user, level] of [
    [t.owner, 'read-write'],
    ['editor', 'read-write'],
    ['other', 'read-write'],
    ['reader', 'read'],
  ] as const) {
    const r = await api.put(`/api/tenants/${t.id}/users/${user}/capabilities/${capability}`, t.asOwner, { level });
    expect(r.status, r.text).toBe(200);
  }
  return t;
}

/** A PDF of `pages` A4 pages; `rotate` gives page i (0-based) that rotation. */
export async function makePdf(pages: number, rotate: Record<number, number> = {}, opts: { encrypt?: boolean } = {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`Page ${i + 1}`, { x: 72, y: 760, size: 24 });
    if (rotate[i] !== undefined) page.setRotation(degrees(rotate[i]!));
  }
  const bytes = Buffer.from(await doc.save({ useObjectStreams: !opts.encrypt }));
  return opts.encrypt ? withEncryptDictionary(bytes) : bytes;
}

/**
 * A one-page PDF carrying a signature field whose value is a signature dictionary, the shape every
 * signed PDF has (the signature bytes themselves do not matter to the upload check).
 */
export async function makeSignedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595.28, 841.89]);
  const signature = doc.context.register(
    doc.context.obj({ Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: 'ETSI.CAdES.detached', ByteRange: [0, 0, 0, 0], Contents: PDFHexString.of('00') }),
  );
  const field = doc.context.register(
    doc.context.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', T: PDFString.of('Signature1'), Rect: [0, 0, 0, 0], F: 132, V: signature, P: page.ref }),
  );
  page.node.addAnnot(field);
  doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [field], SigFlags: 3 }));
  return Buffer.from(await doc.save());
}

/**
 * The PDF with an /Encrypt entry in its trailer (what every encrypted PDF has; pdf-lib cannot
 * write encryption, and refuses to load a file carrying it).
 */
function withEncryptDictionary(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const at = text.lastIndexOf('trailer');
  const dict = text.indexOf('<<', at);
  return Buffer.from(`${text.slice(0, dict + 2)}\n/Encrypt << /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>${text.slice(dict + 2)}`, 'latin1');
}

/** A multipart body with one part `name` (default `file`). */
export function pdfUpload(who: Who, data: Buffer, opts: { filename?: string; name?: string } = {}): RequestInit {
  const boundary = `----sig${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${opts.name ?? 'file'}"; filename="${opts.filename ?? 'contract.pdf'}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const body = Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const headers: Record<string, string> = { 'X-User-Id': who.user, 'Content-Type': `multipart/form-data; boundary=${boundary}` };
  if (who.tenant) headers['X-Tenant-Id'] = who.tenant;
  return { method: 'POST', headers, body };
}
