CREATE TABLE "form_event_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "form_event_outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tenant_id" text NOT NULL,
	"event_type" text NOT NULL,
	"form_code" text NOT NULL,
	"instance_id" uuid NOT NULL,
	"payload_json" jsonb NOT NULL,
	"state" text DEFAULT 'QUEUED' NOT NULL,
	"retry_count" integer DEFAULT 0 NOT NULL,
	"deliveries" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_event_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"form_code" text NOT NULL,
	"event_type" text NOT NULL,
	"workflow_type" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "form_event_outbox_instance_idx" ON "form_event_outbox" USING btree ("instance_id","seq");--> statement-breakpoint
CREATE INDEX "form_event_outbox_due_idx" ON "form_event_outbox" USING btree ("next_attempt_at","seq") WHERE "form_event_outbox"."state" = 'QUEUED';--> statement-breakpoint
CREATE UNIQUE INDEX "form_event_subscriptions_key_idx" ON "form_event_subscriptions" USING btree ("tenant_id","form_code","event_type","workflow_type");