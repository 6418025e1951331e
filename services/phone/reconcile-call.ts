// Reconciliation of a call whose PhoneCallEnded did not come in time (the phoneCall process): ask
// the provider for its record of the call and settle the row from the answer.
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import { getPhoneCall } from '../../db/queries/phone';
import type { PhoneCallStatus } from '../../domain/phone/call-fields';
import { isTerminal } from '../../domain/phone/call-status';
import { AppError } from '../../domain/errors';
import type { Settings } from '../../domain/settings';
import { VapiError } from '../../integrations/vapi/client';
import { applyProviderAnswer, type ProviderAnswer } from './call-events';
import { providerClientFor } from './provider';

export interface ReconcileCallDeps {
  db: Db;
  settings: Settings;
  log: Logger;
}

export interface ReconcileOutcome {
  /** The call is (now) ENDED or FAILED; the process may close. */
  terminal: boolean;
  status: PhoneCallStatus | null;
  answer: 'ended' | 'running' | 'not-found' | 'no-provider-id' | 'provider-error' | 'already-terminal' | 'missing';
}

/** Asks the provider and settles the call from its answer. Never throws on provider trouble: the outcome says so. */
export async function reconcileCall(deps: ReconcileCallDeps, input: { tenantId: string; callId: string; attempt: number }): Promise<ReconcileOutcome> {
  const { db, settings } = deps;
  const { tenantId, callId, attempt } = input;
  const log = deps.log.child({ tenantId, callId, attempt });
  const row = await getPhoneCall(db, tenantId, callId);
  if (!row) return { terminal: true, status: null, answer: 'missing' };
  if (isTerminal(row.status)) return { terminal: true, status: row.status, answer: 'already-terminal' };
  let answer: ProviderAnswer;
  if (!row.providerCallId) {
    answer = { kind: 'no-provider-id' };
  } else {
    try {
      const client = await providerClientFor(db, settings, tenantId);
      answer = { kind: 'call', call: await client.getCall(row.providerCallId) };
    } catch (err) {
      if (err instanceof VapiError && err.kind === 'http' && err.status === 404) {
        answer = { kind: 'not-found' };
      } else {
        const reason = err instanceof VapiError || err instanceof AppError ? err.message : 'unexpected error';
        log.warn({ reason }, 'reconciliation: provider could not be asked; will try again');
        return { terminal: false, status: row.status, answer: 'provider-error' };
      }
    }
  }
  const { call } = await applyProviderAnswer(db, tenantId, callId, answer);
  const status = call?.status ?? row.status;
  const terminal = isTerminal(status);
  const label: ReconcileOutcome['answer'] =
    answer.kind === 'call' ? (terminal ? 'ended' : 'running') : answer.kind;
  log.info({ answer: label, status }, terminal ? 'reconciliation settled the call' : 'reconciliation: call still running');
  return { terminal, status, answer: label };
}
