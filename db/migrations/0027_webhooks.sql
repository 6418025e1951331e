CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"event_types" text[],
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"secret_rotated_at" timestamp with time zone,
	"previous_secret_expires_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"replay_of" uuid,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"failure" text,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_delivery_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"duration_ms" integer NOT NULL,
	"response_body" text,
	"error" text,
	"next_attempt_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_endpoints_tenant_idx" ON "webhook_endpoints" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_events_tenant_idx" ON "webhook_events" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_delivery_attempts_attempt_idx" ON "webhook_delivery_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
-- Events out (docs/webhooks.md "Delivery"): a fact's transaction writes its webhook event, one
-- delivery row per enabled endpoint of the tenant that wants the type, and one outbox start row per
-- delivery (capability WEBHOOKS, business key = delivery id, workflow id as workflowIdFor writes it),
-- and wakes the dispatchers at commit. A tenant without such an endpoint pays one index probe and
-- writes nothing. Each delivery's workflow has this one outbox row, so no per-workflow lock is taken.
CREATE FUNCTION webhook_emit(p_tenant text, p_type text, p_data jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_event uuid;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM webhook_endpoints e
    WHERE e.tenant_id = p_tenant AND e.enabled AND (e.event_types IS NULL OR p_type = ANY (e.event_types))
  ) THEN
    RETURN;
  END IF;
  INSERT INTO webhook_events (tenant_id, type, data) VALUES (p_tenant, p_type, p_data) RETURNING id INTO v_event;
  WITH d AS (
    INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id)
    SELECT p_tenant, e.id, v_event FROM webhook_endpoints e
    WHERE e.tenant_id = p_tenant AND e.enabled AND (e.event_types IS NULL OR p_type = ANY (e.event_types))
    RETURNING id
  )
  INSERT INTO outbox (verb, capability, tenant_id, business_key, workflow_type, workflow_id, args)
  SELECT 'start', 'WEBHOOKS', p_tenant, d.id::text, 'webhookDelivery', 'webhooks:' || p_tenant || ':' || d.id::text,
    jsonb_build_array(jsonb_build_object('tenantId', p_tenant, 'deliveryId', d.id))
  FROM d;
  PERFORM pg_notify('outbox_ready', 'WEBHOOKS');
