// The document view: every registry field a client may see, never the storage key, its version
// id or the scan signature. The registry returns it to every caller; the OpenAPI schema in
// api/documents/schemas.ts describes the same shape (a type check there holds the two together).
import type { DocumentRow } from '../../db/queries/documents';

export interface DocumentView {
  id: string;
  version: number;
  tenantId: string;
  processRef: string;
  processInstanceId: string | null;
  taskId: string | null;
  kind: DocumentRow['kind'];
  capability: DocumentRow['capability'];
  ownerEntityId: string | null;
  filename: string;
  contentType: string;
  sizeBytes: number | null;
  sha256: string | null;
  status: DocumentRow['status'];
  scanStatus: DocumentRow['scanStatus'];
  retainUntil: string | null;
  retentionMode: DocumentRow['retentionMode'];
  createdBy: string | null;
  createdByName: string | null;
  createdAt: string;
  deletedAt: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toView(r: DocumentRow): DocumentView {
  return {
    id: r.id,
    version: r.version,
    tenantId: r.tenantId,
    processRef: r.processRef,
    processInstanceId: r.processInstanceId,
    taskId: r.taskId,
    kind: r.kind,
    capability: r.capability,
    ownerEntityId: r.ownerEntityId,
    filename: r.filename,
    contentType: r.contentType,
    sizeBytes: r.sizeBytes,
    sha256: r.sha256,
    status: r.status,
    scanStatus: r.scanStatus,
    retainUntil: iso(r.retainUntil),
    retentionMode: r.retentionMode,
    createdBy: r.createdBy,
    createdByName: r.createdByName,
    createdAt: r.createdAt.toISOString(),
    deletedAt: iso(r.deletedAt),
  };
}
