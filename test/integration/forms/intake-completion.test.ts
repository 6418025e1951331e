// The formIntake process completed (docs/forms.md "Durable intake"): attachments mirrored to the
// intake (spec rule 5), the submission PDF rendered in the worker (real Chromium, S3, ClamAV
// settings of the run) and listed in the inbox and the case's documents, and `workflow:<type>`
// handling ending PROCESSED with the child's run id. Real PostgreSQL and Temporal.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowIdFor } from '../../../db/outbox';
import { physicalKey } from '../../../domain/documents/storage-key';
import { createObjectStore } from '../../../integrations/docstore/object-store';
import { createScanner } from '../../../integrations/docstore/scanner';
import { DocumentRegistry } from '../../../services/documents/document-registry';
import { storeDocument } from '../../../services/documents/store-document';
import { UploadSlots } from '../../../services/documents/upload-slots';
import { makeSubmissionPdf } from '../../../services/forms/intake-documents';
import { RenderQueue } from '../../../services/forms/render-queue';
import { client, useTestApp } from '../../support/app';
import { documentRow, testS3Client } from '../../support/documents';
import { uniqueId } from '../../support/fixtures';
import { startFormRail } from '../../support/form-rail';
import { seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';

describe('formIntake: attachments, submission PDF, workflow handling', () => {
  const s3 = testS3Client();
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY, deps: { s3 } });
  let rail: Awaited<ReturnType<typeof startFormRail>>;
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  const dir = mkdtempSync(join(tmpdir(), 'intake-pdf-'));

  beforeAll(async () => {
    rail = await startFormRail(ctx);
    t = await seedFormsTenant(ctx);
  });
  afterAll(async () => {
    await rail?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = () => client(ctx);
  const submit = async (token: string, body: Record<string, unknown>) => {
    const r = await api().post(`/api/public/embed/${token}/submit`, null, body);
    expect(r.status, r.text).toBe(201);
    return r.json.id as string;
  };
  const runIntake = async (id: string) => {
    await rail.dispatcher.dispatchOnce();
    return rail.client.workflow.getHandle(workflowIdFor('FORMS', t.id, id)).result();
  };
  const view = async (id: string) => (await api().get(`/api/form-instances/${id}`, t.asOwner)).json;
  /** What the embed helper's /api/public/documents/link leaves: a READY FORMS attachment owned by the instance. */
  const attach = async (processRef: string, instanceId: string, filename: string) => {
    const logger = pino({ level: 'silent' });
    const deps = {
      registry: new DocumentRegistry({ db: ctx.db.db, settings: ctx.settings, logger }),
      store: createObjectStore(ctx.settings, s3)!,
      scanner: createScanner(ctx.settings),
      uploadSlots: new UploadSlots(2),
      maxBytes: ctx.settings['docstore.max-bytes'],
      now: () => new Date(),
      log: logger,
    };
    const caller = { kind: 'workflow' as const, tenantId: t.id, capability: 'FORMS' as const, workflowId: 'embed-link' };
    return storeDocument(deps, caller, {
      processRef,
      kind: 'FORM_ATTACHMENT',
      capability: 'FORMS',
      taskId: null,
      ownerEntityId: instanceId,
      filename,
      contentType: 'text/plain',
      body: Readable.from([Buffer.from('scan of a card')]),
    });
  };
  const pdfText = async (docId: string) => {
    const row = (await documentRow(ctx, docId))!;
    const out = await s3.send(new GetObjectCommand({ Bucket: ctx.settings['s3.bucket'], Key: physicalKey(t.id, row.storageKey), VersionId: row.storageVersionId! }));
    const file = join(dir, `${uniqueId('p')}.pdf`);
    writeFileSync(file, Buffer.from(await out.Body!.transformToByteArray()));
    return { row, text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }) };
  };

  it('attachments get the intake run id; the PDF is stored under the processRef, in the inbox and in the case documents', async () => {
    const { token, def } = await publishedForm(ctx, t.asOwner, { submissionHandling: 'store' });
    const processRef = uniqueId('session');
    const id = await submit(token, { data: { name: 'Ada Lovelace', email: 'ada@example.com' }, processRef });
    const doc = await attach(processRef, id, 'card.txt');
    expect((await documentRow(ctx, doc.id))!.processInstanceId).toBeNull();

    const result = await runIntake(id);
    expect(result).toMatchObject({ outcome: 'stored' });
    expect((await documentRow(ctx, doc.id))!.processInstanceId).toBe(result.processInstanceId);

    const v = await view(id);
    expect(v).toMatchObject({ state: 'PROCESSED', context: { processRef }, attachments: [{ docId: doc.id, filename: 'card.txt', sizeBytes: 14 }] });
    expect(v.submissionPdf).toEqual({ docId: expect.any(String) });
    const { row, text } = await pdfText(v.submissionPdf.docId);
    expect(row).toMatchObject({ kind: 'FORM_SUBMISSION_PDF', capability: 'FORMS', status: 'READY', processRef, ownerEntityId: id, processInstanceId: result.processInstanceId });
    expect(row.createdBy).toBe(`workflow:${workflowIdFor('FORMS', t.id, id)}`);
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain(def.code);

    const inbox = (await api().get(`/api/form-instances?definitionCode=${def.code}`, t.asOwner)).json;
    expect(inbox.items).toEqual([expect.objectContaining({ id, submissionPdf: { docId: v.submissionPdf.docId } })]);
    const docs = await api().get(`/api/documents?processRef=${processRef}`, t.asOwner);
    expect(docs.status, docs.text).toBe(200);
    expect(docs.json.items.map((d: { id: string }) => d.id).sort()).toEqual([doc.id, v.submissionPdf.docId].sort());
  });

  it('a submission without a processRef gets its process business key as its case; its PDF lives there', async () => {
    const { token } = await publishedForm(ctx, t.asOwner);
    const id = await submit(token, { data: { email: 'bo@example.com' } });
    await runIntake(id);
    const v = await view(id);
    expect(v.context.processRef).toBe(`SM-${id}`);
    expect((await documentRow(ctx, v.submissionPdf.docId))!.processRef).toBe(`SM-${id}`);
    expect(v.attachments).toEqual([]);
    // Made once: a repeated step (an activity retry, a retried intake) answers the stored PDF without printing.
    const refuse = () => Promise.reject(new Error('printed again'));
    const again = await makeSubmissionPdf(
      {
        db: ctx.db.db,
        render: { printer: { printPdf: refuse, close: async () => {} }, queue: new RenderQueue({ concurrency: 1, queueSize: 0 }) },
        store: () => {
          throw new Error('stored again');
        },
        log: pino({ level: 'silent' }),
      },
      { tenantId: t.id, instanceId: id, workflowId: 'again' },
    );
    expect(again).toEqual(v.submissionPdf);
  });

  it('a PDF that can never be stored (an unusable processRef) is recorded and the submission is still processed', async () => {
    const { token } = await publishedForm(ctx, t.asOwner);
    const id = await submit(token, { data: { email: 'cy@example.com' }, processRef: '../escape' });
    expect(await runIntake(id)).toMatchObject({ outcome: 'stored' });
    const v = await view(id);
    expect(v).toMatchObject({ state: 'PROCESSED', submissionPdf: null, context: { submissionPdfError: expect.stringContaining('processRef') } });
  });

  it('submissionHandling workflow:<type>: the named workflow receives the submission; PROCESSED with its run id', async () => {
    const { token, def } = await publishedForm(ctx, t.asOwner, { submissionHandling: 'workflow:submissionReceiver' });
    const id = await submit(token, { data: { name: 'Grace', email: 'grace@example.com' } });
    const result = await runIntake(id);
    expect(result.outcome).toBe('workflow-started');
    const child = await rail.client.workflow.getHandle(`${workflowIdFor('FORMS', t.id, id)}:handling`).result();
    expect(child).toMatchObject({ received: { tenantId: t.id, instanceId: id, definitionCode: def.code, version: 1, data: { name: 'Grace', email: 'grace@example.com' } } });
    expect(result.processInstanceId).toBe(child.runId);
    expect(await view(id)).toMatchObject({
      state: 'PROCESSED',
      context: { processStartStatus: 'PROCESSED', processInstanceId: child.runId },
      submissionOutbox: { status: 'PUBLISHED', outboxState: 'CLOSED' },
    });
  });
});
