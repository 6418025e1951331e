// POST /api/signature-instances (issue 13 §2): a campaign from the published version. Every
// signer role has exactly one recipient and every required variable a value (400 naming what is
// wrong); SMS_OTP and IDV signers are refused (501). One transaction writes the instance, its
// recipients (one token each, armed by the routing) and the ceremony's outbox start row.
import { enqueueStart } from '../../db/outbox';
import { findSignatureInstanceIdByStartKey, insertSignatureInstance } from '../../db/queries/signature-instances';
import { insertSignatureRecipients } from '../../db/queries/signature-recipients';
import { AppError } from '../../domain/errors';
import { SignatureCeremonyProcess } from '../../domain/signatures/ceremony-process';
import { initialStatus } from '../../domain/signatures/routing';
import { repairSigningSchema } from '../../domain/signatures/schema-repair';
import { signingInputInvalid, type Issue } from '../../domain/signatures/signing-input';
import type { SigningSchema } from '../../domain/signatures/signing-schema';
import type { Actor } from '../definitions/capability';
import { getDefinition } from '../definitions/read-definitions';
import type { CampaignDeps } from './campaign-deps';
import { recordEvent } from './instance-events';
import { hashSigningToken, newSigningToken, recipientBox } from './recipient-box';
import { signatureDefinitionCapability as cap } from './signature-definitions';

export interface StartCampaign {
  definitionId: string;
  recipients: { signerId: string; name: string; email: string }[];
  variables?: Record<string, string>;
  expiresAt?: string;
  timeZone?: string;
}

const OPERATIONAL = new Set(['NONE', 'EMAIL_OTP']);

/** What is wrong with the recipients and variables against the pinned schema. */
export function startIssues(schema: SigningSchema, input: StartCampaign, now: Date): Issue[] {
  const issues: Issue[] = [];
  const roles = new Set(schema.signers.map((s) => s.id));
  const seen = new Set<string>();
  input.recipients.forEach((r, i) => {
    if (!roles.has(r.signerId)) issues.push({ path: `recipients.${i}.signerId`, message: `unknown signer role "${r.signerId}"` });
    else if (seen.has(r.signerId)) issues.push({ path: `recipients.${i}.signerId`, message: `signer role "${r.signerId}" has more than one recipient` });
    seen.add(r.signerId);
  });
  for (const s of schema.signers) {
    if (!seen.has(s.id)) issues.push({ path: 'recipients', message: `signer role "${s.id}" has no recipient` });
  }
  const variables = input.variables ?? {};
  for (const v of schema.variables) {
    if (v.required && !(variables[v.key] ?? '').trim()) issues.push({ path: `variables.${v.key}`, message: `required variable "${v.key}" is missing` });
  }
  if (input.expiresAt && Date.parse(input.expiresAt) <= now.getTime()) issues.push({ path: 'expiresAt', message: 'must be in the future' });
  if (input.timeZone && !validTimeZone(input.timeZone)) issues.push({ path: 'timeZone', message: 'not an IANA time zone' });
  return issues;
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The published version of a definition, repaired; 404, 409 when it has none. */
export async function publishedVersionOf(deps: CampaignDeps, actor: Actor, definitionId: string) {
  const definition = await getDefinition(deps, cap, actor, definitionId);
  if (definition.status !== 'PUBLISHED' || definition.publishedVersion == null) {
    throw new AppError('signature-definition-not-published', `Signature definition ${definition.code} has no published version (status ${definition.status})`);
  }
  const version = await cap.queries.findVersion(deps.db, { tenantId: actor.tenantId, definitionId, version: definition.publishedVersion });
  if (!version) throw new AppError('definition-not-found', 'Signature definition was not found');
  return { definition, version, schema: repairSigningSchema(version.schema).schema };
}

/**
 * `platform.waitingWorkflowId` is set by the platform activity only (a tenant's request cannot
 * name a workflow to signal); `platform.startKey` makes a retried activity find its first campaign.
 */
export async function startCampaign(
  deps: CampaignDeps,
  actor: Actor,
  input: StartCampaign,
  platform: { waitingWorkflowId?: string; startKey?: string } = {},
): Promise<{ instanceId: string }> {
  if (platform.startKey) {
    const earlier = await findSignatureInstanceIdByStartKey(deps.db, { tenantId: actor.tenantId, startKey: platform.startKey });
    if (earlier) return { instanceId: earlier };
  }
  const { version, schema } = await publishedVersionOf(deps, actor, input.definitionId);
  const unavailable = schema.signers.filter((s) => !OPERATIONAL.has(s.verify ?? 'NONE'));
  if (unavailable.length) {
    throw new AppError(
      'verification-method-not-available',
      `Signer ${unavailable.map((s) => `"${s.id}" (${s.verify})`).join(', ')} uses a verification method that is not available; NONE and EMAIL_OTP are`,
    );
  }
  const now = deps.clock?.() ?? new Date();
  const issues = startIssues(schema, input, now);
  if (issues.length) throw signingInputInvalid('Invalid campaign', issues);
  const box = recipientBox(deps.settings);
  const known = new Set(schema.variables.map((v) => v.key));
  const variables = Object.fromEntries(Object.entries(input.variables ?? {}).filter(([k]) => known.has(k)));
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;

  return deps.db.transaction(async (tx) => {
    const instanceId = await insertSignatureInstance(tx, {
      tenantId: actor.tenantId,
      definitionId: input.definitionId,
      versionId: version.id,
      version: version.version,
      variables,
      timeZone: input.timeZone ?? 'UTC',
      expiresAt,
      waitingWorkflowId: platform.waitingWorkflowId ?? null,
      startKey: platform.startKey ?? null,
      createdBy: actor.userId,
    });
    const signers = new Map(schema.signers.map((s) => [s.id, s]));
    await insertSignatureRecipients(tx, {
      rows: input.recipients.map((r) => {
        const signer = signers.get(r.signerId)!;
        const token = newSigningToken();
        return {
          instanceId,
          tenantId: actor.tenantId,
          signerId: r.signerId,
          order: signer.order,
          status: initialStatus(schema.routing, schema.signers, signer.order),
          tokenHash: hashSigningToken(token),
          tokenSealed: box.seal(instanceId, r.signerId, 'token', token),
          nameSealed: box.seal(instanceId, r.signerId, 'name', r.name),
          emailSealed: box.seal(instanceId, r.signerId, 'email', r.email),
          verify: signer.verify ?? 'NONE',
        };
      }),
    });
    await recordEvent(tx, box, { tenantId: actor.tenantId, instanceId, action: 'created' });
    await enqueueStart(tx, SignatureCeremonyProcess, { tenantId: actor.tenantId, instanceId, expiresAt: expiresAt?.toISOString() ?? null });
    return { instanceId };
  });
}

/** The legacy single-request path: a campaign whose definition has exactly one signer role. */
export async function startSingleSigner(
  deps: CampaignDeps,
  actor: Actor,
  input: { definitionId: string; recipient: { name: string; email: string }; variables?: Record<string, string> },
) {
  const { schema } = await publishedVersionOf(deps, actor, input.definitionId);
  if (schema.signers.length !== 1) {
    throw signingInputInvalid('Invalid signature request', [
      { path: 'definitionId', message: `the legacy path needs a definition with exactly one signer role (this one has ${schema.signers.length})` },
    ]);
  }
  return startCampaign(deps, actor, { definitionId: input.definitionId, recipients: [{ signerId: schema.signers[0]!.id, ...input.recipient }], variables: input.variables });
}
