import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  doublePrecision,
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
import { CALL_DIRECTIONS, PHONE_CALL_STATUSES, PROCESS_STATUSES } from '../../domain/phone/call-fields';
import { NUMBER_PROVIDERS } from '../../domain/phone/number-providers';
import type { RedialPolicy } from '../../domain/phone/redial';
import { tenants } from './access';

/** Where the stored end data came from; a real end-of-call-report replaces a reconciliation snapshot. */
export const END_SOURCES = ['webhook', 'reconciliation'] as const;

type JsonMap = Record<string, unknown>;

/**
 * One audit record per call in either direction. `id` is also the business key of the call
 * process (outbox row and workflow id). The provider call id is the webhook join key.
 */
export const phoneCalls = pgTable(
  'phone_calls',
  {
    id: uuid('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    direction: text('direction', { enum: CALL_DIRECTIONS }).notNull(),
    status: text('status', { enum: PHONE_CALL_STATUSES }).notNull(),
    providerCallId: text('provider_call_id'),
    phoneNumberId: text('phone_number_id'),
    assistantId: text('assistant_id'),
    customerNumber: text('customer_number'),
    customerName: text('customer_name'),
    endedReason: text('ended_reason'),
    transcript: text('transcript'),
    recordingUrl: text('recording_url'),
    summary: text('summary'),
    cost: doublePrecision('cost'),
    analysis: jsonb('analysis').$type<JsonMap>(),
    metadata: jsonb('metadata').$type<JsonMap>().notNull().default({}),
    variableValues: jsonb('variable_values').$type<JsonMap>().notNull().default({}),
    errorMessage: text('error_message'),
    /** Raw end-of-call-report message (or the provider's call object when reconciliation settled it). */
    endPayload: jsonb('end_payload').$type<JsonMap>(),
    endSource: text('end_source', { enum: END_SOURCES }),
    businessKey: text('business_key').notNull(),
    processInstanceId: text('process_instance_id'),
    processStatus: text('process_status', { enum: PROCESS_STATUSES }).notNull().default('PENDING'),
    /** X-User-Id of the tenant route, `system` or the internal caller, `workflow:<id>`, or `provider` (inbound). */
    initiatedBy: text('initiated_by').notNull(),
    /** Idempotency key of a placement (workflow activity retries reuse it); unique per tenant. */
    placementKey: text('placement_key'),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** The chain's first call (null on the first itself); business key of every attempt. */
    firstCallId: uuid('first_call_id').references((): AnyPgColumn => phoneCalls.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull().default(1),
    /** When a SCHEDULED call is dialled: the calling window's next opening, or the redial backoff's end. */
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }),
    callingCalendarKey: text('calling_calendar_key'),
    /** The calling calendar's location whose hours are the callee's window (null: any location's). */
    calleeLocationCode: text('callee_location_code'),
    redial: jsonb('redial').$type<RedialPolicy>(),
  },
  (t) => [
    uniqueIndex('phone_calls_provider_call_id_idx').on(t.providerCallId),
    uniqueIndex('phone_calls_placement_key_idx').on(t.tenantId, t.placementKey),
    index('phone_calls_tenant_created_idx').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
    check('phone_calls_business_key_is_chain', sql`${t.businessKey} = coalesce(${t.firstCallId}, ${t.id})::text`),
    check('phone_calls_attempt_ck', sql`(${t.firstCallId} is null) = (${t.attempt} = 1)`),
    uniqueIndex('phone_calls_chain_attempt_idx').on(t.firstCallId, t.attempt).where(sql`${t.firstCallId} is not null`),
  ],
);

/** Numbers a tenant provisioned or imported; the dialled number of an inbound call names its tenant. */
export const NUMBER_REGISTRATIONS = ['PENDING', 'REGISTERED', 'FAILED'] as const;

export const phoneNumbers = pgTable(
  'phone_numbers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** Null while the number is reserved and the provider not yet asked (registration PENDING). */
    providerNumberId: text('provider_number_id'),
    number: text('number'),
    provider: text('provider', { enum: NUMBER_PROVIDERS }).notNull(),
    name: text('name'),
    assistantId: text('assistant_id'),
    providerStatus: text('provider_status'),
    /**
     * PENDING: reserved, the provider is being asked; REGISTERED: created at the provider and
     * recorded; FAILED: the provider created it but recording it failed (`registration_error`):
     * kept so a billable number is never lost. Only REGISTERED rows are served and routed.
     */
    registration: text('registration', { enum: NUMBER_REGISTRATIONS }).notNull().default('REGISTERED'),
    registrationError: text('registration_error'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('phone_numbers_provider_number_id_idx').on(t.providerNumberId).where(sql`${t.registration} = 'REGISTERED'`),
    index('phone_numbers_tenant_idx').on(t.tenantId, t.createdAt),
    index('phone_numbers_number_idx').on(t.number),
  ],
);

/** One row per tenant (id = tenant id). Whether a key is connected is read from the secret store. */
export const phoneSettings = pgTable('phone_settings', {
  tenantId: text('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  defaultAssistantId: text('default_assistant_id'),
  defaultPhoneNumberId: text('default_phone_number_id'),
  version: integer('version').notNull().default(1),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const DO_NOT_CALL_SOURCES = ['api', 'ended-reason', 'assistant-tool'] as const;

/** The tenant's do-not-call list: E.164 numbers, normalised before they are written. */
export const phoneDoNotCall = pgTable(
  'phone_do_not_call',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    /** api (a person), ended-reason (the provider's end of a call), assistant-tool (the assistant's tool call). */
    source: text('source', { enum: DO_NOT_CALL_SOURCES }).notNull(),
    /** The call during which the callee asked not to be called, for the two automatic sources. */
    callId: uuid('call_id'),
    addedBy: text('added_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'phone_do_not_call_pk', columns: [t.tenantId, t.number] }),
    check('phone_do_not_call_source_ck', sql`${t.source} in ('api', 'ended-reason', 'assistant-tool')`),
    check('phone_do_not_call_number_ck', sql`${t.number} ~ '^\\+[1-9][0-9]{1,14}$'`),
  ],
);

export const CALLING_POLICY_SUBJECTS = ['assistant', 'phone-number'] as const;

/** The calling window (a process calendar) and redial policy of an assistant or a registered number. */
export const phoneCallingPolicies = pgTable(
  'phone_calling_policies',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    subjectKind: text('subject_kind', { enum: CALLING_POLICY_SUBJECTS }).notNull(),
    /** The provider's assistant id, or our phone number id. */
    subjectId: text('subject_id').notNull(),
    callingCalendarKey: text('calling_calendar_key'),
    redial: jsonb('redial').$type<RedialPolicy>(),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'phone_calling_policies_pk', columns: [t.tenantId, t.subjectKind, t.subjectId] }),
    check('phone_calling_policies_kind_ck', sql`${t.subjectKind} in ('assistant', 'phone-number')`),
  ],
);
