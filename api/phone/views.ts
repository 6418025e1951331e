import type { z } from '@hono/zod-openapi';
import type { CallCursor, PhoneCallRow, RegisteredNumberRow } from '../../db/queries/phone';
import { badRequest } from '../../domain/errors';
import type { PhoneCall, PhoneCallSummary, PhoneNumber } from './schemas';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The list view: no transcript, recording or analysis (GET one has them). The raw payload is never served. */
export function callSummary(r: PhoneCallRow): z.infer<typeof PhoneCallSummary> {
  return {
    id: r.id,
    direction: r.direction,
    status: r.status,
    providerCallId: r.providerCallId,
    phoneNumberId: r.phoneNumberId,
    assistantId: r.assistantId,
    customerNumber: r.customerNumber,
    customerName: r.customerName,
    endedReason: r.endedReason,
    summary: r.summary,
    cost: r.cost,
    errorMessage: r.errorMessage,
    metadata: r.metadata,
    businessKey: r.businessKey,
    processInstanceId: r.processInstanceId,
    processStatus: r.processStatus,
    initiatedBy: r.initiatedBy,
    version: r.version,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    startedAt: iso(r.startedAt),
    endedAt: iso(r.endedAt),
  };
}

export function callView(r: PhoneCallRow): z.infer<typeof PhoneCall> {
  return {
    ...callSummary(r),
    transcript: r.transcript,
    recordingUrl: r.recordingUrl,
    analysis: r.analysis ?? null,
    variableValues: r.variableValues,
  };
}

export function numberView(r: RegisteredNumberRow): z.infer<typeof PhoneNumber> {
  return {
    id: r.id,
    providerNumberId: r.providerNumberId,
    number: r.number,
    provider: r.provider,
    name: r.name,
    assistantId: r.assistantId,
    providerStatus: r.providerStatus,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * Keyset cursor over (createdAt, id), opaque to clients. Microseconds matter: PostgreSQL keeps
 * them and a JS Date does not, so the cursor carries the row's timestamp as PostgreSQL text.
 */
export function encodeCursor(c: { cursorAt: string; id: string }): string {
  return Buffer.from(`${c.cursorAt}|${c.id}`, 'utf8').toString('base64url');
}

const AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function decodeCursor(cursor: string): CallCursor {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const [at, id] = text.split('|');
  if (!at || !AT.test(at) || Number.isNaN(new Date(at).getTime()) || !id || !UUID.test(id)) {
    throw badRequest('invalid-cursor', 'cursor is not a nextCursor value of this list');
  }
  return { createdAt: at, id };
}
