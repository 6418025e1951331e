// Mailing a recipient its signing link (armed, or reminded) and recording the outcome on the
// recipient (`delivery_status`, `delivery_error`: an error code, never the address).
import { findSignatureDefinitionName } from '../../db/queries/signature-definitions';
import type { SignatureInstanceRow } from '../../db/queries/signature-instances';
import { recordSignatureRecipientDelivery, type SignatureRecipientRow } from '../../db/queries/signature-recipients';
import type { CampaignDeps } from './campaign-deps';
import { deliverSigningLink } from './ceremony-mail';
import { recipientBox, signingUrl } from './recipient-box';

export async function campaignTitle(deps: CampaignDeps, row: SignatureInstanceRow): Promise<string> {
  return (await findSignatureDefinitionName(deps.db, { tenantId: row.tenantId, id: row.definitionId })) ?? 'document';
}

export async function mailRecipient(deps: CampaignDeps, row: SignatureInstanceRow, r: SignatureRecipientRow, reminder: boolean, title?: string) {
  const box = recipientBox(deps.settings);
  const token = box.open(row.id, r.signerId, 'token', r.tokenSealed);
  const to = { email: box.open(row.id, r.signerId, 'email', r.emailSealed), name: box.open(row.id, r.signerId, 'name', r.nameSealed) };
  const delivery = await deliverSigningLink(deps, { row, to, title: title ?? (await campaignTitle(deps, row)), link: signingUrl(deps.settings, token), reminder });
  await recordSignatureRecipientDelivery(deps.db, { id: r.id, deliveryStatus: delivery.status, deliveryError: delivery.status === 'FAILED' ? delivery.error : null });
  return delivery.status;
}
