// The verified recipient's form (spec: GET, PATCH /api/public/form-instances/{token}, POST
// .../submit): render with prefill, autosave, submit. PREPARER fields keep the sender's values
// (400 `field-not-editable` naming each); file fields hold only the instance's own uploads
// (recipient-attachments.ts); submit goes through the one way an instance becomes SUBMITTED, with
// the intake start row, as the instance API's submit does.
import { findFormInstance, updateFormInstance, type FormInstanceRow } from '../../db/queries/form-instances';
import { AppError } from '../../domain/errors';
import { TYPE_TRAITS } from '../../domain/forms/field-types';
import type { FormSchema } from '../../domain/forms/form-schema';
import { isEditable, isSubmittable } from '../../domain/forms/instance-rules';
import { preparerChanges, type OutboundRoles } from '../../domain/forms/outbound-roles';
import { repairFormSchema } from '../../domain/forms/schema-repair';
import { validateSubmission } from '../../domain/forms/submission';
import type { DefinitionDeps } from '../definitions/capability';
import { formDefinitionCapability as cap } from './form-definitions';
import { submissionErrors } from './public-intake';
import { authorizedInstance, recipientNotFound } from './recipient-access';
import { foreignFiles } from './recipient-attachments';
import type { OutboundDeps } from './outbound-send';
import { markInstanceSubmitted } from './submit-instance';

export interface RecipientForm {
  code: string;
  version: number;
  title: string;
  schema: FormSchema;
  prefill: Record<string, unknown>;
  data: Record<string, unknown>;
  roles: OutboundRoles;
  state: string;
  expiresAt: string | null;
}

const rolesOf = (row: FormInstanceRow): OutboundRoles => (row.context.outboundRoles ?? {}) as OutboundRoles;

async function schemaOf(deps: DefinitionDeps, row: FormInstanceRow): Promise<FormSchema> {
  const version = await cap.queries.findVersion(deps.db, { tenantId: row.tenantId, definitionId: row.definitionId, version: row.definitionVersion });
  if (!version) throw recipientNotFound();
  return repairFormSchema(version.schema);
}

const formView = (row: FormInstanceRow, schema: FormSchema): RecipientForm => ({
  code: row.definitionCode,
  version: row.definitionVersion,
  title: schema.title,
  schema,
  prefill: row.prefill,
  data: row.data,
  roles: rolesOf(row),
  state: row.state,
  expiresAt: row.expiresAt?.toISOString() ?? null,
});

const stateConflict = (row: FormInstanceRow, step: string) =>
  new AppError('instance-state-conflict', `A ${row.state} form cannot be ${step}`, { state: row.state });

function refuseLocked(row: FormInstanceRow, data: Record<string, unknown>) {
  const errors = preparerChanges(rolesOf(row), row.prefill, data);
  if (errors.length) throw new AppError('field-not-editable', `${errors[0]!.path} ${errors[0]!.message}`, { errors });
}

/** Only keys of value-holding fields are kept: a public client cannot park arbitrary data. */
const knownKeys = (schema: FormSchema, data: Record<string, unknown>) => {
  const keys = new Set(schema.fields.filter((f) => TYPE_TRAITS[f.type].value !== 'none').map((f) => f.key));
  return Object.fromEntries(Object.entries(data).filter(([k]) => keys.has(k)));
};

export async function readRecipientForm(deps: OutboundDeps, token: string, accessToken: string | undefined): Promise<RecipientForm> {
  const row = await authorizedInstance(deps, token, accessToken);
  return formView(row, await schemaOf(deps, row));
}

/** Autosave: replaces the saved answers (last write wins; nothing is validated until submit). */
export async function autosaveRecipientForm(deps: OutboundDeps, token: string, accessToken: string | undefined, data: Record<string, unknown>): Promise<RecipientForm> {
  const found = await authorizedInstance(deps, token, accessToken);
  const schema = await schemaOf(deps, found);
  const saved = await deps.db.transaction(async (tx) => {
    const row = await findFormInstance(tx, { tenantId: found.tenantId, id: found.id, forUpdate: true });
    if (!row) throw recipientNotFound();
    if (!isEditable(row.state)) throw stateConflict(row, 'edited');
    refuseLocked(row, data);
    return (await updateFormInstance(tx, { tenantId: row.tenantId, id: row.id, version: row.version }, { data: knownKeys(schema, data) }))!;
  });
  return formView(saved, schema);
}

/** The body's answers over the saved ones over the prefill, validated against the pinned version; SUBMITTED with the intake start row. */
export async function submitRecipientForm(deps: OutboundDeps, token: string, accessToken: string | undefined, data: Record<string, unknown> | undefined): Promise<RecipientForm> {
  const found = await authorizedInstance(deps, token, accessToken);
  const schema = await schemaOf(deps, found);
  const submitted = await deps.db.transaction(async (tx) => {
    const row = await findFormInstance(tx, { tenantId: found.tenantId, id: found.id, forUpdate: true });
    if (!row) throw recipientNotFound();
    if (!isSubmittable(row.state)) throw stateConflict(row, 'submitted');
    refuseLocked(row, data ?? {});
    const result = validateSubmission(schema, { ...row.prefill, ...row.data, ...(data ?? {}) });
    if (!result.ok) {
      const errors = submissionErrors(result.errors);
      throw new AppError('validation-failed', `Invalid submission: ${errors[0]!.path}: ${errors[0]!.message}`, { errors });
    }
    const foreign = await foreignFiles(tx, row, schema, result.data);
    if (foreign.length) throw new AppError('validation-failed', `Invalid submission: ${foreign[0]!.path}: ${foreign[0]!.message}`, { errors: foreign });
    return markInstanceSubmitted(tx, row, result.data);
  });
  return formView(submitted, schema);
}
