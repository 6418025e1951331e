// Signing campaigns in tests: an app with S3, sealed secrets and the SMTP catcher; a published
// signature definition with a real PDF; a platform worker and a running
// outbox dispatcher on its task queue (the real sealer, timestamped by the local RFC 3161 stand-in); helpers for the public signing calls.
import { randomBytes } from 'node:crypto';
import { PNG_SIGNATURE } from './png';
import { expect } from 'vitest';
import { createActivities } from '../../workers/worker-activities';
import type { Settings } from '../../workers/config';
import { client, useTestApp, type TestContext, type Who } from './app';
import { testS3Client } from './documents';
import { smtpUrl } from './mail';
import { makePdf, pdfUpload, seedDefinitionTenant, SIG_BASE } from './signatures';
import { startTestWorker, testDispatcher, type TestWorker } from './temporal';
import { recordingSealer, type RecordingSealer } from './recording-sealer';

export { PNG_SIGNATURE };

export function useCeremonyApp(overrides: Partial<Settings> = {}) {
  return useTestApp({ 'mail.smtp-url': smtpUrl(), 'secrets.master-key': randomBytes(32), ...overrides, deps: { s3: testS3Client() } });
}

/** Two signers: employee (order 1: SIGNATURE, DATE, NAME, TEXT) and manager (order 2: SIGNATURE, INITIALS); one required variable. */
export const ceremonySchema = (routing: 'sequential' | 'parallel' = 'sequential', verify: string = 'NONE') => ({
  signers: [
    { id: 'employee', label: 'Employee', order: 1, verify },
    { id: 'manager', label: 'Manager', order: 2 },
  ],
  fields: [
    { id: 'f1', signerId: 'employee', type: 'SIGNATURE', page: 1, x: 72, y: 600, w: 180, h: 50 },
    { id: 'f2', signerId: 'employee', type: 'DATE', page: 1, x: 300, y: 600, w: 100, h: 20 },
    { id: 'f3', signerId: 'employee', type: 'NAME', page: 1, x: 300, y: 640, w: 160, h: 20 },
    { id: 'f4', signerId: 'employee', type: 'TEXT', page: 1, x: 300, y: 680, w: 160, h: 20 },
    { id: 'f5', signerId: 'manager', type: 'SIGNATURE', page: 2, x: 72, y: 700, w: 180, h: 50 },
    { id: 'f6', signerId: 'manager', type: 'INITIALS', page: 2, x: 300, y: 700, w: 60, h: 40 },
  ],
  variables: [{ key: 'salary', label: 'Salary', required: true }],
  routing,
});

/** Created, source PDF uploaded, checked in, signed off, published. */
export async function publishedDefinition(ctx: TestContext, who: Who, schema: Record<string, unknown> = ceremonySchema(), publish = true) {
  const api = client(ctx);
  const created = await api.post(SIG_BASE, who, { name: 'Employment contract', draftSchema: { document: { name: 'contract.pdf' }, ...schema } });
  expect(created.status, created.text).toBe(201);
  const id = created.json.id as string;
  const up = await ctx.app.request(`${SIG_BASE}/${id}/document`, pdfUpload(who, await makePdf(2)));
  expect(up.status, await up.clone().text()).toBe(201);
  if (publish) {
    for (const step of ['versions', 'sign-off', 'versions/1/publish']) {
      const r = await api.post(`${SIG_BASE}/${id}/${step}`, who);
      expect(r.status, r.text).toBeLessThan(300);
    }
  }
  return id;
}

export interface CeremonyWorld {
  worker: TestWorker;
  sealer: RecordingSealer;
  stop(): Promise<void>;
}

/** The platform's activities with the production sealer on a worker of their own, and a dispatcher woken by NOTIFY. */
export async function startCeremonyWorld(ctx: TestContext): Promise<CeremonyWorld> {
  const sealer = await recordingSealer();
  const worker = await startTestWorker(createActivities({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger, s3: ctx.deps.s3, sealPdf: sealer.sealPdf }));
  const dispatcher = testDispatcher(ctx, worker, ['SIGNATURES']);
  await dispatcher.start();
  return {
    worker,
    sealer,
    async stop() {
      await dispatcher.stop();
      await worker.stop();
      await sealer.stop();
    },
  };
}

export const seedSignaturesTenant = (ctx: TestContext) => seedDefinitionTenant(ctx, 'SIGNATURES');

/** A ceremony world, a SIGNATURES tenant with its editor, and a published definition to start campaigns of. */
export async function openCampaignWorld(ctx: TestContext) {
  const world = await startCeremonyWorld(ctx);
  const t = await seedSignaturesTenant(ctx);
  const editor = t.as('editor');
  return { world, t, editor, definitionId: await publishedDefinition(ctx, editor) };
}

/** Polls `read` until `done` holds (the ceremony works asynchronously). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not reached in ${timeoutMs} ms; last value: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const SIGN_BASE = '/api/public/sign-instance';
export const CAMPAIGNS = '/api/signature-instances';
