// The registry's view (services/) and the OpenAPI schema (api/) describe one shape: a type check
// in schemas.ts holds the types together, this holds a real row's view to the schema.
import { describe, expect, it } from 'vitest';
import type { DocumentRow } from '../../../db/queries/documents';
import { DocumentView } from '../../../api/documents/schemas';
import { toView } from '../../../services/documents/document-view';

const row: DocumentRow = {
  id: '0b3c6a2e-5d7f-4c1a-9e8b-2f4d6a8c0e1f',
  version: 3,
  tenantId: 'acme',
  processRef: 'case-1',
  processInstanceId: null,
  taskId: 'task-1',
  kind: 'FORM_ATTACHMENT',
  capability: 'FORMS',
  ownerEntityId: null,
  storageKey: 'case-1/0b3c6a2e-5d7f-4c1a-9e8b-2f4d6a8c0e1f-a.pdf',
  storageVersionId: 'v1',
  filename: 'a.pdf',
  contentType: 'application/pdf',
  sizeBytes: 3,
  sha256: 'a'.repeat(64),
  status: 'READY',
  scanStatus: 'CLEAN',
  scanSignature: null,
  scanAttempts: 1,
  scannedAt: new Date('2024-01-01T00:00:01Z'),
  retainUntil: new Date('2025-01-01T00:00:00Z'),
  retentionMode: 'GOVERNANCE',
  createdBy: 'workflow:forms:acme:case-1',
  createdByName: null,
  createdAt: new Date('2024-01-01T00:00:00Z'),
  updatedAt: new Date('2024-01-01T00:00:01Z'),
  deletedAt: null,
};

describe('document view', () => {
  it('is what the OpenAPI schema describes, field for field, and never the storage key or version id', () => {
    const view = toView(row);
    expect(DocumentView.strict().parse(view)).toEqual(view);
    expect(JSON.stringify(view)).not.toContain(row.storageKey);
    expect(JSON.stringify(view)).not.toContain('"v1"');
  });
});
