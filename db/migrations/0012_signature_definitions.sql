CREATE TABLE "signature_audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"definition_id" uuid NOT NULL,
	"action" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"actor" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_definitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"draft_schema" jsonb NOT NULL,
	"published_version" integer,
	"locked_by" text,
	"locked_at" timestamp with time zone,
	"last_tested_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "signature_definitions_status_check" CHECK ("signature_definitions"."status" in ('DRAFT', 'PUBLISHED', 'RETIRED'))
);
--> statement-breakpoint
CREATE TABLE "signature_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" text NOT NULL,
	"definition_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"schema" jsonb NOT NULL,
	"checked_in_by" text NOT NULL,
	"checked_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signed_off_at" timestamp with time zone,
	"signed_off_by" text,
	CONSTRAINT "signature_versions_number_check" CHECK ("signature_versions"."version" >= 1)
);
--> statement-breakpoint
ALTER TABLE "signature_definitions" ADD CONSTRAINT "signature_definitions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_versions" ADD CONSTRAINT "signature_versions_definition_id_signature_definitions_id_fk" FOREIGN KEY ("definition_id") REFERENCES "public"."signature_definitions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signature_audit_events_definition_idx" ON "signature_audit_events" USING btree ("definition_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_definitions_code_idx" ON "signature_definitions" USING btree ("tenant_id","code");--> statement-breakpoint
CREATE INDEX "signature_definitions_tenant_created_idx" ON "signature_definitions" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_versions_number_idx" ON "signature_versions" USING btree ("definition_id","version");