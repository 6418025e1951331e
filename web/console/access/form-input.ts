// The access forms' fields, checked with the JSON API's rules (api/openapi.ts patterns, the
// access schemas' bounds) and refused in words before any service is called.
import { z } from 'zod';
import { CAPABILITY_CODE, USER_ID } from '../../../api/openapi';
import { isStorable } from '../../../api/vocabulary';
import { LEVELS } from '../../../domain/access/levels';

/** A candidate group's name within its tenant, as the API's GROUP_NAME. */
const GROUP_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export const userIdField = z.string().trim().regex(USER_ID, "Enter the person's user id: 1 to 200 visible characters, no spaces.");
export const levelField = z.enum(LEVELS, { message: 'Choose a level: read or read-write.' });
export const capabilityField = z.string().regex(CAPABILITY_CODE, 'Choose a capability.');
const note = (max: number) =>
  z
    .string()
    .max(max, `A note can be at most ${max.toLocaleString('en')} characters.`)
    .refine(isStorable, 'The note contains characters that cannot be stored.')
    .transform((v) => (v.trim() === '' ? undefined : v));
export const requestId = z.string().uuid('This request is not one the console showed.');
export const roleField = z.enum(['member', 'tenant-admin'], { message: 'Choose a role: member or owner.' });

export const RequestForm = z.object({ capabilityCode: capabilityField, requestedLevel: levelField, note: note(2000).optional() });
export const CancelForm = z.object({ id: requestId });
export const ApproveForm = z.object({ id: requestId, level: levelField });
export const DenyForm = z.object({ id: requestId, decisionNote: note(2000).optional() });
export const MemberForm = z.object({ userId: userIdField, role: roleField });
export const MemberRef = z.object({ userId: userIdField });
export const GrantForm = z.object({ capabilityCode: capabilityField, level: levelField });
export const RevokeGrantForm = z.object({ capabilityCode: capabilityField });
export const GroupForm = z.object({
  name: z.string().trim().regex(GROUP_NAME, 'A group name is 1 to 63 lower-case letters, digits, - or _, starting with a letter or a digit.'),
  description: note(500).optional(),
});
export const GroupMemberForm = z.object({ group: z.string().regex(GROUP_NAME, 'This group is not one the console showed.'), userId: userIdField });
export const InvitationForm = z.object({
  role: roleField,
  email: z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.string().email('Enter a valid e-mail address, or leave it empty.').max(300, 'The e-mail address is too long.').optional()),
});
export const InvitationRef = z.object({ id: z.string().uuid('This invitation is not one the console showed.') });
