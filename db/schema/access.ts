import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ACCESS_REQUEST_STATUSES } from '../../domain/access/expiry';
import { LEVELS } from '../../domain/access/levels';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const tenants = pgTable('tenants', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: createdAt(),
});

/** User directory kept current from the gateway's X-User-Name / X-User-Email headers. */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  name: text('name'),
  email: text('email'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const tenantMembers = pgTable(
  'tenant_members',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    /** `api-client`: a machine principal (api_clients row); never an owner or tenant-admin. */
    role: text('role', { enum: ['member', 'tenant-admin', 'api-client'] }).notNull().default('member'),
    addedBy: text('added_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] }), index('tenant_members_user_idx').on(t.userId)],
);

/**
 * Groups: OWNERSHIP (`owner:<tenantId>`), ROLE (tenant candidate groups, and the global
 * `tenant-admin` role group) and OPERATOR (global platform operator groups). tenantId is null
 * for global groups.
 */
export const groups = pgTable('groups', {
  id: text('id').primaryKey(),
  type: text('type', { enum: ['OWNERSHIP', 'ROLE', 'OPERATOR'] }).notNull(),
  tenantId: text('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  description: text('description'),
  createdAt: createdAt(),
});

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    /**
     * The group's tenant, copied from `groups` by a trigger (null for global groups), so a tenant
     * group's member must be a member of that tenant and leaves the group when they leave it.
     */
    tenantId: text('tenant_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.userId] }),
    index('group_members_membership_idx').on(t.tenantId, t.userId),
    foreignKey({
      name: 'group_members_membership_fk',
      columns: [t.tenantId, t.userId],
      foreignColumns: [tenantMembers.tenantId, tenantMembers.userId],
    }).onDelete('cascade'),
  ],
);

export const capabilities = pgTable('capabilities', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  route: text('route').notNull(),
  icon: text('icon').notNull().default(''),
  status: text('status', { enum: ['ACTIVE', 'BETA', 'RETIRED'] }).notNull().default('ACTIVE'),
  tier: text('tier', { enum: ['FREE', 'STANDARD', 'PREMIUM'] }).notNull().default('STANDARD'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const capabilitySubscriptions = pgTable(
  'capability_subscriptions',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    capabilityCode: text('capability_code')
      .notNull()
      .references(() => capabilities.code),
    status: text('status', { enum: ['ACTIVE', 'SUSPENDED'] }).notNull(),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.capabilityCode] })],
);

export const capabilityGrants = pgTable(
  'capability_grants',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    capabilityCode: text('capability_code')
      .notNull()
      .references(() => capabilities.code),
    level: text('level', { enum: LEVELS }).notNull(),
    grantedBy: text('granted_by').notNull(),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the grant is revoked by its timer (migration 0026); null: it lasts until revoked. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The grantExpiry process that revokes it (set exactly when expiresAt is): a renewal gets a new one. */
    expiryId: uuid('expiry_id'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.capabilityCode] }),
    check('capability_grants_expiry_ck', sql`(${t.expiresAt} is null) = (${t.expiryId} is null)`),
    // A grant exists only on a membership: removing the member removes it, whatever raced.
    foreignKey({
      name: 'capability_grants_membership_fk',
      columns: [t.tenantId, t.userId],
      foreignColumns: [tenantMembers.tenantId, tenantMembers.userId],
    }).onDelete('cascade'),
  ],
);

export const accessRequests = pgTable(
  'access_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    capabilityCode: text('capability_code')
      .notNull()
      .references(() => capabilities.code),
    requestedLevel: text('requested_level', { enum: LEVELS }).notNull(),
    status: text('status', { enum: ACCESS_REQUEST_STATUSES })
      .notNull()
      .default('PENDING'),
    note: text('note'),
    /** The grant's duration the requester asked for; an approval without expiresAt grants it for this long. */
    requestedDurationDays: integer('requested_duration_days'),
    grantedLevel: text('granted_level', { enum: LEVELS }),
    decidedBy: text('decided_by'),
    decisionNote: text('decision_note'),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    // Rule: one open request per (tenant, user, capability); concurrent submits race on this.
    uniqueIndex('access_requests_one_open_idx')
      .on(t.tenantId, t.userId, t.capabilityCode)
      .where(sql`status = 'PENDING'`),
    index('access_requests_tenant_status_idx').on(t.tenantId, t.status, t.createdAt),
    index('access_requests_pending_created_idx').on(t.createdAt).where(sql`status = 'PENDING'`),
    check('access_requests_duration_ck', sql`${t.requestedDurationDays} is null or ${t.requestedDurationDays} between 1 and 3650`),
  ],
);

export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token; the token itself is shown once, at creation. */
    tokenHash: text('token_hash').notNull().unique(),
    email: text('email'),
    role: text('role', { enum: ['member', 'tenant-admin'] }).notNull().default('member'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedBy: text('accepted_by'),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('invitations_tenant_idx').on(t.tenantId)],
);

/** Immutable: rows are only ever inserted (a trigger refuses UPDATE and DELETE). */
export const accessAudit = pgTable(
  'access_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: text('tenant_id').notNull(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    subjectUserId: text('subject_user_id'),
    capabilityCode: text('capability_code'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    at: createdAt(),
  },
  (t) => [index('access_audit_tenant_idx').on(t.tenantId, t.id)],
);
