// The intake's document steps (spec rule 5 and step 7; docs/forms.md "Durable intake"): mirroring
// the submission's attachments to the intake process, and its submission PDF, rendered in the
// worker process with the worker's own printer and render queue.
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import { findFormInstance } from '../../db/queries/form-instances';
import { repairFormSchema } from '../../domain/forms/schema-repair';
import type { DocumentRegistry } from '../documents/document-registry';
import type { WorkflowCaller } from '../documents/registry-caller';
import type { StoreDocumentDeps } from '../documents/store-document';
import { formDefinitionCapability as cap } from './form-definitions';
import { renderSubmissionPdf, type RenderSubmissionPdfDeps } from './render-submission-pdf';
import { submissionAttachments, submissionPdfs } from './submission-documents';

const formsWorkflow = (tenantId: string, workflowId: string): WorkflowCaller => ({ kind: 'workflow', tenantId, capability: 'FORMS', workflowId });

/**
 * The registry's process-started for the submission's processRef: its FORMS documents (the
 * attachments the respondent linked) get the intake's run id. Answers how many it backfilled.
 */
export async function mirrorAttachments(registry: DocumentRegistry, p: { tenantId: string; processRef: string; workflowId: string; runId: string }) {
  const result = await registry.processStarted(formsWorkflow(p.tenantId, p.workflowId), { processRef: p.processRef, processInstanceId: p.runId });
  return result.updated;
}

export interface SubmissionPdfDeps {
  db: Db;
  render: Omit<RenderSubmissionPdfDeps, 'store'>;
  store: (log: Logger) => StoreDocumentDeps;
  log: Logger;
}

/** Renders and stores the instance's PDF once: an instance that has one answers it (retries, a retried intake). */
export async function makeSubmissionPdf(deps: SubmissionPdfDeps, p: { tenantId: string; instanceId: string; workflowId: string }) {
  const row = await findFormInstance(deps.db, { tenantId: p.tenantId, id: p.instanceId });
  const processRef = row?.context.processRef;
  if (!row || typeof processRef !== 'string') return null;
  const existing = (await submissionPdfs(deps.db, [row])).get(row.id);
  if (existing) return existing;
  const definition = await cap.queries.find(deps.db, { tenantId: p.tenantId, id: row.definitionId });
  const version = await cap.queries.findVersion(deps.db, { tenantId: p.tenantId, definitionId: row.definitionId, version: row.definitionVersion });
  if (!version) return null;
  const schema = repairFormSchema(version.schema);
  const attachments = await submissionAttachments(deps.db, row);
  const pdf = await renderSubmissionPdf(
    { ...deps.render, store: deps.store(deps.log) },
    {
      tenantId: p.tenantId,
      processRef,
      ownerEntityId: row.id,
      taskId: typeof row.context.taskId === 'string' ? row.context.taskId : null,
      title: definition?.name ?? schema.title,
      code: row.definitionCode,
      version: row.definitionVersion,
      schema,
      data: row.data,
      submittedAt: row.submittedAt ?? row.createdAt,
      fileNames: Object.fromEntries(attachments.map((a) => [a.docId, a.filename])),
      workflowId: p.workflowId,
    },
  );
  return { docId: pdf.docId };
}
