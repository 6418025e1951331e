// Mailing a recipient its signing link (armed, or reminded) and recording the outcome on the
// recipient (`delivery_status`, `delivery_error`: an error code, never the address).
import { and, eq, sql } from 'drizzle-orm';
import { signatureDefinitions } from '../../db/schema/signatures';
import { signatureRecipients } from '../../db/schema/signature-instances';
import { deliverSigningLink } from './ceremony-mail';
import type { InstanceRow, RecipientRow } from './campaign-reads';
import { recipientBox, signingUrl } from './recipient-box';
import type { CampaignDeps } from './start-campaign';

export async function campaignTitle(deps: CampaignDeps, row: InstanceRow): Promise<string> {
  const [d] = await deps.db
    .select({ name: signatureDefinitions.name })
    .from(signatureDefinitions)
    .where(and(eq(signatureDefinitions.tenantId, row.tenantId), eq(signatureDefinitions.id, row.definitionId)));
  return d?.name ?? 'document';
}

export async function mailRecipient(deps: CampaignDeps, row: InstanceRow, r: RecipientRow, reminder: boolean, title?: string) {
  const box = recipientBox(deps.settings);
  const token = box.open(row.id, r.signerId, 'token', r.tokenSealed);
  const to = { email: box.open(row.id, r.signerId, 'email', r.emailSealed), name: box.open(row.id, r.signerId, 'name', r.nameSealed) };
  const delivery = await deliverSigningLink(deps, { instanceId: row.id, to, title: title ?? (await campaignTitle(deps, row)), link: signingUrl(deps.settings, token), reminder });
  await deps.db
    .update(signatureRecipients)
    .set({
      deliveryStatus: delivery.status,
      deliveryError: delivery.status === 'FAILED' ? delivery.error : null,
      deliveredAt: delivery.status === 'SENT' ? sql`now()` : signatureRecipients.deliveredAt,
    })
    .where(eq(signatureRecipients.id, r.id));
  return delivery.status;
}
