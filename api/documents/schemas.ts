import { z } from '@hono/zod-openapi';
import { DOCUMENT_CAPABILITIES, DOCUMENT_KINDS, DOCUMENT_STATUSES, RETENTION_MODES, SCAN_STATUSES } from '../../domain/documents/document-fields';
import type { DocumentView as RegistryDocumentView } from '../../services/documents/document-view';
import { int32, int32Param, int64, storable, text } from '../vocabulary';

/** Printable ASCII without spaces: task ids, owner ids, process instance and workflow ids. */
export const OPAQUE_ID = /^[\x21-\x7E]{1,200}$/;
const opaque = (example: string) => z.string().regex(OPAQUE_ID, 'must be 1-200 printable characters without spaces').openapi({ example });

/** A MIME type with optional parameters; anything else is stored as application/octet-stream by the proxy. */
export const MIME_TYPE =
  /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(?:\s*;\s*[a-z0-9!#$&^_.+-]{1,64}=(?:[a-z0-9!#$&^_.+-]{1,128}|"[^"\\\r\n]{0,128}"))*$/i;

export const Kind = z.enum(DOCUMENT_KINDS);
export const Capability = z.enum(DOCUMENT_CAPABILITIES);
export const Status = z.enum(DOCUMENT_STATUSES);
export const Mode = z.enum(RETENTION_MODES);

/** The document view (services/documents/document-view.ts) as the OpenAPI schema `Document`. */
export const DocumentView = z
  .object({
    id: z.string().uuid(),
    version: z.number().int().openapi({ description: 'Optimistic-lock counter; send it as If-Match to delete' }),
    tenantId: z.string(),
    processRef: z.string(),
    processInstanceId: z.string().nullable(),
    taskId: z.string().nullable(),
    kind: Kind,
    capability: Capability,
    ownerEntityId: z.string().nullable(),
    filename: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int().nullable(),
    sha256: z.string().nullable(),
    status: Status,
    scanStatus: z.enum(SCAN_STATUSES),
    retainUntil: z.string().nullable(),
    retentionMode: Mode.nullable(),
    createdBy: z.string().nullable(),
    createdByName: z.string().nullable(),
    createdAt: z.string(),
    deletedAt: z.string().nullable(),
  })
  .openapi('Document');
export type DocumentView = z.infer<typeof DocumentView>;

// The registry's view (services/documents/document-view.ts) and this schema are one shape: either
// drifting from the other fails the type check here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const viewMatchesSchema: Same<DocumentView, RegistryDocumentView> = true;

/** The metadata fields of an upload (multipart fields before the file part) and of authorize. */
export const UploadFields = z.object({
  processRef: text({ max: 200, trim: false }).openapi({ example: 'case-2024-0042' }),
  kind: Kind,
  capability: Capability,
  taskId: opaque('task-17').optional(),
  ownerEntityId: opaque('form-instance-9').optional(),
});

export const AuthorizeBody = UploadFields.extend({
  taskId: opaque('task-17').nullable().optional(),
  ownerEntityId: opaque('form-instance-9').nullable().optional(),
  filename: text({ max: 1000, trim: false }),
  contentType: storable(z.string().max(300).regex(MIME_TYPE, 'must be a MIME type')),
  docId: z.string().uuid().optional().openapi({ description: 'Re-authorize this PENDING document (a retried upload)' }),
  version: int32({ min: 1 }).optional().openapi({ description: 'Expected version when re-authorizing' }),
}).openapi('DocumentAuthorize');

export const RetentionPlan = z.object({ mode: Mode, days: z.number().int().positive() });

export const AuthorizeResponse = z
  .object({
    docId: z.string().uuid(),
    version: z.number().int(),
    storageTicket: z.string().openapi({ description: 'The tenant-relative storage key, sealed for the proxy (AES-256-GCM)' }),
    retention: RetentionPlan.nullable(),
    document: DocumentView,
  })
  .openapi('DocumentAuthorization');

export const FinalizeBody = z
  .object({
    version: int32({ min: 1 }),
    sizeBytes: int64(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be lower-case hex SHA-256'),
    storageVersionId: text({ max: 1024, trim: false }),
    scan: z.enum(['SKIPPED', 'CLEAN', 'INFECTED', 'ERROR']),
    signature: text({ min: 0, max: 500, trim: false }).nullable().optional(),
    retention: z.object({ mode: Mode, retainUntil: z.string().datetime({ offset: true }) }).nullable().optional(),
  })
  .openapi('DocumentFinalize');

export const ResolveResponse = z
  .object({ document: DocumentView, storageTicket: z.string(), storageVersionId: z.string() })
  .openapi('DocumentResolution');

export const RemoveResponse = z
  .object({
    document: DocumentView,
    storageTicket: z.string(),
    storageVersionId: z.string().nullable(),
    hardDelete: z.boolean().openapi({ description: 'true: never retained, purge every version; false: plain delete (marker)' }),
  })
  .openapi('DocumentRemoval');

export const ListQuery = z.object({
  processRef: text({ max: 200, trim: false }).optional(),
  taskId: opaque('task-17').optional(),
  capability: Capability.optional(),
  ownerEntityId: opaque('form-instance-9').optional(),
  limit: int32Param({ max: 200 }).default(50),
  cursor: text({ max: 200 }).optional(),
});

export const DocumentPage = z
  .object({ items: z.array(DocumentView), nextCursor: z.string().nullable() })
  .openapi('DocumentPage');

export const ProcessStartedBody = z
  .object({
    processRef: text({ max: 200, trim: false }),
    processInstanceId: opaque('run-7f2c'),
    workflowId: opaque('forms:acme:case-2024-0042').optional().openapi({
      description: 'Where documentAttachedSignal goes for task-scoped documents (default: the outbox workflow of the processRef)',
    }),
  })
  .openapi('DocumentProcessStarted');

export const ProcessStartedResponse = z
  .object({ processRef: z.string(), processInstanceId: z.string(), updated: z.number().int() })
  .openapi('DocumentProcessStartedResult');
