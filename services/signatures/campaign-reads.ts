// The tenant's reads of campaigns: the keyset list and the detail (recipients with their tokens
// and signing URLs, statuses, seal status, the audit trail). Names, e-mails, client addresses and
// user agents are never answered: they stay sealed.
import type { DbOrTx } from '../../db/client';
import { listSignatureInstanceEvents } from '../../db/queries/signature-instance-events';
import { findSignatureInstance, listSignatureInstances, type SignatureInstanceRow } from '../../db/queries/signature-instances';
import { listSignatureRecipients } from '../../db/queries/signature-recipients';
import { notFound } from '../../domain/errors';
import type { KeysetPosition } from '../../domain/keyset-cursor';
import type { SignatureInstanceState } from '../../domain/signatures/instance-states';
import type { Actor } from '../definitions/capability';
import type { CampaignDeps } from './campaign-deps';
import { eventView } from './instance-events';
import { recipientBox, signingUrl } from './recipient-box';

export const instanceNotFound = () => notFound('Signature instance', 'signature-instance-not-found');

export async function requireInstance(db: DbOrTx, actor: Actor, id: string, forUpdate = false): Promise<SignatureInstanceRow> {
  const row = await findSignatureInstance(db, { tenantId: actor.tenantId, id, forUpdate });
  if (!row) throw instanceNotFound();
  return row;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const instanceSummary = (row: SignatureInstanceRow) => ({
  id: row.id,
  definitionId: row.definitionId,
  version: row.version,
  status: row.status,
  sealStatus: row.sealStatus,
  sealError: row.sealError,
  variables: row.variables,
  timeZone: row.timeZone,
  expiresAt: iso(row.expiresAt),
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  completedAt: iso(row.completedAt),
  cancelledAt: iso(row.cancelledAt),
});

export async function instanceDetail(deps: CampaignDeps, row: SignatureInstanceRow) {
  const box = recipientBox(deps.settings);
  const recipients = (await listSignatureRecipients(deps.db, { instanceId: row.id })).map((r) => {
    const token = box.open(row.id, r.signerId, 'token', r.tokenSealed);
    return {
      signerId: r.signerId,
      order: r.order,
      status: r.status,
      verify: r.verify,
      token,
      signingUrl: signingUrl(deps.settings, token),
      deliveryStatus: r.deliveryStatus,
      openedAt: iso(r.openedAt),
      signedAt: iso(r.signedAt),
      lastRemindedAt: iso(r.lastRemindedAt),
    };
  });
  const events = (await listSignatureInstanceEvents(deps.db, { instanceId: row.id })).map(eventView);
  return { ...instanceSummary(row), recipients, events };
}

export async function listCampaigns(
  deps: CampaignDeps,
  actor: Actor,
  p: { status?: SignatureInstanceState; definitionId?: string; before: KeysetPosition | null; limit: number },
) {
  return listSignatureInstances(deps.db, { tenantId: actor.tenantId, status: p.status, definitionId: p.definitionId, before: p.before, limit: p.limit });
}
