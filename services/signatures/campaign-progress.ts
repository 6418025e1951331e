// Recipients' progress of the tenant's campaigns, for pages that show where a campaign stands
// without its secrets: no token, signing URL, name or e-mail is opened here (the API's detail
// answers tokens; a page that only shows progress has no reason to unseal them).
import type { DbOrTx } from '../../db/client';
import type { SignatureInstanceRow } from '../../db/queries/signature-instances';
import { listSignatureRecipients } from '../../db/queries/signature-recipients';
import type { RecipientState } from '../../domain/signatures/instance-states';

export interface RecipientProgress {
  signerId: string;
  order: number;
  status: RecipientState;
  deliveryStatus: string | null;
  openedAt: Date | null;
  signedAt: Date | null;
}

export interface CampaignProgress {
  signed: number;
  total: number;
  recipients: RecipientProgress[];
}

/** Progress of each campaign (rows already read under the caller's tenant), by instance id. */
export async function campaignProgress(db: DbOrTx, rows: readonly Pick<SignatureInstanceRow, 'id'>[]): Promise<Map<string, CampaignProgress>> {
  const entries = await Promise.all(
    rows.map(async (row) => {
      const recipients = (await listSignatureRecipients(db, { instanceId: row.id })).map((r) => ({
        signerId: r.signerId,
        order: r.order,
        status: r.status,
        deliveryStatus: r.deliveryStatus,
        openedAt: r.openedAt,
        signedAt: r.signedAt,
      }));
      const signed = recipients.filter((r) => r.status === 'R_SIGNED').length;
      return [row.id, { signed, total: recipients.length, recipients }] as const;
    }),
  );
  return new Map(entries);
}
