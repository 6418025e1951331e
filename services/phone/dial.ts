// The provider request of an outbound call whose QUEUED row is committed, and the recording of
// its answer: RINGING, or FAILED with the provider's sanitised explanation. Never throws on
// provider trouble.
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import { lockPhoneCall, updatePhoneCall, type PhoneCallRow } from '../../db/queries/phone';
import type { Settings } from '../../domain/settings';
import { VapiError } from '../../integrations/vapi/client';
import { providerClient } from './provider';

export interface DialDeps {
  db: Db;
  settings: Settings;
  log: Logger;
}

export async function dialQueuedCall(deps: DialDeps, call: PhoneCallRow, apiKey: string): Promise<PhoneCallRow> {
  const { db, settings, log } = deps;
  const id = call.id;
  const client = providerClient(settings, apiKey);
  let outcome: { providerCallId: string } | { error: string };
  try {
    const answer = await client.createCall({
      phoneNumberId: call.phoneNumberId!,
      assistantId: call.assistantId!,
      customer: { number: call.customerNumber!, ...(call.customerName ? { name: call.customerName } : {}) },
      assistantOverrides: {
        ...(Object.keys(call.variableValues).length > 0 ? { variableValues: call.variableValues } : {}),
        // Our call id travels with the call, so the provider's dashboard can be searched by it.
        metadata: { ...call.metadata, platformCallId: id },
      },
    });
    outcome = { providerCallId: answer.id };
  } catch (err) {
    // VapiError messages are sanitised (no key, no headers); anything else is reduced to its class.
    const message = err instanceof VapiError ? err.message : `Provider call failed (${err instanceof Error ? err.name : 'error'})`;
    outcome = { error: message };
    log.warn(
      { callId: id, providerErrorKind: err instanceof VapiError ? err.kind : 'unexpected', providerStatus: (err as VapiError).status },
      'provider refused or failed the outbound call',
    );
  }
  const settled = await db.transaction(async (tx) => {
    const row = (await lockPhoneCall(tx, call.tenantId, id))!;
    const answered = 'providerCallId' in outcome ? outcome.providerCallId : null;
    if (!row.providerCallId) {
      const patch =
        'error' in outcome
          ? { status: 'FAILED' as const, errorMessage: outcome.error, endedAt: new Date() }
          : { status: 'RINGING' as const, providerCallId: outcome.providerCallId };
      return (await updatePhoneCall(tx, row, patch))!;
    }
    // A provider message overtook this answer and joined the call (call-events, by our id): the
    // call exists at the provider and its messages settle it, whatever this answer said.
    if (answered && answered !== row.providerCallId) {
      log.error({ callId: id, recorded: row.providerCallId, answered }, 'provider answered another call id than its messages named');
    }
    return row.status === 'QUEUED' ? (await updatePhoneCall(tx, row, { status: 'RINGING' }))! : row;
  });
  if (settled.status === 'RINGING') log.info({ callId: id, providerCallId: settled.providerCallId }, 'outbound call accepted by the provider');
  return settled;
}
