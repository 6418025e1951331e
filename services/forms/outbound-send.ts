// Spec: POST .../send. A SENT instance pinned to the published version, prefilled and naming its
// recipient; the link is e-mailed after the commit, best effort (rule 6), and the delivery's
// outcome is recorded in the instance's recipient map (`deliveryStatus`, `deliveredAt`,
// `deliveryError`), which is personal data and never logged.
import { findSentFormInstance, insertFormInstance, mergeFormInstanceRecipient, type FormInstanceRow } from '../../db/queries/form-instances';
import { AppError } from '../../domain/errors';
import { repairFormSchema } from '../../domain/forms/schema-repair';
import { WAITING_WORKFLOW_KEY } from '../../domain/forms/instance-events';
import { prefillIssues } from '../../domain/forms/outbound-roles';
import type { Actor, DefinitionDeps } from '../definitions/capability';
import { formDefinitionCapability as cap } from './form-definitions';
import { deliverLink, type Delivery, type MailDeps, type Recipient } from './outbound-mail';
import { outboundDefinition, type DefinitionRef } from './outbound-config';
import { newInstanceToken } from './submit-instance';

export type OutboundDeps = DefinitionDeps & MailDeps;

export interface SendOutbound {
  recipient: Recipient;
  prefill?: Record<string, unknown>;
  expiresAt?: Date;
  context?: Record<string, unknown>;
}

export interface SentForm {
  instanceId: string;
  token: string;
  link: string;
  expiresAt: string;
  deliveryStatus: Delivery['status'];
}

/** Context keys only the platform writes: processing state, the pinned roles, the waiting workflow. */
const PLATFORM_CONTEXT_KEYS = ['processStartStatus', 'processInstanceId', 'outboundRoles', WAITING_WORKFLOW_KEY, 'sendKey'];

export const recipientLink = (deps: DefinitionDeps, token: string) => `${deps.settings['public.base-url'].replace(/\/+$/, '')}/respond/${token}`;

/**
 * `platform.waitingWorkflowId` is set by the workflow activity only (a tenant's request cannot
 * name a workflow to signal); `platform.sendKey` makes a retried activity find its first send.
 */
export async function sendOutboundForm(
  deps: OutboundDeps,
  actor: Actor,
  ref: DefinitionRef,
  input: SendOutbound,
  platform: { waitingWorkflowId?: string; sendKey?: string } = {},
): Promise<SentForm> {
  const definition = await outboundDefinition(deps, actor, ref);
  if (platform.sendKey) {
    const earlier = await findSentFormInstance(deps.db, { tenantId: actor.tenantId, sendKey: platform.sendKey });
    if (earlier) return sentView(deps, earlier);
  }
  if (definition.status !== 'PUBLISHED' || definition.publishedVersion == null) {
    throw new AppError('form-not-published', `Form definition ${definition.code} has no published version (status ${definition.status})`);
  }
  const version = await cap.queries.findVersion(deps.db, { tenantId: actor.tenantId, definitionId: definition.id, version: definition.publishedVersion });
  if (!version) throw new AppError('definition-not-found', 'Form definition was not found');
  const schema = repairFormSchema(version.schema);
  const prefill = input.prefill ?? {};
  const roles = definition.outboundRolesJson;
  const { invalid, locked } = prefillIssues(schema, roles, prefill);
  if (invalid.length) throw new AppError('validation-failed', `Invalid prefill: ${invalid[0]!.path}: ${invalid[0]!.message}`, { errors: invalid });
  if (locked.length) throw new AppError('field-not-editable', `${locked[0]!.path} ${locked[0]!.message}`, { errors: locked });

  const now = deps.clock?.() ?? new Date();
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('validation-failed', 'Invalid send: expiresAt: must be in the future', { errors: [{ path: 'expiresAt', message: 'must be in the future' }] });
  }
  const expiresAt = input.expiresAt ?? new Date(now.getTime() + deps.settings['forms.outbound.default-expiry-days'] * 86_400_000);
  const context = Object.fromEntries(Object.entries(input.context ?? {}).filter(([k]) => !PLATFORM_CONTEXT_KEYS.includes(k)));
  const recipient = input.recipient.name ? { email: input.recipient.email, name: input.recipient.name } : { email: input.recipient.email };

  const row = await insertFormInstance(deps.db, {
    tenantId: actor.tenantId,
    token: newInstanceToken(),
    definitionId: definition.id,
    definitionCode: definition.code,
    definitionVersion: version.version,
    state: 'SENT',
    prefill,
    data: {},
    recipient,
    // The roles are pinned with the version: a later outbound-config never changes a sent form.
    context: {
      ...context,
      outboundRoles: roles,
      ...(platform.waitingWorkflowId ? { [WAITING_WORKFLOW_KEY]: platform.waitingWorkflowId } : {}),
      ...(platform.sendKey ? { sendKey: platform.sendKey } : {}),
    },
    origin: 'OUTBOUND',
    createdBy: actor.userId,
    expiresAt,
  });
  const delivery = await deliverLink(deps, { instanceId: row.id, tenantId: row.tenantId, to: recipient, title: schema.title, link: recipientLink(deps, row.token), expiresAt });
  return sentView(deps, await recordDelivery(deps, row, delivery));
}

async function recordDelivery(deps: DefinitionDeps, row: FormInstanceRow, delivery: Delivery): Promise<FormInstanceRow> {
  const fields = delivery.status === 'SENT' ? { deliveryStatus: 'SENT', deliveredAt: delivery.at } : { deliveryStatus: 'FAILED', deliveredAt: null, deliveryError: delivery.error };
  // Not a change by anyone: the optimistic-lock counter stays.
  const updated = await mergeFormInstanceRecipient(deps.db, { id: row.id, fields });
  return updated ?? row;
}

const sentView = (deps: DefinitionDeps, row: FormInstanceRow): SentForm => ({
  instanceId: row.id,
  token: row.token,
  link: recipientLink(deps, row.token),
  expiresAt: row.expiresAt!.toISOString(),
  deliveryStatus: row.recipient.deliveryStatus === 'SENT' ? 'SENT' : 'FAILED',
});
