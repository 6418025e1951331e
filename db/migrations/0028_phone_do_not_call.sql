-- Calls only when allowed (docs/phone.md "Do-not-call list", "Calling windows", "Redial").
-- The tenant's do-not-call list: E.164 numbers (normalised by libphonenumber-js before they get here).
CREATE TABLE "phone_do_not_call" (
	"tenant_id" text NOT NULL REFERENCES "tenants"("id") ON DELETE cascade,
	"number" text NOT NULL,
	"source" text NOT NULL,
	"call_id" uuid,
	"added_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "phone_do_not_call_pk" PRIMARY KEY ("tenant_id", "number"),
	CONSTRAINT "phone_do_not_call_source_ck" CHECK ("source" in ('api', 'ended-reason', 'assistant-tool')),
	CONSTRAINT "phone_do_not_call_number_ck" CHECK ("number" ~ '^\+[1-9][0-9]{1,14}$')
);--> statement-breakpoint
-- Calling policy of an assistant (provider assistant id) or a registered phone number (our id):
-- the process calendar whose open hours are the calling window, and the assistant's redial policy.
CREATE TABLE "phone_calling_policies" (
	"tenant_id" text NOT NULL REFERENCES "tenants"("id") ON DELETE cascade,
	"subject_kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"calling_calendar_key" text,
	"redial" jsonb,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "phone_calling_policies_pk" PRIMARY KEY ("tenant_id", "subject_kind", "subject_id"),
	CONSTRAINT "phone_calling_policies_kind_ck" CHECK ("subject_kind" in ('assistant', 'phone-number'))
);--> statement-breakpoint
-- Attempts of one call: the first call's id names the chain (its business key, so every attempt's
-- PhoneCallEnded reaches the first call's process); scheduled_for is when a SCHEDULED call is dialled.
ALTER TABLE "phone_calls" ADD COLUMN "first_call_id" uuid REFERENCES "phone_calls"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "phone_calls" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_calls" ADD COLUMN "scheduled_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_calls" ADD COLUMN "calling_calendar_key" text;--> statement-breakpoint
ALTER TABLE "phone_calls" ADD COLUMN "callee_location_code" text;--> statement-breakpoint
ALTER TABLE "phone_calls" ADD COLUMN "redial" jsonb;--> statement-breakpoint
ALTER TABLE "phone_calls" DROP CONSTRAINT "phone_calls_business_key_is_id";--> statement-breakpoint
ALTER TABLE "phone_calls" ADD CONSTRAINT "phone_calls_business_key_is_chain" CHECK ("business_key" = coalesce("first_call_id", "id")::text);--> statement-breakpoint
ALTER TABLE "phone_calls" ADD CONSTRAINT "phone_calls_attempt_ck" CHECK (("first_call_id" is null) = ("attempt" = 1));--> statement-breakpoint
CREATE UNIQUE INDEX "phone_calls_chain_attempt_idx" ON "phone_calls" USING btree ("first_call_id", "attempt") WHERE "first_call_id" is not null;--> statement-breakpoint
-- Whether an attempt that ended is followed by another (the redial rule, domain/phone/redial.ts
-- holds the same rule and a test holds the two together): the policy's `on` names the outcome
-- (no-answer, busy, failed) and attempts remain. The settling statement and the webhook trigger
-- both ask it, so PhoneCallEnded and phone.call.ended fire once, for the final attempt.
CREATE FUNCTION phone_call_redials(p_status text, p_ended_reason text, p_attempt integer, p_redial jsonb) RETURNS boolean
  LANGUAGE sql IMMUTABLE AS $$
  select coalesce(p_redial is not null and p_attempt < (p_redial->>'maxAttempts')::int and (
    (p_status = 'FAILED' and p_redial->'on' ? 'failed')
    or (p_status = 'ENDED' and p_redial->'on' ? 'no-answer' and p_ended_reason in (
      'customer-did-not-answer', 'call.forwarding.operator-no-answer',
      'call.in-progress.error-providerfault-outbound-sip-408-request-timeout',
      'call.in-progress.error-providerfault-outbound-sip-480-temporarily-unavailable'))
    or (p_status = 'ENDED' and p_redial->'on' ? 'busy' and p_ended_reason in ('customer-busy', 'call.forwarding.operator-busy'))
  ), false)
$$;--> statement-breakpoint
-- phone.call.ended follows PhoneCallEnded: an attempt that is redialled emits nothing; the final one does.
CREATE OR REPLACE FUNCTION webhook_phone_call_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF phone_call_redials(NEW.status, NEW.ended_reason, NEW.attempt, NEW.redial) THEN
    RETURN NULL;
  END IF;
  PERFORM webhook_emit(NEW.tenant_id, 'phone.call.ended', jsonb_build_object(
    'callId', NEW.id,
    'firstCallId', coalesce(NEW.first_call_id, NEW.id),
    'attempt', NEW.attempt,
    'direction', NEW.direction,
    'status', NEW.status,
    'endedReason', NEW.ended_reason,
    'startedAt', webhook_instant(NEW.started_at),
    'endedAt', webhook_instant(NEW.ended_at),
    'link', '/api/phone-calls/' || NEW.id
  ));
  RETURN NULL;
END;
$$;
