// The worker's composition root builds each integration once per worker process and every activity
// factory gets those same instances: one upload pool, one printer and render queue, one registry,
// object store and scanner, one mailer per worker. Every constructor is wrapped to count what it
// builds, and the document, form, outbound-form and signature factories to see what they were
// given; nothing connects.
import { S3Client } from '@aws-sdk/client-s3';
import pino from 'pino';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityDeps } from '../../../activities/deps';
import type { Db } from '../../../db/client';
import { loadSettings } from '../../../workers/config';
import { createActivities } from '../../../workers/worker-activities';

const seen = vi.hoisted(() => ({
  built: {} as Record<string, unknown[]>,
  given: {} as Record<string, Array<Partial<ActivityDeps>>>,
}));

const record = <T>(name: string, made: T): T => {
  (seen.built[name] ??= []).push(made);
  return made;
};

vi.mock('../../../integrations/docstore/object-store', async (load) => {
  const real = await load<typeof import('../../../integrations/docstore/object-store')>();
  return { ...real, createObjectStore: (...a: Parameters<typeof real.createObjectStore>) => record('objectStore', real.createObjectStore(...a)) };
});
vi.mock('../../../integrations/docstore/scanner', async (load) => {
  const real = await load<typeof import('../../../integrations/docstore/scanner')>();
  return { ...real, createScanner: (...a: Parameters<typeof real.createScanner>) => record('scanner', real.createScanner(...a)) };
});
vi.mock('../../../integrations/mail/mailer', async (load) => {
  const real = await load<typeof import('../../../integrations/mail/mailer')>();
  return { ...real, mailerFor: (...a: Parameters<typeof real.mailerFor>) => record('mailer', real.mailerFor(...a)) };
});
vi.mock('../../../services/documents/document-registry', async (load) => {
  const real = await load<typeof import('../../../services/documents/document-registry')>();
  class DocumentRegistry extends real.DocumentRegistry {
    constructor(...a: ConstructorParameters<typeof real.DocumentRegistry>) {
      super(...a);
      record('registry', this);
    }
  }
  return { ...real, DocumentRegistry };
});
vi.mock('../../../services/documents/upload-slots', async (load) => {
  const real = await load<typeof import('../../../services/documents/upload-slots')>();
  class UploadSlots extends real.UploadSlots {
    constructor(...a: ConstructorParameters<typeof real.UploadSlots>) {
      super(...a);
      record('uploadSlots', this);
    }
  }
  return { ...real, UploadSlots };
});
vi.mock('../../../integrations/chromium/printer', async (load) => {
  const real = await load<typeof import('../../../integrations/chromium/printer')>();
  class ChromiumPrinter extends real.ChromiumPrinter {
    constructor(...a: ConstructorParameters<typeof real.ChromiumPrinter>) {
      super(...a);
      record('printer', this);
    }
  }
  return { ...real, ChromiumPrinter };
});
vi.mock('../../../services/forms/render-queue', async (load) => {
  const real = await load<typeof import('../../../services/forms/render-queue')>();
  class RenderQueue extends real.RenderQueue {
    constructor(...a: ConstructorParameters<typeof real.RenderQueue>) {
      super(...a);
      record('renderQueue', this);
    }
  }
  return { ...real, RenderQueue };
});

const given = (name: string, deps: Partial<ActivityDeps>) => (seen.given[name] ??= []).push(deps);
vi.mock('../../../activities/documents', async (load) => {
  const real = await load<typeof import('../../../activities/documents')>();
  return { ...real, createDocumentActivities: (deps: Parameters<typeof real.createDocumentActivities>[0]) => (given('documents', deps), real.createDocumentActivities(deps)) };
});
vi.mock('../../../activities/forms', async (load) => {
  const real = await load<typeof import('../../../activities/forms')>();
  return { ...real, createFormActivities: (deps: Parameters<typeof real.createFormActivities>[0]) => (given('forms', deps), real.createFormActivities(deps)) };
});
vi.mock('../../../activities/outbound-forms', async (load) => {
  const real = await load<typeof import('../../../activities/outbound-forms')>();
  return {
    ...real,
    createOutboundFormActivities: (deps: Parameters<typeof real.createOutboundFormActivities>[0]) => (given('outboundForms', deps), real.createOutboundFormActivities(deps)),
  };
});
vi.mock('../../../activities/signatures', async (load) => {
  const real = await load<typeof import('../../../activities/signatures')>();
  return { ...real, createSignatureActivities: (deps: Parameters<typeof real.createSignatureActivities>[0]) => (given('signatures', deps), real.createSignatureActivities(deps)) };
});

const INTEGRATIONS = ['objectStore', 'scanner', 'registry', 'uploadSlots', 'printer', 'renderQueue', 'mailer'];

/** One worker process's activities, from test settings; the database and S3 clients are never used. */
function workerActivities() {
  const settings = loadSettings({ DOCSTORE_SCAN: 'clamav', DOCSTORE_UPLOAD_CONCURRENCY: '3' });
  const s3 = new S3Client({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  return createActivities({ db: {} as Db, settings, logger: pino({ level: 'silent' }), s3 });
}

describe('the worker composition root', () => {
  beforeEach(() => {
    seen.built = {};
    seen.given = {};
  });

  it('builds each integration once per worker process, none in an activity factory', () => {
    const activities = workerActivities();
    expect(Object.keys(activities)).toEqual(expect.arrayContaining(['scanPendingDocument', 'renderFormSubmissionPdf', 'sealSignatureInstance']));
    expect(Object.fromEntries(INTEGRATIONS.map((name) => [name, seen.built[name]?.length ?? 0]))).toEqual(
      Object.fromEntries(INTEGRATIONS.map((name) => [name, 1])),
    );
    expect(seen.built.objectStore![0]).toBeDefined();
  });

  it('hands the document, form and signature activities the same upload pool, object store, scanner and registry', () => {
    workerActivities();
    for (const name of ['documents', 'forms', 'signatures']) {
      expect(seen.given[name], name).toHaveLength(1);
      const docs = seen.given[name]![0]!.documents!;
      expect(docs.uploadSlots).toBe(seen.built.uploadSlots![0]);
      expect(docs.store).toBe(seen.built.objectStore![0]);
      expect(docs.scanner).toBe(seen.built.scanner![0]);
      expect(docs.registry).toBe(seen.built.registry![0]);
    }
    expect(seen.given.forms![0]!.render!.printer).toBe(seen.built.printer![0]);
    expect(seen.given.forms![0]!.render!.queue).toBe(seen.built.renderQueue![0]);
  });

  it('hands the outbound-form and signature activities (the ones that send mail) the same mailer', () => {
    workerActivities();
    for (const name of ['outboundForms', 'signatures']) {
      expect(seen.given[name], name).toHaveLength(1);
      expect(seen.given[name]![0]!.mailer, name).toBe(seen.built.mailer![0]);
    }
  });

  it('builds a second set for a second worker process only', () => {
    workerActivities();
    workerActivities();
    for (const name of INTEGRATIONS) {
      expect(seen.built[name], name).toHaveLength(2);
      expect(seen.built[name]![0], name).not.toBe(seen.built[name]![1]);
    }
  });
});
