import { z } from '@hono/zod-openapi';
import { ACCESS_REQUEST_STATUSES, MAX_REQUEST_DURATION_DAYS } from '../../domain/access/expiry';
import { LEVELS } from '../../domain/access/levels';
import { CAPABILITY_CODE, TENANT_ID } from '../openapi';
import { int32, text } from '../vocabulary';

export const Level = z.enum(LEVELS).openapi('Level');
const iso = z.string().openapi({ format: 'date-time' });
/** An instant with its offset (`Z` or `±hh:mm`), as a grant's end. */
const instant = z.iso.datetime({ offset: true }).openapi({ format: 'date-time', example: '2027-01-31T17:00:00Z' });
export const AccessRequestStatus = z.enum(ACCESS_REQUEST_STATUSES).openapi('AccessRequestStatus');
/** A candidate group's name within its tenant. */
export const GROUP_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const code = z.string().regex(CAPABILITY_CODE, 'must be an upper-case capability code');

export const Capability = z
  .object({
    code: z.string(),
    name: z.string(),
    route: z.string(),
    icon: z.string(),
    status: z.enum(['ACTIVE', 'BETA', 'RETIRED']),
    tier: z.enum(['FREE', 'STANDARD', 'PREMIUM']).openapi({ description: 'Descriptive badge only; never enforced.' }),
  })
  .openapi('Capability');

export const CapabilityBody = Capability.omit({ code: true }).extend({
  icon: text({ min: 0, max: 100 }).default(''),
  status: z.enum(['ACTIVE', 'BETA', 'RETIRED']).default('ACTIVE'),
  tier: z.enum(['FREE', 'STANDARD', 'PREMIUM']).default('STANDARD'),
  name: text({ max: 200 }),
  route: text({ max: 200 }),
});
export const CapabilityCreateBody = CapabilityBody.extend({ code }).openapi('CapabilityCreate');

export const Subscription = z
  .object({
    tenantId: z.string(),
    capabilityCode: z.string(),
    capabilityName: z.string(),
    route: z.string(),
    icon: z.string(),
    tier: z.string(),
    status: z.enum(['ACTIVE', 'SUSPENDED']),
    updatedBy: z.string(),
    updatedAt: iso,
  })
  .openapi('Subscription');

export const Grant = z
  .object({
    tenantId: z.string(),
    userId: z.string(),
    userName: z.string().nullable(),
    capabilityCode: z.string(),
    capabilityName: z.string(),
    level: Level,
    effectiveLevel: Level.nullable().openapi({ description: 'null while the subscription is not ACTIVE (rule 1)' }),
    grantedBy: z.string(),
    grantedAt: iso,
    expiresAt: iso.nullable().openapi({ description: 'When the grant is revoked by its timer (audit reason `expired`); null: until revoked' }),
  })
  .openapi('Grant');

export const GrantBody = z
  .object({
    level: Level,
    expiresAt: instant
      .nullable()
      .optional()
      .openapi({ description: 'When the grant ends (in the future). Absent or null: it lasts until revoked; a PUT without it removes an end.' }),
  })
  .openapi('GrantBody');

export const AccessRequest = z
  .object({
    id: z.string().uuid(),
    tenantId: z.string(),
    userId: z.string(),
    userName: z.string().nullable(),
    capabilityCode: z.string(),
    capabilityName: z.string().nullable(),
    requestedLevel: Level,
    grantedLevel: Level.nullable(),
    status: AccessRequestStatus,
    note: z.string().nullable(),
    requestedDurationDays: z.number().int().nullable().openapi({ description: 'The grant duration asked for; an approval without expiresAt grants it for this long' }),
    decidedBy: z.string().nullable(),
    decidedByName: z.string().nullable(),
    decisionNote: z.string().nullable(),
    createdAt: iso,
    decidedAt: iso.nullable(),
  })
  .openapi('AccessRequest');

export const AccessRequestBody = z
  .object({
    capabilityCode: code,
    requestedLevel: Level,
    note: text({ min: 0, max: 2000, trim: false }).optional(),
    durationDays: int32({ min: 1, max: MAX_REQUEST_DURATION_DAYS })
      .optional()
      .openapi({ description: 'Ask for a grant that ends this many days after the approval' }),
  })
  .openapi('AccessRequestCreate');

