CREATE TABLE "signature_instance_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"instance_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"action" text NOT NULL,
	"signer_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"client_sealed" text,
	"ip_risk" text,
	"geo" text
);
--> statement-breakpoint
CREATE TABLE "signature_instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"definition_id" uuid NOT NULL,
	"version_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"seal_status" text,
	"seal_error" text,
	"sealed_document_id" uuid,
	"variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"expires_at" timestamp with time zone,
	"waiting_workflow_id" text,
	"start_key" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signature_recipient_otps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"code_hash" text,
	"code_salt" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"access_token_hash" text,
	"access_expires_at" timestamp with time zone,
	CONSTRAINT "signature_recipient_otps_recipient_idx" UNIQUE("recipient_id")
);
--> statement-breakpoint
CREATE TABLE "signature_recipients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"instance_id" uuid NOT NULL,
	"tenant_id" text NOT NULL,
	"signer_id" text NOT NULL,
	"order" integer NOT NULL,
	"status" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_sealed" text NOT NULL,
	"name_sealed" text NOT NULL,
	"email_sealed" text NOT NULL,
	"verify" text NOT NULL,
	"signature_document_id" uuid,
	"typed_name_sealed" text,
	"initials_document_id" uuid,
	"field_values_sealed" text,
	"signed_at" timestamp with time zone,
	"opened_at" timestamp with time zone,
	"last_reminded_at" timestamp with time zone,
	"delivery_status" text,
	"delivery_error" text,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "signature_instances" ADD CONSTRAINT "signature_instances_definition_id_signature_definitions_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."signature_definitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_instances" ADD CONSTRAINT "signature_instances_version_id_signature_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."signature_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_recipient_otps" ADD CONSTRAINT "signature_recipient_otps_recipient_id_signature_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."signature_recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_recipients" ADD CONSTRAINT "signature_recipients_instance_id_signature_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."signature_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signature_instance_events_instance_idx" ON "signature_instance_events" USING btree ("instance_id","id");--> statement-breakpoint
CREATE INDEX "signature_instances_list_idx" ON "signature_instances" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_instances_start_key_idx" ON "signature_instances" USING btree ("tenant_id","start_key");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_recipients_signer_idx" ON "signature_recipients" USING btree ("instance_id","signer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_recipients_token_idx" ON "signature_recipients" USING btree ("token_hash");