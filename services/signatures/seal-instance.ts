// The seal of a COMPLETED campaign (issue 13 §4, the ceremony's side): gather the marks from the
// pinned version's fields and the recipients' PNGs, typed names and field values, the signers and
// the audit trail; call the sealer; store the PDF (SIGNATURES, COMPLIANCE retention, owned by the
// instance); SEALED. Any failure is FAILED with a reason that carries no personal data, and the
// step returns normally: sealing never throws.
import { findSignatureDefinitionName } from '../../db/queries/signature-definitions';
import { listSignatureInstanceEvents } from '../../db/queries/signature-instance-events';
import {
  findSignatureInstance,
  markSignatureInstanceSealed,
  markSignatureInstanceSealFailed,
  type SignatureInstanceRow,
} from '../../db/queries/signature-instances';
import { listSignatureRecipients, type SignatureRecipientRow } from '../../db/queries/signature-recipients';
import { AppError } from '../../domain/errors';
import type { SealState } from '../../domain/signatures/instance-states';
import type { SealMark, SealPdf, SealRequest, SealSigner } from '../../domain/signatures/seal-contract';
import { readDocumentBytes } from '../documents/read-document';
import type { CampaignDeps, SigningDocs } from './campaign-deps';
import { ceremonyCaller, storeCeremonyDocument } from './ceremony-documents';
import { recordEvent, sealEventOf } from './instance-events';
import { pinnedSchema } from './pinned-schema';
import { recipientBox, type RecipientBox } from './recipient-box';

/** The signing date as the campaign's time zone sees it, YYYY-MM-DD. */
export const signingDate = (at: Date, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/** Initials of a name: the first letter of each word, upper case ("Ann van Dijk" → "AVD"). */
export const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .join('');

interface Opened {
  recipient: SignatureRecipientRow;
  name: string;
  email: string;
  typedName: string | null;
  fieldValues: Record<string, string>;
}

function openRecipient(box: RecipientBox, row: SignatureInstanceRow, r: SignatureRecipientRow): Opened {
  const open = (part: Parameters<RecipientBox['open']>[2], sealed: string | null) => (sealed ? box.open(row.id, r.signerId, part, sealed) : null);
  return {
    recipient: r,
    name: open('name', r.nameSealed)!,
    email: open('email', r.emailSealed)!,
    typedName: open('typed-name', r.typedNameSealed),
    fieldValues: JSON.parse(open('field-values', r.fieldValuesSealed) ?? '{}') as Record<string, string>,
  };
}

async function sealRequest(deps: CampaignDeps, docs: SigningDocs, row: SignatureInstanceRow): Promise<SealRequest> {
  const box = recipientBox(deps.settings);
  const schema = await pinnedSchema(deps, row.versionId);
  if (!schema.document.key) throw new AppError('pdf-invalid', 'The pinned version has no source PDF');
  const caller = ceremonyCaller(row.tenantId, row.id);
  // A signer's one signature image fills every one of their fields: read it from storage once.
  const reads = new Map<string, Promise<Buffer>>();
  const read = (docId: string) => {
    if (!reads.has(docId)) reads.set(docId, readDocumentBytes(docs.registry, docs.store, caller, docId));
    return reads.get(docId)!;
  };
  const bySigner = new Map((await listSignatureRecipients(deps.db, { instanceId: row.id })).map((r) => [r.signerId, openRecipient(box, row, r)]));
  const marks: SealMark[] = [];
  for (const f of schema.fields) {
    const o = bySigner.get(f.signerId);
    if (!o?.recipient.signedAt) continue;
    const box = { page: f.page, x: f.x, y: f.y, w: f.w, h: f.h };
    switch (f.type) {
      case 'SIGNATURE':
        marks.push(o.recipient.signatureDocumentId ? { ...box, type: f.type, png: await read(o.recipient.signatureDocumentId) } : { ...box, type: f.type, typedText: o.typedName ?? o.name });
        break;
      case 'INITIALS':
        marks.push(o.recipient.initialsDocumentId ? { ...box, type: f.type, png: await read(o.recipient.initialsDocumentId) } : { ...box, type: f.type, typedText: initialsOf(o.typedName ?? o.name) });
        break;
      case 'DATE':
        marks.push({ ...box, type: f.type, text: signingDate(o.recipient.signedAt, row.timeZone) });
        break;
      case 'NAME':
        marks.push({ ...box, type: f.type, text: o.name });
        break;
      case 'TEXT':
        if (o.fieldValues[f.id]) marks.push({ ...box, type: f.type, text: o.fieldValues[f.id]! });
        break;
    }
  }
  const labels = new Map(schema.signers.map((s) => [s.id, s.label]));
  const signers: SealSigner[] = [...bySigner.values()].map((o) => ({
    signerId: o.recipient.signerId,
    label: labels.get(o.recipient.signerId) ?? o.recipient.signerId,
    name: o.name,
    email: o.email,
    signedAt: o.recipient.signedAt!.toISOString(),
  }));
  const definitionName = await findSignatureDefinitionName(deps.db, { id: row.definitionId });
  return {
    instanceId: row.id,
    sourcePdf: await read(schema.document.key),
    marks,
    signers,
    events: (await listSignatureInstanceEvents(deps.db, { instanceId: row.id })).map((e) => sealEventOf(box, e)),
    title: `${definitionName ?? 'Document'} (version ${row.version})`,
  };
}

/** The worker was started without a sealer: FAILED and retried until one is there. */
class SealerNotConfigured extends Error {
  override name = 'SealerNotConfigured';
}

/** A reason fit for a column and a log line: an error code or class, never a message (which may quote data). */
const reasonOf = (err: unknown) => (err instanceof AppError ? err.code : err instanceof Error ? err.name : 'Error');

export async function sealInstance(deps: CampaignDeps, docs: SigningDocs, sealPdf: SealPdf | undefined, tenantId: string, instanceId: string): Promise<SealState | null> {
  const row = await findSignatureInstance(deps.db, { tenantId, id: instanceId });
  if (!row || row.status !== 'COMPLETED') return null;
  if (row.sealStatus === 'SEALED') return 'SEALED';
  const box = recipientBox(deps.settings);
  try {
    if (!sealPdf) throw new SealerNotConfigured();
    const sealed = await sealPdf(await sealRequest(deps, docs, row));
    const docId = await storeCeremonyDocument(docs.storeDeps(), ceremonyCaller(tenantId, instanceId), {
      instanceId,
      filename: 'signed.pdf',
      contentType: 'application/pdf',
      bytes: sealed.pdf,
    });
    await deps.db.transaction(async (tx) => {
      await markSignatureInstanceSealed(tx, { tenantId, id: instanceId, sealedDocumentId: docId });
      await recordEvent(tx, box, { tenantId, instanceId, action: 'sealed' });
    });
    return 'SEALED';
  } catch (err) {
    const reason = reasonOf(err);
    deps.logger?.warn({ instanceId, reason }, 'seal failed; the ceremony retries it');
    await deps.db.transaction(async (tx) => {
      await markSignatureInstanceSealFailed(tx, { tenantId, id: instanceId, sealError: reason });
      await recordEvent(tx, box, { tenantId, instanceId, action: 'seal_failed' });
    });
    return 'FAILED';
  }
}