END;
$$;
--> statement-breakpoint
-- Instants in payloads as the API writes them: ISO-8601 UTC with milliseconds.
CREATE FUNCTION webhook_instant(p timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(p AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
--> statement-breakpoint
-- form.instance.<state>: every row of the forms event rail (0017 writes one per lifecycle change).
CREATE FUNCTION webhook_form_instance_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit(NEW.tenant_id, 'form.instance.' || NEW.event_type, jsonb_build_object(
    'instanceId', NEW.instance_id,
    'formCode', NEW.form_code,
    'definitionVersion', NEW.payload_json -> 'definitionVersion',
    'state', NEW.payload_json -> 'state',
    'previousState', NEW.payload_json -> 'previousState',
    'link', '/api/form-instances/' || NEW.instance_id
  ));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER form_event_outbox_webhook AFTER INSERT ON form_event_outbox
  FOR EACH ROW EXECUTE FUNCTION webhook_form_instance_event();
--> statement-breakpoint
-- signature.instance.<action> and signature.recipient.signed: the ceremony's audit trail, written
-- after the campaign row moved, in the same transaction.
CREATE FUNCTION webhook_signature_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  i record;
BEGIN
  SELECT definition_id, version, status, seal_status INTO i FROM signature_instances WHERE id = NEW.instance_id;
  IF NEW.action = 'signed' THEN
    PERFORM webhook_emit(NEW.tenant_id, 'signature.recipient.signed', jsonb_build_object(
      'instanceId', NEW.instance_id,
      'definitionId', i.definition_id,
      'version', i.version,
      'signerId', NEW.signer_id,
      'status', 'R_SIGNED',
      'link', '/api/signature-instances/' || NEW.instance_id
    ));
  ELSE
    PERFORM webhook_emit(NEW.tenant_id, 'signature.instance.' || NEW.action, jsonb_build_object(
      'instanceId', NEW.instance_id,
      'definitionId', i.definition_id,
      'version', i.version,
      'status', i.status,
      'sealStatus', i.seal_status,
      'link', '/api/signature-instances/' || NEW.instance_id
    ));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER signature_instance_events_webhook AFTER INSERT ON signature_instance_events
  FOR EACH ROW WHEN (NEW.action IN ('completed', 'sealed', 'seal_failed', 'cancelled', 'expired', 'signed'))
  EXECUTE FUNCTION webhook_signature_event();
--> statement-breakpoint
-- phone.call.ended: the first terminal status of a call (statuses only move forward, so once).
CREATE FUNCTION webhook_phone_call_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit(NEW.tenant_id, 'phone.call.ended', jsonb_build_object(
    'callId', NEW.id,
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
--> statement-breakpoint
CREATE TRIGGER phone_calls_ended_webhook AFTER UPDATE OF status ON phone_calls
  FOR EACH ROW WHEN (NEW.status IN ('ENDED', 'FAILED') AND OLD.status NOT IN ('ENDED', 'FAILED'))
  EXECUTE FUNCTION webhook_phone_call_ended();
--> statement-breakpoint
CREATE TRIGGER phone_calls_ended_at_insert_webhook AFTER INSERT ON phone_calls
  FOR EACH ROW WHEN (NEW.status IN ('ENDED', 'FAILED'))
  EXECUTE FUNCTION webhook_phone_call_ended();
--> statement-breakpoint
-- document.ready and document.quarantined: a document reaching either status, at insert or later.
CREATE FUNCTION webhook_document_settled() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_emit(NEW.tenant_id, 'document.' || lower(NEW.status), jsonb_build_object(
    'documentId', NEW.id,
    'kind', NEW.kind,
    'capability', NEW.capability,
    'processRef', NEW.process_ref,
    'status', NEW.status,
    'scanStatus', NEW.scan_status,
    'link', '/api/documents/' || NEW.id
  ));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER documents_settled_webhook AFTER UPDATE OF status ON documents
  FOR EACH ROW WHEN (NEW.status IN ('READY', 'QUARANTINED') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION webhook_document_settled();
--> statement-breakpoint
CREATE TRIGGER documents_settled_at_insert_webhook AFTER INSERT ON documents
  FOR EACH ROW WHEN (NEW.status IN ('READY', 'QUARANTINED'))
  EXECUTE FUNCTION webhook_document_settled();
--> statement-breakpoint
-- sla.clock.warning|breached|met: a clock's own event rows (migration 0025), written after the
-- clock's row moved, in the same transaction; the clock's state and due date are the moved ones.
CREATE FUNCTION webhook_sla_clock_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  c record;
BEGIN
  SELECT subject_kind, subject_id, process_calendar_key, state, due_at INTO c FROM sla_clocks WHERE id = NEW.clock_id;
  PERFORM webhook_emit(NEW.tenant_id, 'sla.clock.' || NEW.kind, jsonb_build_object(
    'clockId', NEW.clock_id,
    'subject', jsonb_build_object('kind', c.subject_kind, 'id', c.subject_id),
    'processCalendarKey', c.process_calendar_key,
    'state', c.state,
    'percent', CASE NEW.kind WHEN 'warning' THEN NEW.detail -> 'percent' WHEN 'breached' THEN to_jsonb(100) ELSE NULL END,
    'reachedAt', webhook_instant(NEW.at),
    'dueAt', webhook_instant(c.due_at),
    'link', '/api/sla-clocks/' || NEW.clock_id
  ));
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sla_clock_events_webhook AFTER INSERT ON sla_clock_events
  FOR EACH ROW WHEN (NEW.kind IN ('warning', 'breached', 'met'))
  EXECUTE FUNCTION webhook_sla_clock_event();
