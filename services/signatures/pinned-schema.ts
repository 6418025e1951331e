// The signing schema a campaign is pinned to (its version's), repaired as every reader sees it.
import { findSignatureVersionSchema } from '../../db/queries/signature-definitions';
import { repairSigningSchema } from '../../domain/signatures/schema-repair';
import type { SigningSchema } from '../../domain/signatures/signing-schema';
import type { CampaignDeps } from './campaign-deps';

export async function pinnedSchema(deps: CampaignDeps, versionId: string): Promise<SigningSchema> {
  return repairSigningSchema(await findSignatureVersionSchema(deps.db, { versionId })).schema;
}
