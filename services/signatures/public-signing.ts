// The recipient's side of a campaign (issue 13 §3): the signing session (GET) and the signature
// (POST). The session marks the recipient R_OPENED and the campaign OPENED; the signature stores
// the PNG marks in the document store (never in the database), then in ONE transaction makes the
// recipient R_SIGNED, audits `consented` and `signed`, completes the campaign after its last
// signer, and writes the ceremony's `recipientSigned` outbox signal row.
import { enqueueSignal } from '../../db/outbox';
import { findSignatureInstanceById, markSignatureInstanceOpened, settleSignedInstance } from '../../db/queries/signature-instances';
import {
  findSignatureRecipientById,
  listSignatureRecipients,
  markSignatureRecipientOpened,
  markSignatureRecipientSigned,
} from '../../db/queries/signature-recipients';
import { AppError } from '../../domain/errors';
import type { ClientContext } from '../../domain/net/client-context';
import { SignatureCeremonyProcess } from '../../domain/signatures/ceremony-process';
import { ceremonyTarget } from '../../domain/signatures/ceremony-target';
import { isArmed } from '../../domain/signatures/instance-states';
import { orderGroups } from '../../domain/signatures/routing';
import { signingInputInvalid, type Issue } from '../../domain/signatures/signing-input';
import type { SigningSchema } from '../../domain/signatures/signing-schema';
import { markPngProblem } from '../../integrations/seal/mark-png';
import type { SignerCaller } from '../documents/registry-caller';
import { readDocumentBytes } from '../documents/read-document';
import type { CampaignDeps, SigningDocs } from './campaign-deps';
import { ceremonyCaller, storeCeremonyDocument } from './ceremony-documents';
import { recordEvent } from './instance-events';
import { pinnedSchema } from './pinned-schema';
import { recipientBox } from './recipient-box';
import { authorizedSigner, signingLinkNotFound } from './signer-access';

const now = (deps: CampaignDeps) => deps.clock?.() ?? new Date();

export async function openSession(deps: CampaignDeps, docs: SigningDocs, token: string, accessToken: string | undefined, client: ClientContext) {
  const signer = await authorizedSigner(deps.db, token, accessToken, now(deps));
  const { row, recipient } = signer;
  const schema = await pinnedSchema(deps, row.versionId);
  if (!schema.document.key) throw signingLinkNotFound();
  const pdf = await readDocumentBytes(docs.registry, docs.store, ceremonyCaller(row.tenantId, row.id), schema.document.key);
  if (recipient.status === 'R_PENDING') {
    await deps.db.transaction(async (tx) => {
      if (!(await markSignatureRecipientOpened(tx, { id: recipient.id }))) return;
      await markSignatureInstanceOpened(tx, { id: row.id });
      await recordEvent(tx, recipientBox(deps.settings), { tenantId: row.tenantId, instanceId: row.id, action: 'opened', signerId: recipient.signerId, client });
    });
  }
  const all = await listSignatureRecipients(deps.db, { instanceId: row.id });
  const groups = orderGroups(all).map((order) => ({ order, signed: all.filter((r) => r.order === order).every((r) => r.status === 'R_SIGNED') }));
  const label = schema.signers.find((s) => s.id === recipient.signerId)?.label ?? recipient.signerId;
  const declared = schema.variables.map((v) => v.key);
  const keys = [...declared.filter((k) => k in row.variables), ...Object.keys(row.variables).filter((k) => !declared.includes(k))];
  const labelOf = new Map(schema.variables.map((v) => [v.key, v.label || v.key]));
  const name = recipientBox(deps.settings).open(row.id, recipient.signerId, 'name', recipient.nameSealed);
  return {
    pdfBase64: pdf.toString('base64'),
    document: { name: schema.document.name, pageCount: schema.document.pageCount ?? null },
    fields: schema.fields.filter((f) => f.signerId === recipient.signerId),
    variables: row.variables,
    variableList: keys.map((key) => ({ key, label: labelOf.get(key) ?? key, value: row.variables[key]! })),
    signer: { id: recipient.signerId, label, name },
    status: recipient.status === 'R_PENDING' ? 'R_OPENED' : recipient.status,
    routing: { mode: schema.routing, order: recipient.order, groups: groups.length, signedGroups: groups.filter((g) => g.signed).map((g) => g.order) },
  };
}

export interface SignInput {
  signaturePng?: string;
  initialsPng?: string;
  typedName?: string;
  consent: boolean;
  fieldValues?: Record<string, string>;
}

function decodePng(value: string, path: string, maxBytes: number, issues: Issue[]): Buffer | null {
  // base64 is 4/3 of the bytes: refuse long input unread.
  if (value.length > Math.ceil(maxBytes / 3) * 4 + 4) {
    issues.push({ path, message: `larger than ${maxBytes} bytes` });
    return null;
  }
  const bytes = Buffer.from(value.replace(/^data:image\/png;base64,/, ''), 'base64');
  if (bytes.length <= maxBytes) return bytes;
  issues.push({ path, message: `larger than ${maxBytes} bytes` });
  return null;
}

