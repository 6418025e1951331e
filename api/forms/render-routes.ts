// POST /internal/render/form-pdf: the submission PDF, server-to-server only (X-Internal-Key,
// never routed by the gateway). The body names the tenant the document is stored for; the
// document is created by a FORMS workflow principal (services/forms/render-submission-pdf.ts).
// One render at a time per node behind a bounded queue: a full queue answers 503
// `render-queue-full` with Retry-After, a Chromium that cannot start 503 `renderer-unavailable`.
import { createRoute, z } from '@hono/zod-openapi';
import { badRequest } from '../../domain/errors';
import type { FormSchema } from '../../domain/forms/form-schema';
import { checkFormSchema, hasErrors } from '../../domain/forms/schema-check';
import { ChromiumPrinter, type PdfPrinter } from '../../integrations/chromium/printer';
import { RenderQueue } from '../../services/forms/render-queue';
import { renderSubmissionPdf } from '../../services/forms/render-submission-pdf';
import { DRAFT_BOUNDS } from '../definitions/schemas';
import { boundedBody } from '../body';
import type { AppDeps } from '../deps';
import type { DocumentsRuntime } from '../documents/runtime';
import { internalKey } from '../middleware/internal-key';
import { TENANT_ID, createRouter, jsonBody, jsonContent, problemResponses, raises } from '../openapi';
import { boundedJson, int32, text } from '../vocabulary';

/** A submission's data: an object, bounded like a draft schema (a submission at its bounds fits). */
export const DATA_BOUNDS = { maxBytes: 512 * 1024, maxDepth: 8, maxNodes: 20_000, maxKeyLength: 200 } as const;
/** Schema and data at their bounds, escaped, fit. */
export const RENDER_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

export const RenderFormPdfBody = z
  .object({
    tenantId: z.string().regex(TENANT_ID).openapi({ example: 'acme' }),
    processRef: text({ max: 200 }).openapi({ example: 'form-intake-7f3a' }),
    ownerEntityId: text({ max: 200 }).optional(),
    taskId: text({ max: 200 }).optional(),
    title: text({ max: 500 }),
    code: text({ max: 100 }).openapi({ example: 'FRMK7QX05MAR26' }),
    version: int32({ min: 1 }),
    submittedAt: z.string().datetime({ offset: true }).optional().openapi({ description: 'Default: now' }),
    schema: boundedJson(DRAFT_BOUNDS)
      .refine(isObject, 'must be a form schema object')
      .openapi({ description: 'The form schema of the version submitted; error-level problems answer 400 `form-schema-invalid`' }),
    data: boundedJson(DATA_BOUNDS).refine(isObject, 'must be an object').openapi({ description: 'The submission, by field key' }),
    fileNames: z
      .record(z.string().uuid(), text({ max: 255 }))
      .optional()
      .refine((v) => !v || Object.keys(v).length <= 200, 'at most 200 entries')
      .openapi({ description: 'Filenames of attached documents by id (file fields print them)' }),
    filename: text({ max: 255 }).optional().openapi({ description: 'Default `<code>-v<version>-submission.pdf`' }),
    workflowId: text({ max: 300 }).optional().openapi({ description: 'Creator of the document (`workflow:<id>`); default `forms:<tenantId>:<processRef>`' }),
  })
  .openapi('RenderFormPdf');

export const RenderFormPdfResponse = z
  .object({
    docId: z.string().uuid(),
    sizeBytes: z.number().int(),
    sha256: z.string(),
    status: z.string().openapi({ description: 'READY, or PENDING while a scan retry runs' }),
  })
  .openapi('RenderedFormPdf');

const renderBody = raises(boundedBody(RENDER_BODY_LIMIT_BYTES, 'Render bodies'), 'payload-too-large');

/** The node's printer and queue: built here unless the composition root passes a printer (and closes it). */
export function renderRoutes(deps: AppDeps, documents: DocumentsRuntime) {
  const { settings } = deps;
  const printer: PdfPrinter =
    deps.pdfPrinter ?? new ChromiumPrinter({ executablePath: settings['render.chromium-path'], timeoutMs: settings['render.timeout-ms'] });
  const queue = new RenderQueue({ concurrency: settings['render.concurrency'], queueSize: settings['render.queue-size'] });
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'post',
      path: '/internal/render/form-pdf',
      tags: ['Forms: submission PDF (internal)'],
      summary: 'Render a submission to an A4 PDF in headless Chromium and store it as a FORM_SUBMISSION_PDF document; one render at a time behind a bounded queue',
      middleware: [internalKey, renderBody],
      request: { body: jsonBody(RenderFormPdfBody) },
      responses: {
        201: jsonContent(RenderFormPdfResponse, 'Rendered and stored'),
        ...problemResponses(400, 401, 403, 404, 409, 503),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const problems = checkFormSchema(body.schema);
      if (hasErrors(problems)) {
        throw badRequest('form-schema-invalid', 'The form schema has error-level problems', { problems: problems.filter((p) => p.level === 'error') });
      }
      const result = await renderSubmissionPdf(
        { printer, queue, store: documents.storeDeps(documents.requireStore(), c.get('log')) },
        {
          ...body,
          schema: body.schema as FormSchema,
          data: body.data as Record<string, unknown>,
          submittedAt: body.submittedAt ? new Date(body.submittedAt) : undefined,
        },
      );
      return c.json(result, 201);
    },
  );
  return app;
}
