/**
 * Outbound field roles (spec outboundRolesJson): PREPARER fields are set by the sender only (the
 * recipient sees them and cannot change them), RECIPIENT fields by the recipient only (a send may
 * not prefill them), EITHER by both. A field without a role is EITHER.
 */
import { TYPE_TRAITS } from './field-types';
import type { FormField, FormSchema } from './form-schema';
import { isAbsent, valueSchema } from './value-schemas';

export const OUTBOUND_ROLES = ['PREPARER', 'RECIPIENT', 'EITHER'] as const;
export type OutboundRole = (typeof OUTBOUND_ROLES)[number];
export type OutboundRoles = Record<string, OutboundRole>;
export interface FieldIssue {
  path: string;
  message: string;
}

const valueFields = (schema: FormSchema): Map<string, FormField> =>
  new Map(schema.fields.filter((f) => TYPE_TRAITS[f.type].value !== 'none').map((f) => [f.key, f]));

export const roleOf = (roles: OutboundRoles, key: string): OutboundRole => (Object.hasOwn(roles, key) ? roles[key]! : 'EITHER');

/** Roles may only name value-holding fields of the schema (paths `roles.<key>`). */
export function roleIssues(schema: FormSchema, roles: OutboundRoles): FieldIssue[] {
  const fields = valueFields(schema);
  return Object.keys(roles)
    .filter((key) => !fields.has(key))
    .map((key) => ({ path: `roles.${key}`, message: 'is not a field of the form that holds a value' }));
}

/**
 * A send's prefill against the pinned version: unknown keys and values the field cannot hold are
 * `invalid` (a sender's mistake is refused, not silently dropped); a RECIPIENT field is `locked`.
 */
export function prefillIssues(schema: FormSchema, roles: OutboundRoles, prefill: Record<string, unknown>): { invalid: FieldIssue[]; locked: FieldIssue[] } {
  const fields = valueFields(schema);
  const invalid: FieldIssue[] = [];
  const locked: FieldIssue[] = [];
  for (const [key, value] of Object.entries(prefill)) {
    const field = fields.get(key);
    const path = `prefill.${key}`;
    if (!field) invalid.push({ path, message: 'is not a field of the form that holds a value' });
    else if (roleOf(roles, key) === 'RECIPIENT') locked.push({ path, message: 'is answered by the recipient and cannot be prefilled' });
    else if (!isAbsent(value)) {
      const parsed = valueSchema(field)!.safeParse(value);
      if (!parsed.success) invalid.push({ path, message: parsed.error.issues[0]?.message ?? 'is not a valid value' });
    }
  }
  return { invalid, locked };
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** PREPARER fields whose value in `data` differs from the prefill (paths `data.<key>`). */
export function preparerChanges(roles: OutboundRoles, prefill: Record<string, unknown>, data: Record<string, unknown>): FieldIssue[] {
  return Object.keys(data)
    .filter((key) => roleOf(roles, key) === 'PREPARER' && !sameValue(data[key], prefill[key]))
    .map((key) => ({ path: `data.${key}`, message: 'is set by the sender and cannot be changed' }));
}