/** The marks' pixels, checked once the input is otherwise valid (decoding is the costly part). */
async function checkMarkImages(marks: { signature: Buffer | null; initials: Buffer | null }) {
  const issues: Issue[] = [];
  for (const [path, bytes] of [['signaturePng', marks.signature], ['initialsPng', marks.initials]] as const) {
    const problem = bytes && (await markPngProblem(bytes));
    if (problem) issues.push({ path, message: problem });
  }
  if (issues.length) throw signingInputInvalid('Invalid signature', issues);
}

function checkSignature(schema: SigningSchema, signerId: string, input: SignInput, maxBytes: number) {
  const issues: Issue[] = [];
  if (input.consent !== true) issues.push({ path: 'consent', message: 'consent to sign electronically must be true' });
  const mine = schema.fields.filter((f) => f.signerId === signerId);
  const signature = input.signaturePng ? decodePng(input.signaturePng, 'signaturePng', maxBytes, issues) : null;
  const initials = input.initialsPng ? decodePng(input.initialsPng, 'initialsPng', maxBytes, issues) : null;
  if (mine.some((f) => f.type === 'SIGNATURE') && !input.signaturePng && !input.typedName?.trim()) {
    issues.push({ path: 'signaturePng', message: 'a drawn signature (signaturePng) or a typed name (typedName) is required' });
  }
  const text = new Set(mine.filter((f) => f.type === 'TEXT').map((f) => f.id));
  for (const id of Object.keys(input.fieldValues ?? {})) {
    if (!text.has(id)) issues.push({ path: `fieldValues.${id}`, message: 'not a TEXT field of this signer' });
  }
  if (issues.length) throw signingInputInvalid('Invalid signature', issues);
  return { signature, initials };
}

const alreadySigned = () => new AppError('signature-state-conflict', 'This recipient has already signed', { recipientStatus: 'R_SIGNED' });

export async function sign(deps: CampaignDeps, docs: SigningDocs, token: string, accessToken: string | undefined, input: SignInput, client: ClientContext) {
  const { row, recipient } = await authorizedSigner(deps.db, token, accessToken, now(deps));
  if (recipient.status === 'R_SIGNED') throw alreadySigned();
  const schema = await pinnedSchema(deps, row.versionId);
  const marks = checkSignature(schema, recipient.signerId, input, deps.settings['signatures.signature-png-max-bytes']);
  await checkMarkImages(marks);
  const caller: SignerCaller = { kind: 'signer', tenantId: row.tenantId, capability: 'SIGNATURES', processRef: row.id, signerId: recipient.signerId };
  const store = (bytes: Buffer, name: string) =>
    storeCeremonyDocument(docs.storeDeps(), caller, { instanceId: row.id, filename: `${recipient.signerId}-${name}.png`, contentType: 'image/png', bytes });
  const signatureDocumentId = marks.signature ? await store(marks.signature, 'signature') : null;
  const initialsDocumentId = marks.initials ? await store(marks.initials, 'initials') : null;
  const box = recipientBox(deps.settings);

  return deps.db.transaction(async (tx) => {
    // The campaign row first: signatures of one campaign are serialised, so the last one sees all others.
    const live = await findSignatureInstanceById(tx, { id: row.id, forUpdate: true });
    const current = await findSignatureRecipientById(tx, { id: recipient.id, forUpdate: true });
    if (!live || !current || (live.status !== 'PENDING' && live.status !== 'OPENED')) throw signingLinkNotFound();
    if (current.status === 'R_SIGNED') throw alreadySigned();
    if (!isArmed(current.status)) throw signingLinkNotFound();
    const typed = input.typedName?.trim();
    await markSignatureRecipientSigned(tx, {
      id: recipient.id,
      openedAt: current.openedAt,
      signatureDocumentId,
      initialsDocumentId,
      typedNameSealed: typed ? box.seal(row.id, recipient.signerId, 'typed-name', typed) : null,
      fieldValuesSealed: input.fieldValues ? box.seal(row.id, recipient.signerId, 'field-values', JSON.stringify(input.fieldValues)) : null,
    });
    const event = { tenantId: row.tenantId, instanceId: row.id, signerId: recipient.signerId, client };
    await recordEvent(tx, box, { ...event, action: 'consented' });
    await recordEvent(tx, box, { ...event, action: 'signed' });
    const others = (await listSignatureRecipients(tx, { instanceId: row.id })).filter((r) => r.id !== recipient.id);
    const complete = others.every((r) => r.status === 'R_SIGNED');
    const updated = await settleSignedInstance(tx, { id: row.id, complete });
    if (complete) await recordEvent(tx, box, { tenantId: row.tenantId, instanceId: row.id, action: 'completed' });
    await enqueueSignal(tx, ceremonyTarget(row), SignatureCeremonyProcess.signals.recipientSigned, { signerId: recipient.signerId });
    return { signerId: recipient.signerId, status: 'R_SIGNED' as const, instanceStatus: updated.status };
  });
}
