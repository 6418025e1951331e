// The tenant's reads of campaigns: the keyset list and the detail (recipients with their tokens
// and signing URLs, statuses, seal status, the audit trail). Names, e-mails, client addresses and
// user agents are never answered: they stay sealed.
import { and, asc, desc, eq, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { signatureInstances, signatureRecipients } from '../../db/schema/signature-instances';
import { notFound } from '../../domain/errors';
import type { SignatureInstanceState } from '../../domain/signatures/instance-states';
import type { Actor } from '../definitions/capability';
import { eventsOf, eventView } from './instance-events';
import { recipientBox, signingUrl } from './recipient-box';
import type { CampaignDeps } from './start-campaign';

export type InstanceRow = typeof signatureInstances.$inferSelect;
export type RecipientRow = typeof signatureRecipients.$inferSelect;

export const instanceNotFound = () => notFound('Signature instance', 'signature-instance-not-found');

export async function findInstance(db: DbOrTx, tenantId: string, id: string, forUpdate = false): Promise<InstanceRow | null> {
  const q = db
    .select()
    .from(signatureInstances)
    .where(and(eq(signatureInstances.tenantId, tenantId), eq(signatureInstances.id, id)));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

export async function requireInstance(db: DbOrTx, actor: Actor, id: string, forUpdate = false): Promise<InstanceRow> {
  const row = await findInstance(db, actor.tenantId, id, forUpdate);
  if (!row) throw instanceNotFound();
  return row;
}

export const recipientsOf = (db: DbOrTx, instanceId: string) =>
  db.select().from(signatureRecipients).where(eq(signatureRecipients.instanceId, instanceId)).orderBy(asc(signatureRecipients.order), asc(signatureRecipients.signerId));

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const instanceSummary = (row: InstanceRow) => ({
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

export async function instanceDetail(deps: CampaignDeps, row: InstanceRow) {
  const box = recipientBox(deps.settings);
  const recipients = (await recipientsOf(deps.db, row.id)).map((r) => {
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
  const events = (await eventsOf(deps.db, row.id)).map(eventView);
  return { ...instanceSummary(row), recipients, events };
}

export async function listCampaigns(
  deps: CampaignDeps,
  actor: Actor,
  p: { status?: SignatureInstanceState; definitionId?: string; before: { createdAt: Date; id: string } | null; limit: number },
) {
  const t = signatureInstances;
  return deps.db
    .select()
    .from(t)
    .where(
      and(
        eq(t.tenantId, actor.tenantId),
        p.status ? eq(t.status, p.status) : undefined,
        p.definitionId ? eq(t.definitionId, p.definitionId) : undefined,
        p.before ? or(lt(t.createdAt, p.before.createdAt), and(eq(t.createdAt, p.before.createdAt), lt(t.id, p.before.id))) : undefined,
      ),
    )
    .orderBy(desc(t.createdAt), desc(t.id))
    .limit(p.limit);
}
