-- SLA clocks (docs/calendars.md "SLA clocks"): a business-time budget consumed while a clock runs,
-- one durable process per clock (workflow slaClock, capability SLA, business key = the clock id).
CREATE TABLE "sla_clocks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"process_calendar_id" uuid,
	"process_calendar_key" text NOT NULL,
	"calendar_id" uuid NOT NULL,
	"rules_version" bigint NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"budget_days" integer NOT NULL,
	"budget_minutes" integer NOT NULL,
	"warn_at" integer[] NOT NULL,
	"state" text DEFAULT 'RUNNING' NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"runs" jsonb NOT NULL,
	"due_at" timestamp with time zone,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"breached_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sla_clocks_state_ck" CHECK ("state" in ('RUNNING', 'PAUSED', 'MET', 'BREACHED', 'CANCELLED')),
	CONSTRAINT "sla_clocks_budget_ck" CHECK ("budget_days" >= 0 and "budget_minutes" >= 0 and "budget_days" + "budget_minutes" > 0)
);
--> statement-breakpoint
CREATE TABLE "sla_clock_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"clock_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sla_clocks" ADD CONSTRAINT "sla_clocks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_clocks" ADD CONSTRAINT "sla_clocks_process_calendar_id_fk" FOREIGN KEY ("process_calendar_id") REFERENCES "public"."process_calendar_associations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_clocks" ADD CONSTRAINT "sla_clocks_calendar_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."business_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_clock_events" ADD CONSTRAINT "sla_clock_events_clock_id_fk" FOREIGN KEY ("clock_id") REFERENCES "public"."sla_clocks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sla_clocks_tenant_created_idx" ON "sla_clocks" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sla_clocks_subject_idx" ON "sla_clocks" USING btree ("tenant_id","subject_kind","subject_id","created_at");--> statement-breakpoint
CREATE INDEX "sla_clocks_live_calendar_idx" ON "sla_clocks" USING btree ("calendar_id") WHERE "state" in ('RUNNING', 'PAUSED');--> statement-breakpoint
CREATE INDEX "sla_clocks_live_association_idx" ON "sla_clocks" USING btree ("process_calendar_id") WHERE "state" in ('RUNNING', 'PAUSED');--> statement-breakpoint
CREATE INDEX "sla_clock_events_clock_idx" ON "sla_clock_events" USING btree ("clock_id","id");--> statement-breakpoint
-- The recompute signal, written in the transaction of the calendar change whatever code path made
-- it: the rules_version triggers (migration 0023) raise the calendar's version with every change of
-- the engine's input, and each raise writes one outbox signal row per live clock on the calendar,
-- exactly as db/outbox.ts enqueueSignal writes it (the workflow's transaction lock first, so the
-- row's seq follows commit order; NOTIFY, sent at commit). Lock class 28514 = 0x6f62, the outbox's.
CREATE FUNCTION sla_clocks_signal_live(calendar uuid, association uuid, reason text, version bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  c record;
  wf text;
  signalled boolean := false;
BEGIN
  FOR c IN
    SELECT id, tenant_id FROM sla_clocks
    WHERE state IN ('RUNNING', 'PAUSED')
      AND ((calendar IS NOT NULL AND calendar_id = calendar) OR (association IS NOT NULL AND process_calendar_id = association))
    ORDER BY id
  LOOP
    wf := 'sla:' || c.tenant_id || ':' || c.id::text;
    PERFORM pg_advisory_xact_lock(28514, hashtext(wf));
    INSERT INTO outbox (verb, capability, tenant_id, business_key, workflow_id, args, signal_name, signal_args)
    VALUES ('signal', 'SLA', c.tenant_id, c.id::text, wf, '[]'::jsonb, 'SlaClockChanged',
            jsonb_build_array(jsonb_build_object('reason', reason, 'rulesVersion', version)));
    signalled := true;
  END LOOP;
  IF signalled THEN
    PERFORM pg_notify('outbox_ready', 'SLA');
  END IF;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION sla_clocks_calendar_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sla_clocks_signal_live(NEW.id, NULL, 'calendar-changed', NEW.rules_version);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Not `UPDATE OF rules_version`: the version is raised by a BEFORE trigger on updates that name
-- other columns, which a column list would not see.
CREATE TRIGGER sla_clocks_calendar_changed AFTER UPDATE ON business_calendars
  FOR EACH ROW
  WHEN (OLD.rules_version IS DISTINCT FROM NEW.rules_version)
  EXECUTE FUNCTION sla_clocks_calendar_changed();
--> statement-breakpoint
-- A process association pointed at another calendar: its live clocks run on the association's
-- calendar, so each recomputes on the new one (and records the move) when its process looks again.
CREATE FUNCTION sla_clocks_association_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sla_clocks_signal_live(NULL, NEW.id, 'calendar-changed', NULL);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sla_clocks_association_changed AFTER UPDATE ON process_calendar_associations
  FOR EACH ROW
  WHEN (OLD.calendar_id IS DISTINCT FROM NEW.calendar_id)
  EXECUTE FUNCTION sla_clocks_association_changed();
--> statement-breakpoint
-- A calendar live clocks run on is not deleted from under them: the delete fails as a foreign key
-- violation would (the calendar route's 409 `calendar-in-use`). Finished clocks go with it.
CREATE FUNCTION sla_clocks_calendar_in_use() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM sla_clocks WHERE calendar_id = OLD.id AND state IN ('RUNNING', 'PAUSED')) THEN
    RAISE EXCEPTION 'a running SLA clock uses calendar %', OLD.id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sla_clocks_calendar_in_use BEFORE DELETE ON business_calendars
  FOR EACH ROW EXECUTE FUNCTION sla_clocks_calendar_in_use();
