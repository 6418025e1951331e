// The submission PDF (spec Forms 7): the print view rendered by headless Chromium through the
// node's render queue, then stored through storeDocument as a FORM_SUBMISSION_PDF document of the
// FORMS capability under the submission's processRef. The registry authorises it for a `workflow`
// principal of FORMS (services/documents/caller-rules.ts: a workflow creates documents of its own
// capability, any kind, any processRef of its tenant), so the document is created by
// `workflow:<workflowId>`. Free of HTTP: the render route and the intake workflow's activity both
// call it.
import { Readable } from 'node:stream';
import type { FormSchema } from '../../domain/forms/form-schema';
import type { PdfPrinter } from '../../integrations/chromium/printer';
import type { WorkflowCaller } from '../documents/registry-caller';
import { storeDocument, type StoreDocumentDeps } from '../documents/store-document';
import type { RenderQueue } from './render-queue';
import { submissionPrintHtml } from './submission-print';

export interface RenderSubmissionPdfDeps {
  printer: PdfPrinter;
  queue: RenderQueue;
  store: StoreDocumentDeps;
}

export interface RenderSubmissionPdfInput {
  tenantId: string;
  processRef: string;
  ownerEntityId?: string | null;
  taskId?: string | null;
  title: string;
  code: string;
  version: number;
  schema: FormSchema;
  data: Record<string, unknown>;
  submittedAt?: Date;
  filename?: string;
  fileNames?: Record<string, string>;
  /** The workflow the document is created for; default `forms:<tenantId>:<processRef>` (DESIGN's workflow id form). */
  workflowId?: string;
}

export interface RenderedSubmissionPdf {
  docId: string;
  sizeBytes: number;
  sha256: string;
  status: string;
}

/** `<code>-v<version>-submission.pdf`, kept to the characters a document filename always accepts. */
export const defaultPdfFilename = (code: string, version: number) =>
  `${code.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 100) || 'form'}-v${version}-submission.pdf`;

export async function renderSubmissionPdf(deps: RenderSubmissionPdfDeps, input: RenderSubmissionPdfInput): Promise<RenderedSubmissionPdf> {
  const html = submissionPrintHtml({
    title: input.title,
    code: input.code,
    version: input.version,
    submittedAt: input.submittedAt ?? deps.store.now(),
    schema: input.schema,
    data: input.data,
    fileNames: input.fileNames,
  });
  // Rendered before any registry row exists: a full queue refuses without leaving a PENDING row.
  const pdf = await deps.queue.run(() => deps.printer.printPdf(html));
  const caller: WorkflowCaller = {
    kind: 'workflow',
    tenantId: input.tenantId,
    capability: 'FORMS',
    workflowId: input.workflowId ?? `forms:${input.tenantId}:${input.processRef}`,
  };
  const doc = await storeDocument(deps.store, caller, {
    processRef: input.processRef,
    kind: 'FORM_SUBMISSION_PDF',
    capability: 'FORMS',
    taskId: input.taskId ?? null,
    ownerEntityId: input.ownerEntityId ?? null,
    filename: input.filename ?? defaultPdfFilename(input.code, input.version),
    contentType: 'application/pdf',
    body: Readable.from([pdf]),
    knownMinBytes: pdf.length,
  });
  return { docId: doc.id, sizeBytes: doc.sizeBytes ?? pdf.length, sha256: doc.sha256 ?? '', status: doc.status };
}
