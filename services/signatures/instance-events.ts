// The ceremony's audit trail (signature_instance_events): the client address and user agent are
// sealed; the IP-risk class and the country code stay plain (not personal data).
import type { DbOrTx } from '../../db/client';
import { insertSignatureInstanceEvent, type SignatureInstanceEventRow } from '../../db/queries/signature-instance-events';
import type { ClientContext } from '../../domain/net/client-context';
import type { SealAuditEvent } from '../../domain/signatures/seal-contract';
import type { RecipientBox } from './recipient-box';

export type CeremonyAction =
  | 'created'
  | 'opened'
  | 'consented'
  | 'signed'
  | 'otp_verified'
  | 'reminded'
  | 'armed'
  | 'completed'
  | 'sealed'
  | 'seal_failed'
  | 'cancelled'
  | 'expired';

export async function recordEvent(
  db: DbOrTx,
  box: RecipientBox,
  e: { tenantId: string; instanceId: string; action: CeremonyAction; signerId?: string | null; client?: ClientContext | null },
) {
  const client = e.client && (e.client.ip || e.client.userAgent) ? JSON.stringify({ ip: e.client.ip, userAgent: e.client.userAgent }) : null;
  await insertSignatureInstanceEvent(db, {
    tenantId: e.tenantId,
    instanceId: e.instanceId,
    action: e.action,
    signerId: e.signerId ?? null,
    clientSealed: client ? box.seal(e.instanceId, null, 'client', client) : null,
    ipRisk: e.client?.ipRisk ?? null,
    geo: e.client?.geo ?? null,
  });
}

/** The tenant's view: no address or user agent (personal data), the classification and country only. */
export const eventView = (e: SignatureInstanceEventRow) => ({ action: e.action, signerId: e.signerId, at: e.at.toISOString(), ipRisk: e.ipRisk, geo: e.geo });

/** The Certificate of Completion's view: everything, opened. */
export function sealEventOf(box: RecipientBox, e: SignatureInstanceEventRow): SealAuditEvent {
  const client = e.clientSealed ? (JSON.parse(box.open(e.instanceId, null, 'client', e.clientSealed)) as { ip: string | null; userAgent: string | null }) : null;
  return { at: e.at.toISOString(), action: e.action, signerId: e.signerId, ip: client?.ip ?? null, userAgent: client?.userAgent ?? null, ipRisk: e.ipRisk, geo: e.geo };
}
