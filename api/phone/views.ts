import type { z } from '@hono/zod-openapi';
import type { PhoneCallRow } from '../../db/queries/phone';
import type { RegisteredNumberRow } from '../../db/queries/phone-numbers';
import type { PhoneSettingsState } from '../../services/phone/settings';
import type { PhoneCall, PhoneCallSummary, PhoneNumber, PhoneSettings } from './schemas';

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
    firstCallId: r.firstCallId ?? r.id,
    attempt: r.attempt,
    scheduledFor: iso(r.scheduledFor),
    callingCalendarKey: r.callingCalendarKey,
    calleeLocationCode: r.calleeLocationCode,
    redial: r.redial,
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

/** The settings view: the key itself is never served, only where it comes from. */
export function settingsView(s: PhoneSettingsState): z.infer<typeof PhoneSettings> {
  const row = s.row;
  return {
    tenantId: s.tenantId,
    defaultAssistantId: row?.defaultAssistantId ?? null,
    defaultPhoneNumberId: row?.defaultPhoneNumberId ?? null,
    hasApiKey: s.providerKeySource === 'tenant',
    providerKeySource: s.providerKeySource,
    version: row?.version ?? 0,
    updatedBy: row?.updatedBy ?? null,
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}