export const ApproveBody = z
  .object({
    level: Level.optional(),
    expiresAt: instant.optional().openapi({ description: "When the grant ends (in the future); default: the request's durationDays from now, else never" }),
  })
  .openapi('ApproveBody');
export const DenyBody = z.object({ decisionNote: text({ min: 0, max: 2000, trim: false }).optional() }).openapi('DenyBody');

export const TenantBody = z
  .object({
    id: z.string().regex(TENANT_ID, 'must be lower-case letters, digits and dashes (max 63)'),
    name: text({ max: 200 }),
  })
  .openapi('TenantCreate');
export const Tenant = z
  .object({ id: z.string(), name: z.string(), createdBy: z.string(), createdAt: iso })
  .openapi('Tenant');

export const Member = z
  .object({
    userId: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    role: z.enum(['member', 'tenant-admin', 'api-client']).openapi({ description: '`api-client`: a machine principal (see api-clients)' }),
    isOwner: z.boolean(),
    addedBy: z.string(),
    joinedAt: iso,
  })
  .openapi('Member');

export const RoleBody = z.object({ role: z.enum(['tenant-admin', 'member']) }).openapi('RoleBody');

export const MyAccess = z
  .object({
    isOwner: z.boolean(),
    isOperator: z.boolean(),
    sections: z.array(z.enum(['manage-my-access', 'approve-requests', 'members', 'candidate-groups', 'invitations'])),
  })
  .openapi('MyAccess');

export const AuditEntry = z
  .object({
    id: z.number().int(),
    tenantId: z.string(),
    actor: z.string(),
    action: z.string(),
    subjectUserId: z.string().nullable(),
    capabilityCode: z.string().nullable(),
    detail: z.record(z.string(), z.unknown()),
    at: iso,
  })
  .openapi('AccessAuditEntry');

export const InvitationBody = z
  .object({
    email: z.string().email().max(300).optional(),
    role: z.enum(['member', 'tenant-admin']).default('member'),
  })
  .openapi('InvitationCreate');
export const Invitation = z
  .object({
    id: z.string().uuid(),
    tenantId: z.string(),
    email: z.string().nullable(),
    role: z.enum(['member', 'tenant-admin']),
    status: z.enum(['PENDING', 'ACCEPTED', 'REVOKED', 'EXPIRED']),
    createdBy: z.string(),
    createdAt: iso,
    expiresAt: iso,
    acceptedBy: z.string().nullable(),
  })
  .openapi('Invitation');
export const InvitationCreated = Invitation.extend({
  token: z.string().openapi({ description: 'Shown once; only its hash is stored.' }),
}).openapi('InvitationCreated');

export const GroupBody = z
  .object({
    name: z.string().regex(GROUP_NAME, 'must be lower-case letters, digits, - and _'),
    description: text({ min: 0, max: 500, trim: false }).optional(),
  })
  .openapi('CandidateGroupCreate');
export const Group = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    memberCount: z.number().int(),
    createdAt: iso,
  })
  .openapi('CandidateGroup');
export const GroupMember = z
  .object({ userId: z.string(), name: z.string().nullable(), addedAt: iso })
  .openapi('CandidateGroupMember');

export const toIso = (d: Date) => d.toISOString();
export const toIsoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

export const ApiClientBody = z
  .object({ name: text({ max: 200 }).regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters') })
  .openapi('ApiClientCreate');
export const ApiClient = z
  .object({
    clientId: z.string().openapi({ description: 'HTTP Basic user name; also the user id of its membership and grants' }),
    tenantId: z.string(),
    name: z.string(),
    createdBy: z.string(),
    createdAt: iso,
    revokedBy: z.string().nullable(),
    revokedAt: iso.nullable(),
  })
  .openapi('ApiClient');
export const ApiClientCreated = ApiClient.extend({
  secret: z.string().openapi({ description: 'HTTP Basic password. Shown once; only a salted scrypt hash is stored.' }),
}).openapi('ApiClientCreated');
